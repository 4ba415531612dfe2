import { mkdirSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { AdminDashboardPage, AdminGoldenPage, AdminLoginPage, AdminSettingsPage } from "./pages/admin-page";
import { ChatPage } from "./pages/chat-page";
import { repositoryId } from "./pages/repositories-page";

const DIAGNOSTIC = "Why do I get PaymentDeclined: card declined by gateway when placing an order?";
const REFUSED = { error: { code: "unauthorized:admin", message: "Admin authentication required." } };
const SHOTS = "test-results/screenshots";
const ADMIN_TOKEN = process.env.E2E_ADMIN_TOKEN ?? "e2e-admin-token-0123456789abcdef";

// A test that fails half way must not leave its settings to the specs after it.
test.afterEach(async ({ request }) => {
  const reset = await request.delete("/api/admin/settings", {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(reset.status()).toBe(200);
});

test("a missing or wrong admin token is refused by the API and the login page", async ({ page, request }) => {
  const variants: Record<string, string>[] = [{}, { authorization: "Bearer wrong-token-0123456789" }];
  for (const headers of variants) {
    for (const path of ["/api/admin/settings", "/api/admin/metrics", "/api/admin/golden"]) {
      const response = await request.get(path, { headers });
      expect(response.status(), path).toBe(401);
      expect(await response.json(), path).toEqual(REFUSED);
    }
  }
  const put = await request.put("/api/admin/settings", { data: { cgrag: { maxPasses: 1 } } });
  expect(put.status()).toBe(401);

  await page.goto("/admin/settings");
  await expect(page).toHaveURL(/\/admin\/login\?next=%2Fadmin%2Fsettings$/);
  const login = new AdminLoginPage(page);
  await login.signIn("not-the-admin-token-0123456789", "mallory");
  await expect(login.error).toHaveText("That token was not accepted.");
  await expect(page).toHaveURL(/\/admin\/login/);
  await expect(page.getByTestId("settings-form")).toHaveCount(0);
  // Still refused after the failed attempt: no cookie was set.
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/login/);
});

test("an admin changes max passes, asks a question and sees it in the dashboards", async ({
  page,
  request,
}) => {
  await AdminLoginPage.open(page, "/admin/settings", "e2e-admin");
  const settings = new AdminSettingsPage(page);
  await expect(page.getByTestId("admin-actor")).toHaveText("Signed in as e2e-admin");
  await expect(settings.input("maxPasses")).toHaveValue("3");

  // A bad value is named on its field and nothing is stored.
  await settings.set("maxPasses", "99");
  await settings.save.click();
  await expect(settings.error("maxPasses")).toHaveText("Must be a whole number from 1 to 8.");
  await expect(settings.input("maxPasses")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("change-log-empty")).toBeVisible();

  await settings.set("maxPasses", "1");
  await settings.save.click();
  await expect(settings.status).toHaveText("Saved 1 change; the next question uses them.");
  await expect(settings.error("maxPasses")).toHaveCount(0);
  const change = settings.changeRows.first();
  await expect(change).toHaveAttribute("data-key", "cgrag.maxPasses");
  await expect(change).toContainText("e2e-admin");
  await expect(change.getByTestId("change-values")).toHaveText("3 → 1");
  await page.reload();
  await expect(settings.input("maxPasses")).toHaveValue("1");

  // The next question, asked in the chat, is single-pass.
  const repo = await repositoryId(request, "shop");
  const chat = new ChatPage(page);
  await chat.goto(repo);
  await chat.ask(DIAGNOSTIC, { mode: "diagnostic" });
  const answer = await chat.answer(1);
  await expect(answer.classificationMode).toHaveText("diagnostic");
  await expect(answer.passes).toHaveCount(1);
  const sessionId = chat.sessionIdFromUrl();

  // A few more through the API so every chart has something to show.
  for (const [question, mode] of [
    ["Where is the order total computed?", "conceptual"],
    ["What happens when an order is placed, step by step?", "exploratory"],
    ["How are the modules of the shop connected?", "analytical"],
  ] as const) {
    const response = await request.post("/api/qa", {
      data: { repositoryId: repo, question, options: { mode } },
    });
    expect(response.status()).toBe(200);
    await response.body();
  }

  await page.goto("/admin");
  const dashboard = new AdminDashboardPage(page);
  await expect(dashboard.totalQuestions).toContainText("4");
  const row = dashboard.recentQuestion(DIAGNOSTIC);
  await expect(row).toHaveAttribute("data-mode", "diagnostic");
  await expect(row).toHaveAttribute("data-passes", "1");
  await expect(dashboard.recent).toHaveCount(4);
  await expect(dashboard.chart("questions-per-mode")).toContainText("1 diagnostic");
  await expect(dashboard.chart("passes").locator('[data-bin="1"]')).toHaveAttribute("data-count", "4");
  // The diagnostic row shows its p50 and p95 (in ms, or in s on a busy machine).
  await expect(dashboard.chart("latency").locator('[data-mode="diagnostic"]')).toContainText(
    /p50: \d+(\.\d+)? m?s/,
  );

  mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${SHOTS}/admin-dashboard-wide.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(dashboard.chart("passes")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/admin-dashboard-narrow.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // The recent question links to its conversation.
  await row.getByTestId("recent-question-link").click();
  await expect(page).toHaveURL(new RegExp(`/repos/${repo}\\?session=${sessionId}$`));
  await expect(chat.questions.first()).toContainText("PaymentDeclined");

  // Back to the defaults, logged too.
  await page.goto("/admin/settings");
  await page.screenshot({ path: `${SHOTS}/admin-settings-wide.png`, fullPage: true });
  await settings.reset();
  await expect(settings.input("maxPasses")).toHaveValue("3");
  await expect(settings.changeRows.first().getByTestId("change-values")).toHaveText("1 → 3");
});

test("golden questions run on demand with pass/fail and history", async ({ page }) => {
  await AdminLoginPage.open(page, "/admin/golden");
  const golden = new AdminGoldenPage(page);

  await golden.add(DIAGNOSTIC, ["shop/paymnts.py"], "diagnostic");
  await expect(page.getByTestId("golden-files-error")).toHaveText(
    "Not in the index of shop: shop/paymnts.py.",
  );

  await golden.add(DIAGNOSTIC, ["shop/payments.py"], "diagnostic");
  await golden.add("Where is the order total computed?", ["shop/__init__.py"]);
  const pass = golden.item(DIAGNOSTIC);
  const fail = golden.item("order total");
  await expect(pass.getByTestId("golden-last")).toHaveText("not run");

  await page.getByTestId("golden-run-all").click();
  await expect(pass.getByTestId("golden-last")).toHaveText("pass");
  await expect(fail.getByTestId("golden-last")).toHaveText("fail");
  await expect(fail.getByTestId("golden-missing")).toContainText("shop/__init__.py");
  await expect(page.getByTestId("golden")).toHaveAttribute("data-running", "false");

  await pass.getByTestId("golden-run-one").click();
  await expect(pass.getByTestId("golden-sparkline")).toHaveAttribute("data-runs", "pp");
  await expect(fail.getByTestId("golden-sparkline")).toHaveAttribute("data-runs", "f");

  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/admin-golden-wide.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/admin-golden-narrow.png`, fullPage: true });

  // Signing out ends access.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByTestId("admin-sign-out").click();
  await expect(page).toHaveURL(/\/admin\/login/);
  await page.goto("/admin/golden");
  await expect(page).toHaveURL(/\/admin\/login/);
});
