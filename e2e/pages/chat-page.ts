/** Page object for a repository's chat (`/repos/[id]`): asking, and the panels of an answer. */
import { expect, type Locator, type Page } from "@playwright/test";

export class ChatPage {
  readonly input: Locator;
  readonly chat: Locator;
  readonly answers: Locator;
  readonly questions: Locator;

  constructor(readonly page: Page) {
    this.input = page.getByTestId("question-input");
    this.chat = page.getByTestId("chat");
    this.answers = page.getByTestId("assistant-message");
    this.questions = page.getByTestId("user-message");
  }

  async goto(repositoryId: string, sessionId?: string): Promise<void> {
    await this.page.goto(`/repos/${repositoryId}${sessionId ? `?session=${sessionId}` : ""}`);
  }

  /** Types a question and sends it with Enter. */
  async ask(question: string, options: { mode?: string; quality?: string } = {}): Promise<void> {
    if (options.mode) await this.page.getByTestId("mode-select").selectOption(options.mode);
    if (options.quality) await this.page.getByTestId("quality-select").selectOption(options.quality);
    // The form takes over text typed before its script ran (chat.spec.ts checks that on its own); wait until it has.
    await expect(async () => {
      await this.input.fill(question);
      await expect(this.page.getByTestId("ask-button")).toBeEnabled({ timeout: 1000 });
    }).toPass();
    await this.input.press("Enter");
  }

  /** Waits for the n-th answer (1-based) to finish streaming and returns it. */
  async answer(n: number): Promise<AnswerPanel> {
    const answer = this.answers.nth(n - 1);
    await expect(answer).toHaveAttribute("data-streaming", "false", { timeout: 30_000 });
    await expect(this.chat).toHaveAttribute("data-status", "ready");
    return new AnswerPanel(answer);
  }

  /** Shares the conversation and returns its read-only link. */
  async share(): Promise<string> {
    await this.page.getByTestId("share-button").click();
    const link = this.page.getByTestId("share-link");
    await expect(link).toHaveValue(/\/s\/[A-Za-z0-9_-]{16,}$/);
    return link.inputValue();
  }

  sessionIdFromUrl(): string {
    const id = new URL(this.page.url()).searchParams.get("session");
    if (!id) throw new Error("the chat URL names no session");
    return id;
  }
}

/** One answer and its side panels (shared by the chat and the share page). */
export class AnswerPanel {
  readonly text: Locator;
  readonly passes: Locator;
  readonly classificationMode: Locator;
  readonly resolvedGaps: Locator;
  readonly unresolvedGaps: Locator;
  readonly citations: Locator;
  readonly verifiedCitations: Locator;
  readonly inlineCitations: Locator;
  readonly diagramSvg: Locator;
  readonly notices: Locator;

  constructor(readonly root: Locator) {
    this.text = root.getByTestId("answer");
    this.passes = root.getByTestId("timeline-pass");
    this.classificationMode = root.getByTestId("classification-mode");
    this.resolvedGaps = root.getByTestId("gap-resolved");
    this.unresolvedGaps = root.getByTestId("gap-unresolved");
    this.citations = root.getByTestId("citation-item");
    this.verifiedCitations = root.locator('[data-testid="citation-item"][data-verified="true"]');
    this.inlineCitations = root.getByTestId("citation-ref");
    this.diagramSvg = root.locator('[data-testid="diagram-svg"] svg');
    this.notices = root.getByTestId("notice");
  }

  /** Long citation lists show the first few; open the rest. */
  async showAllCitations(): Promise<void> {
    const more = this.root.getByTestId("citations-more");
    if (await more.isVisible()) await more.click();
  }
}
