import { expect, test } from "@playwright/test";
import { AdminLoginPage } from "./pages/admin-page";
import { ChatPage } from "./pages/chat-page";
import { repositoryId } from "./pages/repositories-page";
import { WikiPage } from "./pages/wiki-page";
import { watchCspViolations } from "./support/csp-violations";

test("pages carry a strict nonce CSP and still render diagrams and highlighted code with no violation", async ({
  page,
  context,
  request,
  browser,
}) => {
  const violations = await watchCspViolations(context);
  const id = await repositoryId(request, "shop");

  const home = await request.get("/");
  const csp = home.headers()["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toContain("'unsafe-eval'");
  expect(home.headers()["x-frame-options"]).toBe("DENY");
  expect(home.headers()["x-content-type-options"]).toBe("nosniff");
  // A fresh nonce per request.
  const again = (await request.get("/")).headers()["content-security-policy"];
  expect(again).not.toBe(csp);
  const api = await request.get("/api/repos");
  expect(api.headers()["x-content-type-options"]).toBe("nosniff");

  // Chat: an answer with a diagram and shiki-highlighted citations.
  const chat = new ChatPage(page);
  await chat.goto(id);
  await chat.ask("How are the modules of the shop connected?", { mode: "analytical" });
  const analytical = await chat.answer(1);
  await expect(analytical.diagramSvg).toBeVisible();
  await chat.ask("Why do I get PaymentDeclined: card declined by gateway when placing an order?");
  const diagnostic = await chat.answer(2);
  await expect(diagnostic.verifiedCitations.first().getByTestId("citation-snippet")).toHaveAttribute(
    "data-highlighted",
    "true",
  );
  const shareUrl = await chat.share();

  // Wiki: a file page with its call diagram and highlighted signatures.
  const wiki = new WikiPage(page);
  await wiki.goto(id, "file/shop/service.py");
  await expect(wiki.diagramSvg).toBeVisible();

  // Source view, share page, admin.
  await page.goto(`/repos/${id}/source?path=shop/service.py&lines=1-5`);
  await expect(page.getByTestId("source-page")).toBeVisible();
  const visitor = await browser.newContext();
  const visitorViolations = await watchCspViolations(visitor);
  const sharePage = await visitor.newPage();
  await sharePage.goto(shareUrl);
  await expect(sharePage.getByTestId("share-page")).toBeVisible();
  await expect(sharePage.locator('[data-testid="diagram-svg"] svg').first()).toBeVisible();
  await AdminLoginPage.open(page, "/admin", "csp-check");
  await expect(page.getByTestId("admin-page")).toBeVisible();

  expect(await violations()).toEqual([]);
  expect(await visitorViolations()).toEqual([]);
  await visitor.close();
});
