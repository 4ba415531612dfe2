/** Page object for the repositories page (`/`): the add form and the repository cards. */
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";

export class RepositoriesPage {
  readonly pathInput: Locator;
  readonly nameInput: Locator;
  readonly submit: Locator;
  readonly pathError: Locator;
  readonly nameError: Locator;

  constructor(readonly page: Page) {
    this.pathInput = page.getByTestId("repo-path-input");
    this.nameInput = page.getByTestId("repo-name-input");
    this.submit = page.getByTestId("add-repo-submit");
    this.pathError = page.getByTestId("repo-path-error");
    this.nameError = page.getByTestId("repo-name-error");
  }

  async goto(): Promise<void> {
    await this.page.goto("/");
    await expect(this.page.getByRole("heading", { name: "Repositories" })).toBeVisible();
  }

  card(name: string): Locator {
    return this.page
      .getByTestId("repo-card")
      .filter({ has: this.page.getByRole("heading", { name, exact: true }) });
  }

  async add(path: string, name = ""): Promise<void> {
    await this.pathInput.fill(path);
    await this.nameInput.fill(name);
    await this.submit.click();
  }

  /** Records every index phase the cards show from now on (builds can be faster than a poll). */
  async recordPhases(): Promise<void> {
    await this.page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __phases: string[] }).__phases = seen;
      const record = () =>
        document.querySelectorAll("[data-testid=index-progress]").forEach((el) => {
          const entry = `${el.closest("[data-testid=repo-card]")?.querySelector("h2")?.textContent}:${el.getAttribute("data-phase")}`;
          if (seen.at(-1) !== entry) seen.push(entry);
        });
      new MutationObserver(record).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
      });
    });
  }

  async recordedPhases(name: string): Promise<string[]> {
    const all = await this.page.evaluate(() => (window as unknown as { __phases: string[] }).__phases);
    return all.filter((e) => e.startsWith(`${name}:`)).map((e) => e.slice(name.length + 1));
  }
}

/** A repository's id by name, through the API (for tests that start on another page). */
export async function repositoryId(request: APIRequestContext, name: string): Promise<string> {
  const response = await request.get("/api/repos");
  const { repositories } = (await response.json()) as { repositories: { id: string; name: string }[] };
  const repo = repositories.find((r) => r.name === name);
  if (!repo) throw new Error(`no repository named ${name}`);
  return repo.id;
}

/** Adds a repository through the API and waits for its first index. */
export async function addRepositoryAndWait(
  request: APIRequestContext,
  path: string,
  name: string,
): Promise<string> {
  const response = await request.post("/api/repos", { data: { path, name } });
  expect(response.status()).toBe(202);
  const { repository } = (await response.json()) as { repository: { id: string } };
  await waitForReady(request, repository.id, 1);
  return repository.id;
}

/** Waits until the repository serves at least the given generation number. */
export async function waitForReady(
  request: APIRequestContext,
  id: string,
  generation: number,
): Promise<void> {
  await expect
    .poll(
      async () => {
        const body = (await (await request.get(`/api/repos/${id}`)).json()) as {
          repository: { status: string; active: { number: number } | null };
        };
        return body.repository.status === "ready" ? (body.repository.active?.number ?? 0) : -1;
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThanOrEqual(generation);
}
