/** Page object for the source view (`/repos/[id]/source?path=…&lines=…`). */
import type { Locator, Page } from "@playwright/test";

export class SourcePage {
  readonly path: Locator;
  readonly code: Locator;
  readonly markedLines: Locator;
  readonly notFound: Locator;

  constructor(readonly page: Page) {
    this.path = page.getByTestId("source-path");
    this.code = page.getByTestId("source-code");
    this.markedLines = page.locator('[data-testid="source-code"] .line.marked');
    this.notFound = page.getByTestId("source-not-found");
  }

  line(n: number): Locator {
    return this.page.locator(`[data-testid="source-code"] #L${n}`);
  }

  async markedRange(): Promise<[number, number]> {
    const numbers = await this.markedLines.evaluateAll((lines) =>
      lines.map((l) => Number(l.getAttribute("data-line"))),
    );
    return [Math.min(...numbers), Math.max(...numbers)];
  }
}
