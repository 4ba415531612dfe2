/**
 * Collects every Content-Security-Policy violation a page reports, both as the
 * `securitypolicyviolation` event and as Chromium's console message, so a spec can
 * assert that pages render (scripts, diagrams, shiki highlighting) with none.
 */
import type { BrowserContext, Page } from "@playwright/test";

export async function watchCspViolations(context: BrowserContext): Promise<() => Promise<string[]>> {
  const consoleLines: string[] = [];
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  const watch = (page: Page) =>
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to (execute|load|apply|evaluate)/i.test(message.text()))
        consoleLines.push(message.text());
    });
  context.pages().forEach(watch);
  context.on("page", watch);
  return async () => {
    const events: string[] = [];
    for (const page of context.pages()) {
      events.push(
        ...(await page
          .evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])
          .catch(() => [])),
      );
    }
    return [...consoleLines, ...events];
  };
}
