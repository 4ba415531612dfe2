/**
 * Citations a person can read: the side panel widens (drag or keyboard) to 100 columns
 * of code on a 1400 px window, lines scroll instead of wrapping or clipping, names wrap
 * only at separators, a whole-file citation says so, and a snippet too large to
 * highlight at once is highlighted in parts without any request being refused.
 */
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { repositoryId } from "./pages/repositories-page";
import { midWordBreaks } from "./support/reading";

const SHOTS = "test-results/screenshots";

test("the citations panel widens to 100 columns of code, and names wrap only at separators", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  const chat = new ChatPage(page);
  await chat.goto(await repositoryId(request, "shop"));
  await chat.ask("What does shop/pricing.py do, and how is it used?");
  const answer = await chat.answer(1);
  const panel = answer.root.getByTestId("citations-panel");
  // The function-level citations come first; a whole-file one may sit behind "Show more".
  await expect(answer.verifiedCitations.first()).toBeVisible();
  await answer.showAllCitations();

  // A function-level citation names its function.
  await expect(
    panel.getByTestId("citation-target").filter({ hasText: "compute_total" }).first(),
  ).toBeVisible();

  // Names never break between two letters, at the default width.
  expect(await midWordBreaks(answer.root.locator(".citation-path, .citation-target, .cite"))).toEqual([]);
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/citations-default-1400.png` });

  // Widened from the keyboard: the handle between the answer and its panels.
  const handle = answer.root.getByTestId("side-resizer");
  await handle.focus();
  await page.keyboard.press("Home");
  const snippet = panel.getByTestId("citation-snippet").first();
  const fit = await snippet.evaluate((el) => {
    const probe = document.createElement("span");
    probe.textContent = "0".repeat(100);
    const code = el.querySelector(".line") as HTMLElement;
    probe.style.font = getComputedStyle(code).font;
    probe.style.whiteSpace = "pre";
    document.body.append(probe);
    const hundred = probe.getBoundingClientRect().width;
    probe.remove();
    // Line numbers take the gutter; the code gets the rest.
    const gutter = parseFloat(getComputedStyle(code, "::before").width) + 24;
    return { room: el.clientWidth - gutter, hundred, overflowX: getComputedStyle(el).overflowX };
  });
  expect(fit.room).toBeGreaterThanOrEqual(fit.hundred);
  // Longer lines scroll inside the snippet: nothing is cut off or wrapped.
  expect(fit.overflowX).toBe("auto");
  await expect(handle).toHaveAttribute("aria-valuenow", /\d+/);
  expect(Number(await handle.getAttribute("aria-valuenow"))).toBeGreaterThan(700);
  expect(await midWordBreaks(answer.root.locator(".citation-path, .citation-target, .cite"))).toEqual([]);
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/citations-wide-1400.png` });

  // The width is the reader's: it is kept for the next page.
  const widened = await handle.getAttribute("aria-valuenow");
  await page.reload();
  const again = page.getByTestId("side-resizer").first();
  await expect(again).toHaveAttribute("aria-valuenow", widened ?? "");
  await again.focus();
  await page.keyboard.press("End");
  await expect(again).toHaveAttribute("aria-valuenow", "300");
});

test("a whole-file citation says 'whole file', not one of the file's parts", async ({ page, request }) => {
  const chat = new ChatPage(page);
  await chat.goto(await repositoryId(request, "shop"));
  // Its answer cites a file's wiki page: the file from its first line to its last.
  await chat.ask("What is the shop project, according to its README?");
  const answer = await chat.answer(1);
  await expect(answer.verifiedCitations.first()).toBeVisible();
  await answer.showAllCitations();
  const items = answer.root.getByTestId("citations-panel").getByTestId("citation-item");
  const whole = items.filter({
    has: page.getByTestId("citation-target").filter({ hasText: /^whole file$/ }),
  });
  await expect(whole.first()).toBeVisible();
  // Each spans its file from line 1; no citation of part of a file says so.
  for (const item of await whole.all()) {
    await expect(item.getByTestId("citation-open")).toHaveText(/^.+:1–\d+$/);
  }
  const parts = items.filter({
    has: page.getByTestId("citation-open").filter({ hasText: /:(?!1–)\d+–\d+$/ }),
  });
  for (const item of await parts.all()) {
    await expect(item.getByTestId("citation-target")).not.toHaveText("whole file");
  }
});

test("a snippet too large to highlight at once is highlighted in parts, and no request is refused", async ({
  page,
  request,
}) => {
  const chat = new ChatPage(page);
  await chat.goto(await repositoryId(request, "shop"));
  // The real answer, with its first citation's snippet grown to 120,000 characters (and a
  // 30,000-character line in it) on the way to the browser.
  const huge = [
    ...Array.from({ length: 1500 }, (_, i) => `total_${i} = compute_total(items) * ${i}  # line ${i}`),
    `data = "${"x".repeat(30_000)}"`,
  ].join("\n");
  await page.route("**/api/qa", async (route) => {
    const response = await route.fetch();
    const body = (await response.text())
      .split("\n")
      .map((line) => {
        if (!line.startsWith("data: {") || !line.includes('"type":"data-citations"')) return line;
        const chunk = JSON.parse(line.slice(6)) as { data: { items: { snippet: string | null }[] } };
        const first = chunk.data.items.find((c) => c.snippet);
        if (first) first.snippet = huge;
        return `data: ${JSON.stringify(chunk)}`;
      })
      .join("\n");
    await route.fulfill({ response, body });
  });
  const refused: string[] = [];
  page.on("response", (r) => {
    if (r.url().includes("/api/highlight") && r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
  });
  await chat.ask("Where is the order total computed?");
  const answer = await chat.answer(1);
  const snippet = answer.verifiedCitations.first().getByTestId("citation-snippet");
  await expect(snippet).toHaveAttribute("data-highlighted", "true");
  // Parts follow each other: every line is there, numbered on.
  await expect(snippet.locator(".line")).toHaveCount(1501);
  expect(refused).toEqual([]);
});
