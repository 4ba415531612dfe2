import path from "node:path";
import { expect, test } from "@playwright/test";
import { RepositoriesPage } from "./pages/repositories-page";

const INVENTORY = path.resolve("e2e/fixtures/inventory");
const SHOP = path.resolve("e2e/fixtures/shop");

test("the repositories page lists the indexed fixture repository with its stats", async ({ page }) => {
  const repos = new RepositoriesPage(page);
  await repos.goto();
  const card = repos.card("shop");
  await expect(card).toBeVisible();
  await expect(card.getByTestId("repo-status")).toHaveText("ready");
  const stats = card.getByTestId("repo-stats");
  await expect(stats).toContainText("generation 1");
  await expect(stats).toContainText(/\d+ symbols/);
  await expect(stats).toContainText("python");
  const symbols = Number((await stats.textContent())?.match(/(\d+) symbols/)?.[1]);
  expect(symbols).toBeGreaterThanOrEqual(12);
});

test("adding a repository by path indexes it with live progress, then re-indexes it", async ({ page }) => {
  const repos = new RepositoriesPage(page);
  await repos.goto();
  // Other specs share this server and may have added repositories of their own.
  await expect(repos.card("shop")).toBeVisible();
  const before = await page.getByTestId("repo-card").count();
  await repos.recordPhases();
  await repos.add(INVENTORY);

  const card = repos.card("inventory");
  await expect(card).toBeVisible();
  await expect(card.getByTestId("repo-status")).toHaveText("ready", { timeout: 30_000 });
  const progress = card.getByTestId("index-progress");
  await expect(progress).toHaveAttribute("data-phase", "done");
  await expect(progress.getByTestId("index-files")).toHaveText("5 / 5 files");
  await expect(progress.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
  await expect(card.getByTestId("repo-stats")).toContainText("generation 1");
  await expect(card.getByTestId("repo-languages")).toContainText("typescript 4");
  // The build was seen running (a phase before "done"), not only finished.
  const phases = await repos.recordedPhases("inventory");
  expect(phases.at(-1)).toBe("done");
  expect(phases.some((p) => p !== "done")).toBe(true);
  // The new repository beside the others, the form cleared for the next one.
  await expect(page.getByTestId("repo-card")).toHaveCount(before + 1);
  await expect(repos.pathInput).toHaveValue("");

  await card.getByTestId("reindex-button").click();
  await expect(card.getByTestId("repo-stats")).toContainText("generation 2", { timeout: 30_000 });
  await expect(card.getByTestId("repo-status")).toHaveText("ready");
});

test("bad paths and duplicate names get clear inline errors", async ({ page }) => {
  const repos = new RepositoriesPage(page);
  await repos.goto();

  await repos.add("/definitely/not/a/folder");
  await expect(repos.pathError).toHaveText("No such folder: /definitely/not/a/folder");
  await expect(repos.pathInput).toHaveAttribute("aria-invalid", "true");

  await repos.add(path.join(SHOP, "shop/api.py"));
  await expect(repos.pathError).toContainText("is a file, not a folder");

  await repos.add(SHOP);
  await expect(repos.pathError).toContainText('is already added as "shop"');

  await repos.add(path.join(SHOP, "docs"), "shop");
  await expect(repos.nameError).toContainText('A repository named "shop" already exists');
  await expect(repos.nameInput).toHaveAttribute("aria-invalid", "true");

  await repos.add("");
  await expect(repos.pathError).toHaveText("A repository path is required.");
});
