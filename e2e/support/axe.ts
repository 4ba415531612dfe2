/** axe (@axe-core/playwright) findings that fail a page: serious and critical ones. */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/**
 * axe's serious and critical findings on the page as it is now, one line each; only in
 * the parts matching `within` (CSS selectors) when given.
 */
export async function seriousViolations(page: Page, within: string[] = []): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  for (const selector of within) builder.include(selector);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")}`));
}
