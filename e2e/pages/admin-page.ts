/** Page objects for the admin area: sign-in, settings, dashboard and golden questions. */
import { expect, type Locator, type Page } from "@playwright/test";

export const ADMIN_TOKEN = process.env.E2E_ADMIN_TOKEN ?? "e2e-admin-token-0123456789abcdef";

export class AdminLoginPage {
  readonly token: Locator;
  readonly name: Locator;
  readonly submit: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.token = page.getByTestId("login-token");
    this.name = page.getByTestId("login-name");
    this.submit = page.getByTestId("login-submit");
    this.error = page.getByTestId("login-error");
  }

  async signIn(token: string, name = ""): Promise<void> {
    await this.token.fill(token);
    await this.name.fill(name);
    await this.submit.click();
  }

  /** Opens an admin page, signs in on the login page it redirects to, and waits to be back. */
  static async open(page: Page, path: string, name = "e2e-admin"): Promise<void> {
    await page.goto(path);
    await expect(page).toHaveURL(/\/admin\/login/);
    await new AdminLoginPage(page).signIn(ADMIN_TOKEN, name);
    await expect(page).toHaveURL(new RegExp(`${path.replace(/\//g, "\\/")}$`));
    await expect(page.getByTestId("admin-page")).toBeVisible();
  }
}

export class AdminSettingsPage {
  readonly save: Locator;
  readonly status: Locator;
  readonly changeRows: Locator;

  constructor(readonly page: Page) {
    this.save = page.getByTestId("settings-save");
    this.status = page.getByTestId("settings-status");
    this.changeRows = page.getByTestId("change-row");
  }

  input(key: string): Locator {
    return this.page.getByTestId(`input-${key}`);
  }

  error(key: string): Locator {
    return this.page.getByTestId(`error-${key}`);
  }

  async set(key: string, value: string): Promise<void> {
    await this.input(key).fill(value);
  }

  async reset(): Promise<void> {
    await this.page.getByTestId("settings-reset").click();
    await this.page.getByTestId("settings-reset-confirm").click();
    await expect(this.status).toContainText("back to its default");
  }
}

export class AdminDashboardPage {
  readonly recent: Locator;
  readonly totalQuestions: Locator;

  constructor(readonly page: Page) {
    this.recent = page.getByTestId("recent-question");
    this.totalQuestions = page.getByTestId("total-questions");
  }

  chart(name: string): Locator {
    return this.page.getByTestId(`chart-${name}`);
  }

  recentQuestion(text: string): Locator {
    return this.recent.filter({ hasText: text });
  }
}

export class AdminGoldenPage {
  readonly items: Locator;

  constructor(readonly page: Page) {
    this.items = page.getByTestId("golden-question");
  }

  async add(question: string, files: string[], mode = ""): Promise<void> {
    // Text typed before the form is hydrated would not reach its state.
    await expect(this.page.getByTestId("golden-form")).toHaveAttribute("data-ready", "true");
    await this.page.getByTestId("golden-question-input").fill(question);
    await this.page.getByTestId("golden-mode-input").selectOption(mode);
    await this.page.getByTestId("golden-files-input").fill(files.join("\n"));
    // Wait for the outcome: the form resets on success, and typing the next question
    // before that would race with the reset.
    const response = this.page.waitForResponse(
      (r) => r.url().endsWith("/api/admin/golden") && r.request().method() === "POST",
    );
    await this.page.getByTestId("golden-add").click();
    if ((await response).ok()) {
      await expect(this.item(question)).toBeVisible();
      await expect(this.page.getByTestId("golden-question-input")).toHaveValue("");
    }
  }

  item(question: string): Locator {
    return this.items.filter({ hasText: question });
  }
}
