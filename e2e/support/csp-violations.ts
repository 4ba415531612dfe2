/**
 * Collects every Content-Security-Policy violation a page reports, both as the
 * `securitypolicyviolation` event and as Chromium's console message, so a spec can
 * assert that pages render (scripts, diagrams, shiki highlighting) with none. Events
 * are handed to the test as they happen, so those of a page navigated away from count
 * too.
 */
import type { BrowserContext, Page } from "@playwright/test";

export async function watchCspViolations(context: BrowserContext): Promise<() => Promise<string[]>> {
  const found: string[] = [];
  await context.exposeFunction("__reportCspViolation", (violation: string) => found.push(violation));
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const where = event.sourceFile
        ? ` at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`
        : "";
      const report = (window as unknown as { __reportCspViolation: (v: string) => void })
        .__reportCspViolation;
      void report(`${event.violatedDirective} ${event.blockedURI}${where} (${location.pathname})`);
    });
  });
  const watch = (page: Page) =>
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to (execute|load|apply|evaluate)/i.test(message.text()))
        found.push(message.text());
    });
  context.pages().forEach(watch);
  context.on("page", watch);
  return async () => [...found];
}
