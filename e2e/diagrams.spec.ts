/**
 * Diagrams a person can read, at two window widths: labels drawn at 12 px or more
 * (never scaled down: a wide drawing scrolls), wrapped only at separators, at most a
 * dozen nodes, a legend; the share page serves the same diagram already drawn.
 * Screenshots are kept in test-results/screenshots to be looked at.
 */
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { repositoryId } from "./pages/repositories-page";
import { WikiPage } from "./pages/wiki-page";
import { brokenLabels, diagramFacts } from "./support/reading";

const SHOTS = "test-results/screenshots";

for (const width of [1400, 820]) {
  test(`diagrams read at ${width} px: labels at 12 px or more, whole words, a dozen nodes, a legend`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const id = await repositoryId(request, "shop");
    const chat = new ChatPage(page);
    await chat.goto(id);
    await chat.ask("What happens when create_order is called?", { mode: "exploratory" });
    const answer = await chat.answer(1);
    const flow = answer.root.getByTestId("diagram");
    await expect(flow).toHaveAttribute("data-status", "rendered");
    const facts = await diagramFacts(flow);
    expect(facts.labelPx).toBeGreaterThanOrEqual(12);
    expect(facts.nodes).toBeGreaterThanOrEqual(4);
    expect(facts.nodes).toBeLessThanOrEqual(12);
    expect(brokenLabels(facts.labels)).toEqual([]);
    expect(facts.labels.map((l) => l.join(""))).toEqual(
      expect.arrayContaining(["create_order", "OrderService.place_order"]),
    );
    await expect(flow.getByTestId("diagram-legend")).toContainText("A → B: A calls B");
    await flow.scrollIntoViewIfNeeded();
    await flow.screenshot({ path: `${SHOTS}/diagram-call-flow-${width}.png` });

    // A folder's imports and a file's calls in the wiki, drawn the same way.
    const wiki = new WikiPage(page);
    for (const slug of ["dir/shop", "file/shop/service.py"]) {
      await wiki.goto(id, slug);
      const diagram = wiki.article.getByTestId("diagram");
      await expect(diagram).toHaveAttribute("data-status", "rendered");
      const drawn = await diagramFacts(diagram);
      expect(drawn.labelPx, slug).toBeGreaterThanOrEqual(12);
      expect(drawn.nodes, slug).toBeGreaterThan(1);
      expect(drawn.nodes, slug).toBeLessThanOrEqual(12);
      expect(brokenLabels(drawn.labels), slug).toEqual([]);
      await diagram.screenshot({ path: `${SHOTS}/diagram-wiki-${slug.replace(/\//g, "_")}-${width}.png` });
    }
  });
}

test("the share page serves its diagram already drawn (no diagram library, no second request)", async ({
  page,
  request,
  browser,
}, testInfo) => {
  const chat = new ChatPage(page);
  await chat.goto(await repositoryId(request, "shop"));
  await chat.ask("How are the modules of the shop connected?", { mode: "analytical" });
  await chat.answer(1);
  const url = await chat.share();

  // The SVG is in the HTML the server sends.
  const html = await (await request.get(url)).text();
  expect(html).toMatch(/data-testid="diagram-svg"[^>]*>\s*<svg/);
  expect(html).toContain("diagram-node-text");

  const visitor = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const share = await visitor.newPage();
  const started = Date.now();
  await share.goto(url, { waitUntil: "commit" });
  await expect(share.locator('[data-testid="diagram-svg"] svg').first()).toBeVisible();
  // Reported, not asserted: timings belong to the report, not to pass or fail.
  testInfo.annotations.push({
    type: "timing",
    description: `share page: diagram visible ${Date.now() - started} ms after the response started`,
  });
  await visitor.close();
});
