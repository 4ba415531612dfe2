/**
 * Every page passes axe (@axe-core/playwright) with no serious or critical violation:
 * home, a repository's chat with an answer, the source view, a share link, the wiki,
 * the issues page, the sign-in pages and every admin page. And the chat works from
 * the keyboard alone: ask, open a citation, share. (Named to run after admin.spec.ts,
 * whose dashboard counts the questions asked before it.)
 */
import { expect, test, type Page } from "@playwright/test";
import { AdminLoginPage } from "./pages/admin-page";
import { ChatPage } from "./pages/chat-page";
import { repositoryId } from "./pages/repositories-page";
import { seriousViolations } from "./support/axe";

test("every page has no serious or critical accessibility violation", async ({ page, request }) => {
  const id = await repositoryId(request, "shop");
  const checked: string[] = [];
  const check = async (name: string) => {
    expect(await seriousViolations(page), name).toEqual([]);
    checked.push(name);
  };

  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Repositories" })).toBeVisible();
  await check("home");

  const chat = new ChatPage(page);
  await chat.goto(id);
  await check("chat (empty)");
  await chat.ask("How are the modules of the shop connected?", { mode: "analytical" });
  await chat.answer(1);
  await chat.ask("Why do I get PaymentDeclined: card declined by gateway when placing an order?");
  const answer = await chat.answer(2);
  await expect(answer.verifiedCitations.first().getByTestId("citation-snippet")).toHaveAttribute(
    "data-highlighted",
    "true",
  );
  await check("chat with answers, a diagram and citations");
  const shareUrl = await chat.share();

  await page.goto(`/repos/${id}/source?path=shop/payments.py&lines=12-18`);
  await expect(page.getByTestId("source-code")).toBeVisible();
  await check("source view");

  await page.goto(shareUrl);
  await expect(page.getByTestId("share-page")).toBeVisible();
  await check("share page");

  for (const slug of ["", "dir/shop", "file/shop/service.py"]) {
    await page.goto(`/repos/${id}/wiki${slug ? `/${slug}` : ""}`);
    await expect(page.getByTestId("wiki-page")).toBeVisible();
    await check(`wiki ${slug || "overview"}`);
  }

  await page.goto(`/repos/${id}/issues`);
  await expect(page.getByTestId("issues-page")).toBeVisible();
  await check("issues");

  for (const path of ["/login", "/admin/login"]) {
    await page.goto(path);
    await check(path);
  }

  await AdminLoginPage.open(page, "/admin", "a11y-check");
  await check("admin dashboard");
  for (const path of ["/admin/settings", "/admin/golden", "/admin/secrets", "/admin/sources"]) {
    await page.goto(path);
    await expect(page.getByTestId("admin-page")).toBeVisible();
    await check(path);
  }
  expect(checked).toHaveLength(16);
});

/** Presses Tab until the focused element matches, as a keyboard user would move through the page. */
async function tabTo(page: Page, selector: string, limit = 120): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`${selector} was not reached with ${limit} presses of Tab`);
}

test("the chat works from the keyboard alone: ask, open a citation, share", async ({ page, request }) => {
  const id = await repositoryId(request, "shop");
  await page.goto(`/repos/${id}`);
  const chat = new ChatPage(page);
  // The question box has the focus on an empty chat.
  await expect(chat.input).toBeFocused();
  await page.keyboard.type("Why do I get PaymentDeclined: card declined by gateway when placing an order?");
  await page.keyboard.press("Enter");
  const answer = await chat.answer(1);
  await expect(answer.inlineCitations.first()).toBeVisible();

  // An inline citation, reached with Tab and opened with Enter.
  await tabTo(page, '[data-testid="citation-ref"][data-verified="true"]');
  const href = await page.evaluate(() => (document.activeElement as HTMLAnchorElement).getAttribute("href"));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/source\?path=/);
  expect(page.url()).toContain(href?.split("#")[0] ?? "missing");
  await expect(page.getByTestId("source-code")).toBeVisible();

  // Back in the chat, share: the link takes the focus, ready to copy.
  await page.goBack();
  await expect(chat.answers).toHaveCount(1);
  await page.locator("body").focus();
  await tabTo(page, '[data-testid="share-button"]');
  await page.keyboard.press("Enter");
  const link = page.getByTestId("share-link");
  await expect(link).toBeFocused();
  await expect(link).toHaveValue(/\/s\/[A-Za-z0-9_-]{16,}$/);
});
