/** Page objects for the wiki (`/repos/[id]/wiki[/<slug>]`) and the issues page (`/repos/[id]/issues`). */
import type { Locator, Page } from "@playwright/test";

export class WikiPage {
  readonly page: Page;
  readonly article: Locator;
  readonly title: Locator;
  readonly nav: Locator;
  readonly content: Locator;
  readonly summary: Locator;
  readonly diagramSvg: Locator;
  readonly code: Locator;
  readonly ask: Locator;
  readonly sourceLinks: Locator;
  readonly modelBadge: Locator;

  constructor(page: Page) {
    this.page = page;
    this.article = page.getByTestId("wiki-page");
    this.title = page.getByTestId("wiki-title");
    this.nav = page.getByTestId("wiki-nav");
    this.content = page.getByTestId("wiki-content");
    this.summary = page.getByTestId("wiki-summary");
    this.diagramSvg = this.article.locator('[data-testid="diagram-svg"] svg');
    this.code = page.getByTestId("wiki-code");
    this.ask = page.getByTestId("wiki-ask");
    this.sourceLinks = this.content.getByTestId("wiki-source-link");
    this.modelBadge = page.getByTestId("wiki-model-badge");
  }

  async goto(repositoryId: string, slug = ""): Promise<void> {
    await this.page.goto(`/repos/${encodeURIComponent(repositoryId)}/wiki${slug ? `/${slug}` : ""}`);
  }

  /** The navigation entry of a page. */
  navLink(slug: string): Locator {
    return this.nav.locator(`[data-testid="wiki-nav-link"][data-slug="${slug}"]`);
  }

  /** A link in the page body to another page (a file or folder named in inline code). */
  pageLink(text: string): Locator {
    return this.content.getByTestId("wiki-page-link").filter({ hasText: text });
  }

  sourceLink(citation: string): Locator {
    return this.sourceLinks.filter({ hasText: citation });
  }
}

export class IssuesPage {
  readonly root: Locator;
  readonly findings: Locator;
  readonly empty: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId("issues-page");
    this.findings = this.root.getByTestId("finding");
    this.empty = page.getByTestId("issues-empty");
  }

  async goto(repositoryId: string): Promise<void> {
    await this.page.goto(`/repos/${encodeURIComponent(repositoryId)}/issues`);
  }

  categoryFilter(category: string): Locator {
    return this.root.locator(`[data-testid="issue-filter"][data-category="${category}"]`);
  }

  severityFilter(severity: string): Locator {
    return this.root.locator(`[data-testid="issue-filter"][data-severity="${severity}"]`);
  }
}
