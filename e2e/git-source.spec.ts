/**
 * A repository that follows a Git remote, end to end against the running server: added
 * by URL in the form (a bare repository made by the test), indexed at the branch head
 * with its commit on the card; a commit pushed by the test and announced by a signed
 * webhook over HTTP re-indexes it; a bad signature gets 401; an unreachable URL shows
 * its error on the card. Also the app's icon.
 */
import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { RepositoriesPage } from "./pages/repositories-page";

const ADMIN_TOKEN = process.env.E2E_ADMIN_TOKEN ?? "e2e-admin-token-0123456789abcdef";
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "E2E",
  GIT_AUTHOR_EMAIL: "e2e@example.invalid",
  GIT_COMMITTER_NAME: "E2E",
  GIT_COMMITTER_EMAIL: "e2e@example.invalid",
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8" }).trim();

function remoteWithCommit(): { bare: string; push: (file: string, text: string) => string } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "wayfinder-e2e-git-"));
  const bare = path.join(base, "ledger.git");
  const work = path.join(base, "work");
  fs.mkdirSync(bare);
  fs.mkdirSync(work);
  git(bare, "init", "--quiet", "--bare", "--initial-branch=main");
  git(work, "init", "--quiet", "--initial-branch=main");
  const push = (file: string, text: string) => {
    fs.writeFileSync(path.join(work, file), text);
    git(work, "add", "--all");
    git(work, "commit", "--quiet", "-m", `edit ${file}`);
    git(work, "push", "--quiet", bare, "HEAD:refs/heads/main");
    return git(work, "rev-parse", "HEAD");
  };
  push("ledger.py", 'def post_entry(book, amount):\n    """Add an entry."""\n    book.append(amount)\n');
  return { bare, push };
}

test("a repository added by Git URL follows a pushed commit announced by a signed webhook", async ({
  page,
  request,
}) => {
  const remote = remoteWithCommit();
  const repos = new RepositoriesPage(page);
  await repos.goto();
  await page.getByTestId("repo-source-git").check();
  await page.getByTestId("repo-url-input").fill(`file://${remote.bare}`);
  await page.getByTestId("repo-branch-input").fill("main");
  await repos.nameInput.fill("ledger");
  await repos.submit.click();

  const card = repos.card("ledger");
  await expect(card.getByTestId("repo-status")).toHaveText("ready", { timeout: 60_000 });
  await expect(card.getByTestId("repo-source")).toContainText(`file://${remote.bare} · branch main`);
  const first = git(remote.bare, "rev-parse", "refs/heads/main");
  await expect(card.getByTestId("repo-commit")).toHaveAttribute("data-sha", first);
  const id = await card.getAttribute("data-repo-id");

  const settings = await (
    await request.get(`/api/repos/${id}/schedule`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  ).json();
  const head = remote.push(
    "ledger.py",
    "def post_entry(book, amount):\n    book.append(amount)\n\n\ndef reverse_entry(book):\n    book.pop()\n",
  );
  const body = JSON.stringify({
    ref: "refs/heads/main",
    after: head,
    repository: { default_branch: "main" },
  });
  const signature = `sha256=${createHmac("sha256", settings.webhook.secret).update(body).digest("hex")}`;

  const forged = await request.post(settings.webhook.path, {
    headers: {
      "content-type": "application/json",
      "x-github-event": "push",
      "x-hub-signature-256": "sha256=" + "0".repeat(64),
    },
    data: body,
  });
  expect(forged.status()).toBe(401);

  const delivered = await request.post(settings.webhook.path, {
    headers: {
      "content-type": "application/json",
      "x-github-event": "push",
      "x-hub-signature-256": signature,
    },
    data: body,
  });
  expect(delivered.status()).toBe(202);
  expect(await delivered.json()).toMatchObject({ action: "received", head, build: { queued: true } });
  await expect(card.getByTestId("repo-commit")).toHaveAttribute("data-sha", head, { timeout: 60_000 });
  await expect(card.getByTestId("repo-stats")).toContainText("generation 2");

  // The chat names the commit it answers from.
  await card.getByTestId("open-chat").click();
  await expect(page.getByTestId("chat-commit")).toHaveAttribute("data-sha", head);
});

test("an unreachable Git URL shows a clear error on the repository card", async ({ page }) => {
  const repos = new RepositoriesPage(page);
  await repos.goto();
  await page.getByTestId("repo-source-git").check();
  await page.getByTestId("repo-url-input").fill("https://token:s3cret@127.0.0.1:9/team/unreachable.git");
  await repos.nameInput.fill("unreachable");
  await repos.submit.click();
  const card = repos.card("unreachable");
  await expect(card.getByTestId("repo-status")).toHaveText("failed", { timeout: 60_000 });
  await expect(card.getByTestId("repo-error")).toContainText(
    "Could not reach https://127.0.0.1:9/team/unreachable.git",
  );
  await expect(card).not.toContainText("s3cret");
});

test("the app's icon is served where browsers ask for it", async ({ page, request }) => {
  const ico = await request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect((await ico.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  await page.goto("/");
  await expect(page.locator('link[rel="icon"][href="/icon.svg"]')).toHaveCount(1);
  expect((await request.get("/icon.svg")).status()).toBe(200);
});
