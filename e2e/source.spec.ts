import { expect, test } from "@playwright/test";
import { repositoryId } from "./pages/repositories-page";
import { SourcePage } from "./pages/source-page";

test("the source view shows an indexed file with the cited lines marked and in view", async ({
  page,
  request,
}) => {
  const id = await repositoryId(request, "shop");
  const source = new SourcePage(page);
  await page.goto(`/repos/${id}/source?path=shop/payments.py&lines=12-18`);
  await expect(source.path).toHaveText("shop/payments.py");
  expect(await source.markedRange()).toEqual([12, 18]);
  await expect(source.line(18)).toContainText('raise PaymentDeclined("card declined by gateway")');
  await expect(source.line(12)).toBeInViewport();
  // Highlighted by shiki: tokens carry colours.
  await expect(source.line(12).locator("span[style]").first()).toBeVisible();
});

test("paths outside the index are a 404 with a clear message, traversal included", async ({
  page,
  request,
}) => {
  const id = await repositoryId(request, "shop");
  const source = new SourcePage(page);
  for (const query of [
    "path=../../etc/passwd",
    "path=%2Fetc%2Fpasswd",
    "path=%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "path=shop/%2e%2e/shop/api.py",
    "path=..%252f..%252fetc%252fpasswd",
    "path=shop/not_here.py",
  ]) {
    const response = await page.goto(`/repos/${id}/source?${query}`);
    expect(response?.status(), query).toBe(404);
    await expect(source.notFound).toContainText("File not found in the index");
    await expect(page.locator("body")).not.toContainText("root:x:0:0");
  }
  const unknownRepo = await page.goto(`/repos/nope/source?path=shop/api.py`);
  expect(unknownRepo?.status()).toBe(404);
});
