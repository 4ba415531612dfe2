/**
 * Diagrams mermaid draws in the browser, under the page's nonce CSP: a sequence diagram
 * a model wrote into its answer as a fenced ```mermaid block (the model is a scripted
 * one behind a real OpenAI-compatible endpoint, configured as an admin would), and a
 * diagram whose source the server's reader refuses. mermaid loads from its own route
 * only once such a diagram appears, draws labels at 12 px or more, reaches no other
 * origin, and draws a source once per page. Screenshots at 1400 × 900 are kept in
 * test-results/screenshots to be looked at.
 */
import fs from "node:fs";
import { expect, test, type Page, type Request } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { repositoryId } from "./pages/repositories-page";
import { seriousViolations } from "./support/axe";
import { watchCspViolations } from "./support/csp-violations";
import { mermaidFacts, midWordBreaks } from "./support/reading";
import { startScriptedModel, type ScriptedModelServer } from "./support/scripted-model";

const SHOTS = "test-results/screenshots";
const ADMIN = {
  authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN ?? "e2e-admin-token-0123456789abcdef"}`,
};
const VERSION = (
  JSON.parse(fs.readFileSync("node_modules/mermaid/package.json", "utf8")) as { version: string }
).version;

// With an init directive of the kind models write: it may not shrink the text or darken the theme.
const SEQUENCE = [
  '%%{init: {"theme": "dark", "themeVariables": {"fontSize": "8px"}}}%%',
  "sequenceDiagram",
  "    participant API as create_order",
  "    participant Service as OrderService",
  "    participant Payments as payments",
  "    API->>Service: place_order(customer, items, coupon)",
  "    Service->>Payments: charge_card(customer, total)",
  "    Payments-->>Service: receipt",
  "    Service-->>API: order",
  "    Note over API,Payments: PaymentDeclined becomes a 402 response",
].join("\n");

const REPLY = [
  "<answer>",
  "`create_order` checks the payload (shop/api.py:11-20) and hands the order to `OrderService.place_order`, which prices the items, charges the card and stores the order (shop/service.py:14-22).",
  "",
  "```mermaid",
  SEQUENCE,
  "```",
  "",
  "A declined card never reaches the repository.",
  "</answer>",
  "<missing>NONE</missing>",
  "<reasoning>The flow is in the context.</reasoning>",
].join("\n");

/** A flowchart mermaid reads and the server's reader does not (edge text, subroutine and database shapes). */
const REFUSED = [
  "flowchart TD",
  '  create_order["create_order(payload)"] -- validates --> place_order',
  '  place_order[["OrderService.place_order"]] --> charge_card',
  '  place_order --> save[("OrderRepository.save")]',
].join("\n");

let model: ScriptedModelServer | null = null;

test.afterEach(async ({ request }) => {
  // A test that fails half way must not leave its provider to the specs after it.
  expect((await request.delete("/api/admin/settings", { headers: ADMIN })).status()).toBe(200);
  await model?.close();
  model = null;
});

/** The answer stream as the server sends it, with its diagram replaced by one the server's reader refuses. */
async function refuseServerDiagrams(page: Page): Promise<void> {
  await page.route("**/api/qa", async (route) => {
    const response = await route.fetch();
    const body = (await response.text())
      .split("\n")
      .map((line) => {
        if (!line.startsWith("data: {") || !line.includes('"type":"data-diagram"')) return line;
        const chunk = JSON.parse(line.slice(6)) as { data: Record<string, unknown> };
        delete chunk.data.layout;
        chunk.data.mermaid = REFUSED;
        chunk.data.layoutError =
          'cannot read "create_order["create_order(payload)"] -- validates --> place_order"';
        return `data: ${JSON.stringify(chunk)}`;
      })
      .join("\n");
    await route.fulfill({ response, body });
  });
}

test("a model's mermaid diagram and one the server cannot lay out are drawn by mermaid under the CSP", async ({
  page,
  context,
  request,
  browser,
  baseURL,
}, testInfo) => {
  model = await startScriptedModel(REPLY);
  const saved = await request.put("/api/admin/settings", {
    headers: ADMIN,
    data: { llm: { provider: "openai-compatible", model: "scripted", baseURL: model.baseURL } },
  });
  expect(saved.status()).toBe(200);
  const violations = await watchCspViolations(context);
  const requested: string[] = [];
  page.on("request", (r: Request) => requested.push(r.url()));
  const mermaidRequests = () => requested.filter((url) => url.includes("/vendor/mermaid/"));
  await page.setViewportSize({ width: 1400, height: 900 });

  const chat = new ChatPage(page);
  await chat.goto(await repositoryId(request, "shop"));
  await expect(chat.input).toBeVisible();
  expect(mermaidRequests(), "mermaid loads only when a diagram needs it").toEqual([]);

  await refuseServerDiagrams(page);
  await chat.ask("What happens when create_order is called?", { mode: "exploratory" });
  const answer = await chat.answer(1);
  expect(model.streamed()).toBeGreaterThan(0);
  await expect(answer.notices).toHaveCount(0);

  // The model's fenced sequence diagram, drawn inside the answer text.
  const fenced = answer.text.getByTestId("fenced-diagram").getByTestId("mermaid-diagram");
  await expect(fenced).toHaveAttribute("data-status", "rendered");
  const sequence = await mermaidFacts(fenced);
  expect(sequence.minTextPx).toBeGreaterThanOrEqual(12);
  expect(sequence.texts).toEqual(
    expect.arrayContaining([
      "place_order(customer, items, coupon)",
      "PaymentDeclined becomes a 402 response",
    ]),
  );
  await expect(answer.text.locator("code.language-mermaid")).toHaveCount(0);

  // The server's diagram whose source its reader refused: mermaid draws it instead.
  const refusedFigure = answer.root.getByTestId("diagram");
  await expect(refusedFigure).toHaveAttribute("data-status", "mermaid");
  const refused = refusedFigure.getByTestId("mermaid-diagram");
  await expect(refused).toHaveAttribute("data-status", "rendered");
  const flow = await mermaidFacts(refused);
  expect(flow.minTextPx).toBeGreaterThanOrEqual(12);
  expect(flow.texts).toEqual(expect.arrayContaining(["create_order(payload)", "OrderService.place_order"]));
  expect(await midWordBreaks(refused.locator("foreignObject"))).toEqual([]);

  // mermaid came from its own route, as the installed version's files, and nothing left the origin.
  expect(mermaidRequests()).toContain(`${baseURL}/vendor/mermaid/${VERSION}/mermaid.esm.min.mjs`);
  expect(mermaidRequests().every((url) => url.startsWith(`${baseURL}/vendor/mermaid/${VERSION}/`))).toBe(
    true,
  );
  expect(requested.filter((url) => !url.startsWith(`${baseURL}/`))).toEqual([]);

  // Reported, not asserted: what a page with mermaid diagrams downloads, and for how long.
  const loaded = await page.evaluate(() => {
    const files = performance
      .getEntriesByType("resource")
      .filter((e) => e.name.includes("/vendor/mermaid/")) as PerformanceResourceTiming[];
    const start = Math.min(...files.map((f) => f.startTime));
    const end = Math.max(...files.map((f) => f.responseEnd));
    return { files: files.length, bytes: files.reduce((n, f) => n + f.decodedBodySize, 0), ms: end - start };
  });
  testInfo.annotations.push({
    type: "timing",
    description: `mermaid: ${loaded.files} files, ${Math.round(loaded.bytes / 1024)} kB, loaded in ${Math.round(loaded.ms)} ms`,
  });
  const centre = (element: Element) => element.scrollIntoView({ block: "center" });
  await fenced.evaluate(centre);
  await page.screenshot({ path: `${SHOTS}/mermaid-answer-sequence-1400.png` });
  await refusedFigure.evaluate(centre);
  await page.screenshot({ path: `${SHOTS}/mermaid-refused-flowchart-1400.png` });

  // A follow-up whose answer carries the same diagram: drawn once per page, shown at once,
  // with ids of its own.
  const drawnFiles = mermaidRequests().length;
  await chat.ask("And what does create_order return?", { mode: "exploratory" });
  const second = await chat.answer(2);
  const again = second.text.getByTestId("fenced-diagram").getByTestId("mermaid-diagram");
  await expect(again).toHaveAttribute("data-status", "rendered");
  const repeat = await mermaidFacts(again);
  const drawingOf = (svgId: string) => svgId.split("-").slice(0, 3).join("-");
  expect(drawingOf(repeat.svgId)).toBe(drawingOf(sequence.svgId));
  expect(repeat.svgId).not.toBe(sequence.svgId);
  expect(mermaidRequests().length).toBe(drawnFiles);
  const diagrams = ['[data-testid="fenced-diagram"]', '[data-testid="diagram"]'];
  expect(await seriousViolations(page, diagrams), "axe on the diagrams mermaid drew").toEqual([]);

  // The share page draws the stored answer's diagram the same way.
  const url = await chat.share();
  const visitor = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const visitorViolations = await watchCspViolations(visitor);
  const share = await visitor.newPage();
  await share.goto(url);
  const shared = share.getByTestId("fenced-diagram").first().getByTestId("mermaid-diagram");
  await expect(shared).toHaveAttribute("data-status", "rendered");
  expect((await mermaidFacts(shared)).minTextPx).toBeGreaterThanOrEqual(12);
  await shared.evaluate(centre);
  await share.screenshot({ path: `${SHOTS}/mermaid-share-1400.png` });

  expect(await violations()).toEqual([]);
  expect(await visitorViolations()).toEqual([]);
  await visitor.close();
});
