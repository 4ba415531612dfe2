import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { repositoryId } from "./pages/repositories-page";
import { SourcePage } from "./pages/source-page";

const DIAGNOSTIC = "Why do I get PaymentDeclined: card declined by gateway when placing an order?";
// fraud_screen exists nowhere in the shop: the engine names it as a gap it cannot resolve
// (the rest of the evidence suffices, so it is the only gap).
const DIAGNOSTIC_WITH_MISSING = `${DIAGNOSTIC} Is it retried by fraud_screen?`;

test("a diagnostic question streams a direct answer, passes, gaps and highlighted citations that open the source", async ({
  page,
  request,
}) => {
  const chat = new ChatPage(page);
  await chat.goto(await repositoryId(request, "shop"));
  await expect(page.getByTestId("chat-empty")).toBeVisible();
  await chat.ask(DIAGNOSTIC_WITH_MISSING);
  const answer = await chat.answer(1);

  await expect(answer.classificationMode).toHaveText("diagnostic");
  // Pass 1 answered; the lookup of fraud_screen after it found nothing, so it is shown as
  // that lookup, not as a pass: header, timeline and footer count one pass alike.
  await expect(answer.passes).toHaveCount(1);
  await expect(answer.passes.last()).toHaveAttribute("data-phase", "done");
  await expect(answer.root.getByTestId("timeline-lookup")).toContainText("Lookup after pass 1");
  await expect(answer.root.getByTestId("answer-status")).toContainText("1 pass");
  await expect(answer.root.getByTestId("meta-passes")).toHaveText(/^1 of \d+$/);
  const unresolved = answer.unresolvedGaps.filter({ hasText: "fraud_screen" });
  await expect(unresolved).toContainText("searched:");
  await expect(answer.resolvedGaps).toHaveCount(0);
  // The answer opens with the raise site and its caller.
  await expect(answer.text).toContainText(
    'PaymentDeclined("card declined by gateway") is raised by charge_card',
  );
  await expect(answer.text).toContainText("It is called from OrderService.place_order");
  await expect(page.getByTestId("chat-status")).toHaveText("Answer complete.");

  // Inline citations: verified ones are links; none is left "checking".
  await expect(answer.inlineCitations.first()).toBeVisible();
  await expect(answer.root.locator('[data-testid="citation-ref"][data-verified="pending"]')).toHaveCount(0);

  // A verified citation's snippet is highlighted by shiki, and opens the source at its lines.
  await answer.showAllCitations();
  const citation = answer.verifiedCitations.filter({ hasText: "shop/payments.py" }).first();
  await expect(citation.getByTestId("citation-snippet")).toHaveAttribute("data-highlighted", "true");
  await expect(citation.locator(".shiki span[style]").first()).toBeVisible();
  // A cited function's snippet shows the lines that answer, numbered as in the file: its
  // body down to the raise, not its signature or docstring.
  const raiser = answer.verifiedCitations.filter({
    has: page.getByTestId("citation-target").getByText("charge_card", { exact: true }),
  });
  const body = raiser.first().getByTestId("citation-snippet");
  await expect(body).toContainText('raise PaymentDeclined("card declined by gateway")');
  await expect(body).not.toContainText("Charge a customer's card");
  await expect(body).not.toContainText("def charge_card");
  const raiserLabel = (await raiser.first().getByTestId("citation-open").textContent()) ?? "";
  const firstShown = Number(await body.locator(".line").first().getAttribute("data-line"));
  expect(firstShown).toBeGreaterThan(Number(/:(\d+)–/.exec(raiserLabel)?.[1]));
  const label = (await citation.getByTestId("citation-open").textContent()) ?? "";
  const [, start, end] = /:(\d+)–(\d+)$/.exec(label) ?? [];
  await citation.getByTestId("citation-open").click();
  const source = new SourcePage(page);
  await expect(source.path).toHaveText("shop/payments.py");
  expect(await source.markedRange()).toEqual([Number(start), Number(end)]);
  await expect(source.line(Number(start))).toBeInViewport();
});

test("the conversation persists: reload shows it and a follow-up continues the session", async ({
  page,
  request,
}) => {
  const chat = new ChatPage(page);
  const id = await repositoryId(request, "shop");
  await chat.goto(id);
  await chat.ask("Where is the order total computed?", { quality: "quick" });
  await chat.answer(1);
  const sessionId = chat.sessionIdFromUrl();

  await page.reload();
  await expect(chat.questions).toHaveCount(1);
  await expect(chat.questions.first()).toContainText("Where is the order total computed?");
  const stored = await chat.answer(1);
  await expect(stored.passes.first()).toBeVisible();

  await chat.ask("And where are coupons applied?");
  await chat.answer(2);
  expect(chat.sessionIdFromUrl()).toBe(sessionId);
  await page.reload();
  await expect(chat.questions).toHaveCount(2);
  await page.getByTestId("session-list").locator("summary").click();
  await expect(page.locator(`[data-testid="session-link"][href$="session=${sessionId}"]`)).toContainText(
    "order total",
  );
});

test("an analytical question draws a diagram whose nodes open the source", async ({ page, request }) => {
  const chat = new ChatPage(page);
  await chat.goto(await repositoryId(request, "shop"));
  await chat.ask("How are the modules of the shop connected?", { mode: "analytical" });
  const answer = await chat.answer(1);
  await expect(answer.classificationMode).toHaveText("analytical");
  await expect(answer.diagramSvg).toBeVisible();
  const node = answer.root.getByTestId("diagram-node-link").first();
  await expect(node).toBeVisible();
  const href = await node.getAttribute("data-href");
  await node.click();
  await expect(page).toHaveURL(/\/source\?path=/);
  expect(page.url()).toContain(href?.split("#")[0] ?? "missing");
  await expect(new SourcePage(page).code).toBeVisible();
});

test("a saved conversation reopens complete with its page: answers, diagram, highlighted citations", async ({
  page,
  request,
}, testInfo) => {
  const chat = new ChatPage(page);
  await chat.goto(await repositoryId(request, "shop"));
  await chat.ask("How are the modules of the shop connected?", { mode: "analytical" });
  await chat.answer(1);
  await chat.ask("Why do I get PaymentDeclined: card declined by gateway when placing an order?");
  await chat.answer(2);
  const url = page.url();

  // The server sends the stored conversation drawn and highlighted: nothing is left for
  // the browser to fetch before it is complete.
  const html = await (await request.get(url)).text();
  expect(html.match(/data-testid="assistant-message"/g)).toHaveLength(2);
  expect(html).toMatch(/data-testid="diagram-svg"[^>]*>\s*<svg/);
  expect(html).toMatch(/data-testid="citation-snippet" data-highlighted="true"/);

  // Timed for the report, never asserted: a fresh tab reopening the conversation.
  const timings: number[] = [];
  for (let run = 0; run < 3; run++) {
    const tab = await page.context().newPage();
    const started = Date.now();
    await tab.goto(url, { waitUntil: "commit" });
    const reopened = new ChatPage(tab);
    await expect(reopened.answers).toHaveCount(2);
    await expect(reopened.answers.first().locator('[data-testid="diagram-svg"] svg')).toBeVisible();
    await expect(
      reopened.answers.nth(1).locator('[data-testid="citation-snippet"][data-highlighted="true"]').first(),
    ).toBeVisible();
    timings.push(Date.now() - started);
    await tab.close();
  }
  testInfo.annotations.push({
    type: "timing",
    description: `reopen a saved conversation (2 answers, a diagram, highlighted citations): ${timings.join(", ")} ms`,
  });
});

test("an unknown session says so instead of showing an empty chat", async ({ page, request }) => {
  const chat = new ChatPage(page);
  await chat.goto(await repositoryId(request, "shop"), "no-such-session-123");
  await expect(page.getByTestId("unknown-session")).toContainText("This conversation does not exist");
});

test("an interrupted stream keeps the partial answer and offers a retry that completes it", async ({
  page,
  request,
}) => {
  const chat = new ChatPage(page);
  await chat.goto(await repositoryId(request, "shop"));
  // Let the real answer through, but cut the body after the first pass (no final [DONE]).
  await page.route("**/api/qa", async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    const cut = body.indexOf('"type":"text-end"');
    await route.fulfill({ response, body: body.slice(0, cut > 0 ? cut : body.length / 2) });
  });
  await chat.ask(DIAGNOSTIC);
  const error = page.getByTestId("stream-error");
  await expect(error).toContainText("Stream interrupted");
  await expect(chat.chat).toHaveAttribute("data-status", "error");
  await expect(chat.answers.first().getByTestId("timeline-pass").first()).toBeVisible();

  await page.unroute("**/api/qa");
  await error.getByRole("button", { name: "Retry" }).click();
  const answer = await chat.answer(1);
  await expect(error).toBeHidden();
  await expect(answer.passes.last()).toHaveAttribute("data-phase", "done");
  await expect(chat.questions).toHaveCount(1);
});

test("a request that fails at the network level shows the retry too", async ({ page, request }) => {
  const chat = new ChatPage(page);
  await chat.goto(await repositoryId(request, "shop"));
  await page.route("**/api/qa", (route) => route.abort("connectionreset"));
  await chat.ask("Where is the order total computed?");
  const error = page.getByTestId("stream-error");
  await expect(error).toContainText("Stream interrupted");
  await page.unroute("**/api/qa");
  await error.getByRole("button", { name: "Retry" }).click();
  await chat.answer(1);
  await expect(error).toBeHidden();
});

test("a diagram neither the server nor mermaid can read shows its source and mermaid's message, never a blank box", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  const chat = new ChatPage(page);
  await chat.goto(await repositoryId(request, "shop"));
  // The real answer, with its diagram as the server sends one it could not lay out: the
  // source it could not read and why.
  await page.route("**/api/qa", async (route) => {
    const response = await route.fetch();
    const body = (await response.text())
      .split("\n")
      .map((line) => {
        if (!line.startsWith("data: {") || !line.includes('"type":"data-diagram"')) return line;
        const chunk = JSON.parse(line.slice(6)) as { data: Record<string, unknown> };
        delete chunk.data.layout;
        chunk.data.mermaid = "graph LR\n  a[[[ broken";
        chunk.data.layoutError = 'cannot read "a[[[ broken"';
        return `data: ${JSON.stringify(chunk)}`;
      })
      .join("\n");
    await route.fulfill({ response, body });
  });
  await chat.ask("How are the modules of the shop connected?", { mode: "analytical" });
  const answer = await chat.answer(1);
  const diagram = answer.root.getByTestId("diagram");
  await expect(diagram).toHaveAttribute("data-status", "mermaid");
  await expect(diagram.getByTestId("mermaid-diagram")).toHaveAttribute("data-status", "failed");
  await expect(diagram.getByTestId("mermaid-error")).toContainText("Parse error on line 2");
  await expect(diagram.getByTestId("diagram-source")).toContainText("a[[[ broken");
  await expect(diagram.locator("svg")).toHaveCount(0);
  await diagram.screenshot({ path: "test-results/screenshots/diagram-unreadable-source.png" });
});

test("?ask= prefills the question box without sending it (links from the wiki use this)", async ({
  page,
  request,
}) => {
  const id = await repositoryId(request, "shop");
  await page.goto(
    `/repos/${encodeURIComponent(id)}?ask=${encodeURIComponent("What does shop/pricing.py do?")}`,
  );
  const chat = new ChatPage(page);
  await expect(chat.input).toHaveValue("What does shop/pricing.py do?");
  await expect(page.getByTestId("chat-empty")).toBeVisible();
});

test("a question typed before the page's script ran can be sent as it is", async ({ page, request }) => {
  const id = await repositoryId(request, "shop");
  // Hold the page's scripts until the question is typed, as on a slow connection.
  const held: (() => Promise<void>)[] = [];
  let holding = true;
  const scripts = (url: URL) => url.pathname.startsWith("/_next/static/") && url.pathname.endsWith(".js");
  await page.route(scripts, (route) => (holding ? held.push(() => route.continue()) : route.continue()));
  // The server-rendered box is there before any script runs.
  await page.goto(`/repos/${encodeURIComponent(id)}`, { waitUntil: "commit" });
  const chat = new ChatPage(page);
  await chat.input.fill("Where is the order total computed?");
  expect(held.length).toBeGreaterThan(0);
  holding = false;
  await Promise.all(held.map((release) => release()));

  // Not retyped: the box's text is the question the Ask button sends.
  await expect(page.getByTestId("ask-button")).toBeEnabled();
  await page.getByTestId("ask-button").click();
  await expect(chat.questions.first()).toContainText("Where is the order total computed?");
  await chat.answer(1);
});
