import { expect, test } from "@playwright/test";

test("the repositories page lists the indexed fixture repository with its stats", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Repositories" })).toBeVisible();
  const card = page.getByTestId("repo-card").filter({ hasText: "shop" });
  await expect(card).toBeVisible();
  const stats = card.getByTestId("repo-stats");
  await expect(stats).toContainText("generation 1");
  await expect(stats).toContainText(/\d+ symbols/);
  await expect(stats).toContainText("python");
  const symbols = Number((await stats.textContent())?.match(/(\d+) symbols/)?.[1]);
  expect(symbols).toBeGreaterThanOrEqual(12);
});
