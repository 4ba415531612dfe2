/**
 * oidc mode against a real OpenID Connect provider started here: sign in through the
 * provider's pages, ask, share, sign out; share links and the API need a signed-in
 * reader; WAYFINDER_ADMINS makes a user an admin without the token; an account
 * outside WAYFINDER_OIDC_ALLOWED is turned away.
 */
import { expect, test, type Page } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { watchCspViolations } from "./support/csp-violations";
import { startIdentityProvider, type LocalIdentityProvider } from "./support/oidc-provider";
import { E2E_PORT, startWayfinder, type RunningServer } from "./support/wayfinder-server";

const ADMIN = "oidc-spec-admin-0123456789abcdef";
const APP_PORT = E2E_PORT + 2;
let idp: LocalIdentityProvider;
let server: RunningServer;
let repositoryId: string;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(120_000);
  idp = await startIdentityProvider({
    port: E2E_PORT + 3,
    redirectUri: `http://127.0.0.1:${APP_PORT}/api/auth/callback/oidc`,
  });
  server = await startWayfinder({
    port: APP_PORT,
    env: {
      ADMIN_TOKEN: ADMIN,
      WAYFINDER_ACCESS: "oidc",
      WAYFINDER_OIDC_ISSUER: idp.issuer,
      WAYFINDER_OIDC_CLIENT_ID: idp.clientId,
      WAYFINDER_OIDC_CLIENT_SECRET: idp.clientSecret,
      WAYFINDER_OIDC_NAME: "Test IdP",
      WAYFINDER_OIDC_ALLOWED: "@example.test",
      WAYFINDER_ADMINS: "ada@example.test",
    },
  });
  const admin = await playwright.request.newContext({
    baseURL: server.url,
    extraHTTPHeaders: { authorization: `Bearer ${ADMIN}` },
  });
  const listed = (await (await admin.get("/api/repos")).json()) as {
    repositories: { id: string; name: string }[];
  };
  repositoryId = listed.repositories.find((r) => r.name === "shop")?.id ?? "";
  await admin.dispose();
});
test.afterAll(async () => {
  await server?.stop();
  await idp?.stop();
});

/** Keeps the browser on this machine: the provider's development pages link a web font. */
async function loopbackOnly(page: Page): Promise<void> {
  await page.context().route(
    (url) => url.hostname !== "127.0.0.1" && url.hostname !== "localhost",
    (route) => route.abort(),
  );
}

/** From Wayfinder's sign-in page through the provider's login and consent pages. */
async function signInAs(page: Page, login: string): Promise<void> {
  await page.getByTestId("oidc-sign-in").click();
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.locator('button[type="submit"]').click();
  await page.getByRole("button", { name: "Continue" }).click();
}

test("sign in with the provider, ask, share, sign out", async ({ browser, playwright }) => {
  const anonymous = await playwright.request.newContext({ baseURL: server.url });
  expect((await anonymous.get("/api/repos")).status()).toBe(401);
  expect((await anonymous.get(`/api/repos/${repositoryId}/wiki`)).status()).toBe(401);
  expect((await anonymous.get("/", { maxRedirects: 0 })).headers().location).toBe("/login?next=%2F");

  const context = await browser.newContext({ baseURL: server.url });
  const violations = await watchCspViolations(context);
  const page = await context.newPage();
  await loopbackOnly(page);
  await page.goto(`/repos/${repositoryId}`);
  await expect(page).toHaveURL(/\/login\?next=%2Frepos%2F/);
  await expect(page.getByTestId("oidc-sign-in")).toHaveText("Sign in with Test IdP");
  await signInAs(page, "bob");
  await expect(page).toHaveURL(new RegExp(`${server.url}/repos/${repositoryId}$`));
  await expect(page.getByTestId("user-name")).toHaveText("bob@example.test");

  const chat = new ChatPage(page);
  await chat.ask("Why do I get PaymentDeclined: card declined by gateway when placing an order?");
  await expect((await chat.answer(1)).verifiedCitations.first()).toBeVisible();
  const shareUrl = await chat.share();

  // The session cookie works for the API too; a reader does not manage repositories or see admin pages.
  expect((await page.request.get("/api/repos")).status()).toBe(200);
  expect((await page.request.post(`/api/repos/${repositoryId}/index`)).status()).toBe(403);
  expect((await page.request.get("/api/admin/settings")).status()).toBe(403);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/login\?next=%2Fadmin$/);

  // A share link is for readers: a stranger is sent to sign in first.
  const stranger = await browser.newContext({ baseURL: server.url });
  const strangerPage = await stranger.newPage();
  await loopbackOnly(strangerPage);
  await strangerPage.goto(shareUrl);
  await expect(strangerPage).toHaveURL(/\/login\?next=%2Fs%2F/);
  await signInAs(strangerPage, "carol");
  await expect(strangerPage.getByTestId("share-page")).toBeVisible();
  await expect(strangerPage.getByTestId("user-message")).toContainText("PaymentDeclined");
  await stranger.close();

  await page.goto("/");
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto(`/repos/${repositoryId}`);
  await expect(page).toHaveURL(/\/login\?next=/);
  expect((await page.request.get("/api/repos")).status()).toBe(401);

  expect(await violations()).toEqual([]);
  await context.close();
});

test("an admin listed in WAYFINDER_ADMINS reaches admin pages; an account outside the allowed domain is refused", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  await loopbackOnly(page);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/login\?next=%2Fadmin/);
  await signInAs(page, "ada");
  await expect(page.getByTestId("admin-page")).toBeVisible();
  await expect(page.getByTestId("user-menu")).toContainText("admin");
  expect((await page.request.get("/api/admin/settings")).status()).toBe(200);
  await context.close();

  const outsider = await browser.newContext({ baseURL: server.url });
  const outsiderPage = await outsider.newPage();
  await loopbackOnly(outsiderPage);
  await outsiderPage.goto("/");
  await signInAs(outsiderPage, "out-eve");
  await expect(outsiderPage).toHaveURL(/\/login\?.*error=AccessDenied/);
  await expect(outsiderPage.getByTestId("login-error")).toHaveText(
    "This account may not sign in to this server.",
  );
  expect((await outsiderPage.request.get("/api/repos")).status()).toBe(401);
  await outsider.close();
});
