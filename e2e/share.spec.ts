import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { AnswerPanel, ChatPage } from "./pages/chat-page";
import { addRepositoryAndWait, repositoryId, waitForReady } from "./pages/repositories-page";

test("a shared session opens read-only in a fresh browser, with the whole answer", async ({
  page,
  browser,
  request,
}) => {
  const chat = new ChatPage(page);
  await chat.goto(await repositoryId(request, "shop"));
  // fraud_screen is nowhere in the shop: the engine looks for it in a second pass, so the
  // shared answer has more than one pass to show.
  await chat.ask(
    "Why do I get PaymentDeclined: card declined by gateway when placing an order? Is it retried by fraud_screen?",
  );
  await chat.answer(1);
  const url = await chat.share();

  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto(url);
  await expect(visitor.getByTestId("share-page")).toBeVisible();
  await expect(visitor.getByTestId("share-generation")).toContainText("generation 1");
  await expect(visitor.getByTestId("user-message")).toContainText("PaymentDeclined");
  const answer = new AnswerPanel(visitor.getByTestId("assistant-message").first());
  await expect(answer.text).toContainText("PaymentDeclined");
  await expect(answer.passes).toHaveCount(1);
  await expect(answer.root.getByTestId("timeline-lookup")).toContainText("Lookup after pass 1");
  await expect(answer.verifiedCitations.first().getByTestId("citation-snippet")).toHaveAttribute(
    "data-highlighted",
    "true",
  );
  await expect(answer.verifiedCitations.first().getByTestId("citation-drift")).toHaveText(
    "unchanged since generation 1",
  );
  // A cited function's snippet shows its body, not its docstring, as the chat did.
  const raiser = answer.verifiedCitations.filter({
    has: visitor.getByTestId("citation-target").getByText("charge_card", { exact: true }),
  });
  await expect(raiser.first().getByTestId("citation-snippet")).toContainText("raise PaymentDeclined");
  await expect(raiser.first().getByTestId("citation-snippet")).not.toContainText("Charge a customer's card");
  // Read-only: no question box, no share button.
  await expect(visitor.getByTestId("question-input")).toHaveCount(0);
  await expect(visitor.getByTestId("share-button")).toHaveCount(0);
  // Citations open the generation the answer was written against.
  await expect(answer.verifiedCitations.first().getByTestId("citation-open")).toHaveAttribute(
    "href",
    /&generation=[0-9a-f-]+/,
  );
  await context.close();
});

test("a share link says when cited lines changed after a re-index", async ({ page, request }) => {
  // A private copy of the inventory fixture that this test may edit.
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "wayfinder-share-"));
  fs.cpSync(path.resolve("e2e/fixtures/inventory"), root, { recursive: true });
  const id = await addRepositoryAndWait(request, root, `drift-${path.basename(root)}`);

  const chat = new ChatPage(page);
  await chat.goto(id);
  await chat.ask("Why do I get OutOfStockError: not enough stock when fulfilling an order?");
  const answer = await chat.answer(1);
  await expect(answer.verifiedCitations.first()).toBeVisible();
  const url = await chat.share();

  // Shift every line of the code files, then re-index.
  for (const file of fs.readdirSync(path.join(root, "src"))) {
    const full = path.join(root, "src", file);
    fs.writeFileSync(full, `// edited after sharing\n${fs.readFileSync(full, "utf8")}`);
  }
  expect((await request.post(`/api/repos/${id}/index`)).status()).toBe(202);
  await waitForReady(request, id, 2);

  await page.goto(url);
  await expect(page.getByTestId("share-reindexed")).toContainText("now generation 2");
  await expect(
    page.getByTestId("citation-drift").filter({ hasText: "changed in generation 2" }).first(),
  ).toBeVisible();
  await expect(page.locator('[data-testid="citation-drift"][data-drift="changed"]').first()).toHaveText(
    "changed in generation 2",
  );
  fs.rmSync(root, { recursive: true, force: true });
});

test("an unknown share id is a 404 page", async ({ page }) => {
  const response = await page.goto("/s/AAAAAAAAAAAAAAAAAAAAAA");
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId("share-not-found")).toContainText("Shared conversation not found");
});
