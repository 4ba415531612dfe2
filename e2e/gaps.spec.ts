/**
 * Gaps in the browser: one resolved by the loop itself, one the loop cannot find and
 * the user fills ("I know where this is"). A location that is not in the index is
 * refused beside the form with the answer untouched; a pasted excerpt continues the
 * answer from that pass, marked as provided by the user and not verified, and the
 * continued answer is what a reload and a share link show.
 */
import { expect, test } from "@playwright/test";
import { ChatPage, AnswerPanel } from "./pages/chat-page";
import { repositoryId } from "./pages/repositories-page";

const SHOTS = "test-results/screenshots";
const ADMIN = {
  authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN ?? "e2e-admin-token-0123456789abcdef"}`,
};
// fraud_screen exists nowhere in the shop; with a small first retrieval the error site's
// caller is not in the first pass's context either, and the loop finds it by itself.
const QUESTION =
  "Why does create_order return 402 with PaymentDeclined? Is block_card involved, or fraud_screen?";
const EXCERPT = "def fraud_screen(order):\n    return order['total'] > 5000";

test.beforeEach(async ({ request }) => {
  const put = await request.put("/api/admin/settings", {
    headers: ADMIN,
    data: { cgrag: { initialRetrievalBudget: 300 } },
  });
  expect(put.status()).toBe(200);
});

// The settings apply to every question on the server: never leave them to the specs after.
test.afterEach(async ({ request }) => {
  expect((await request.delete("/api/admin/settings", { headers: ADMIN })).status()).toBe(200);
});

test("one gap is resolved by the loop, the other is filled by the user and the answer continues from it", async ({
  page,
  request,
  browser,
}) => {
  const chat = new ChatPage(page);
  await chat.goto(await repositoryId(request, "shop"));
  await chat.ask(QUESTION, { mode: "diagnostic" });
  const first = await chat.answer(1);

  // Resolved automatically: the error site's caller, found by direct lookup.
  const automatic = first.resolvedGaps.filter({ hasText: "OrderService.place_order" });
  await expect(automatic).toContainText("by direct lookup after pass 1");
  await expect(automatic).not.toHaveAttribute("data-via", "user");
  // Not found: fraud_screen, with what was searched and the way to fill it.
  const missing = first.unresolvedGaps.filter({ hasText: "fraud_screen" });
  await expect(missing).toContainText("searched:");
  await missing.getByTestId("gap-fill-open").click();
  await first.root.getByTestId("gaps-panel").scrollIntoViewIfNeeded();

  // A location that is not in the index: refused next to the form, the answer untouched.
  const form = missing.getByTestId("gap-fill-form");
  await form.getByTestId("gap-fill-location").fill("shop/fraud.py");
  await form.getByTestId("gap-fill-submit").click();
  await expect(form.getByTestId("gap-fill-error")).toContainText('No file or folder "shop/fraud.py" in shop');
  await expect(form.getByTestId("gap-fill-location")).toHaveValue("shop/fraud.py");
  await expect(chat.answers).toHaveCount(1);
  await page.screenshot({ path: `${SHOTS}/gaps-refused-location.png` });

  // A pasted excerpt: the answer continues from that pass.
  await form.getByTestId("gap-fill-kind-excerpt").check();
  await form.getByTestId("gap-fill-excerpt").fill(EXCERPT);
  await form.getByTestId("gap-fill-submit").click();
  const continued = await chat.answer(1);
  await expect(chat.answers).toHaveCount(1);
  await expect(chat.questions).toHaveCount(1);
  await expectFilled(continued);
  await continued.root.getByTestId("gaps-panel").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/gaps-filled-by-user.png` });

  // Stored with the session: a reload shows the continued answer.
  await page.reload();
  await expectFilled(await chat.answer(1));

  // And the share link shows it, read-only.
  const url = await chat.share();
  const visitor = await browser.newContext();
  const shared = await visitor.newPage();
  await shared.goto(url);
  const answer = new AnswerPanel(shared.getByTestId("assistant-message").first());
  await expectFilled(answer);
  await expect(answer.root.getByTestId("gap-fill-open")).toHaveCount(0);
  await visitor.close();
});

/** The answer continued from the excerpt: a pass of the user's, the gap resolved by them, marked unverified. */
async function expectFilled(answer: AnswerPanel): Promise<void> {
  const userPass = answer.root.locator('[data-testid="timeline-pass"][data-source="user"]');
  await expect(userPass).toHaveCount(1);
  await expect(userPass).toContainText("provided by you");
  const filled = answer.resolvedGaps.filter({ hasText: "fraud_screen" });
  await expect(filled).toHaveAttribute("data-via", "user");
  await expect(filled.getByTestId("gap-excerpt")).toContainText("provided by the user, not verified");
  await expect(filled.getByTestId("gap-excerpt")).toContainText("return order['total'] > 5000");
  await expect(answer.resolvedGaps.filter({ hasText: "OrderService.place_order" })).toHaveCount(1);
  await expect(answer.unresolvedGaps).toHaveCount(0);
  await expect(answer.text).toContainText("Provided by you");
  await expect(answer.text).toContainText("provided by the user, not verified");
  await expect(answer.root.getByTestId("meta-passes")).toContainText("from what you provided");
}
