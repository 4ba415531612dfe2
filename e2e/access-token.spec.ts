/**
 * A server on a network address with no access setting starts in token mode: nothing
 * is served without the team token, a browser enters it once (cookie), scripts send
 * it as a Bearer header, readers read and ask but do not manage repositories, share
 * links need a reader, and signing out closes everything again.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { watchCspViolations } from "./support/csp-violations";
import { E2E_PORT, startWayfinder, type RunningServer } from "./support/wayfinder-server";

const ADMIN = "token-spec-admin-0123456789abcdef";
let server: RunningServer;
let teamToken: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startWayfinder({ port: E2E_PORT + 1, host: "0.0.0.0", env: { ADMIN_TOKEN: ADMIN } });
  teamToken = fs.readFileSync(path.join(server.home, "access-token"), "utf8").trim();
});
test.afterAll(async () => server?.stop());

test("token mode: refused without the token, one sign-in per browser, readers read, sign-out closes", async ({
  browser,
  playwright,
}) => {
  expect(server.output()).toContain("[wayfinder] access: token (the server listens on 0.0.0.0");
  expect(server.output()).toContain(teamToken);

  const anonymous = await playwright.request.newContext({ baseURL: server.url });
  expect((await anonymous.get("/api/repos")).status()).toBe(401);
  expect((await anonymous.post("/api/qa", { data: { repositoryId: "shop", question: "x" } })).status()).toBe(
    401,
  );
  expect(await (await anonymous.get("/api/health")).json()).toEqual({ ok: true });
  const page1 = await anonymous.get("/", { maxRedirects: 0 });
  expect(page1.status()).toBe(307);
  expect(page1.headers().location).toBe("/login?next=%2F");
  expect(
    (
      await anonymous.get("/api/repos", { headers: { authorization: "Bearer wrong-0123456789abcdef" } })
    ).status(),
  ).toBe(401);

  const reader = await playwright.request.newContext({
    baseURL: server.url,
    extraHTTPHeaders: { authorization: `Bearer ${teamToken}` },
  });
  const listed = (await (await reader.get("/api/repos")).json()) as {
    repositories: { id: string; name: string }[];
  };
  const shop = listed.repositories.find((r) => r.name === "shop");
  expect(shop).toBeDefined();
  const id = shop?.id ?? "";
  // Readers do not manage repositories; even an admin adds no folder over HTTP without WAYFINDER_REPO_ROOTS.
  expect((await reader.post(`/api/repos/${id}/index`)).status()).toBe(403);
  expect((await reader.post("/api/repos", { data: { path: "/etc" } })).status()).toBe(403);
  const admin = await playwright.request.newContext({
    baseURL: server.url,
    extraHTTPHeaders: { authorization: `Bearer ${ADMIN}` },
  });
  const adminAdd = await admin.post("/api/repos", { data: { path: "/etc" } });
  expect(adminAdd.status()).toBe(403);
  expect(((await adminAdd.json()) as { error: { code: string } }).error.code).toBe("forbidden:repo_path");

  // The browser: redirected to sign in, a wrong token refused, the right one kept in a cookie.
  const context = await browser.newContext({ baseURL: server.url });
  const violations = await watchCspViolations(context);
  const page = await context.newPage();
  await page.goto(`/repos/${id}`);
  await expect(page).toHaveURL(new RegExp(`/login\\?next=%2Frepos%2F${id}$`));
  await page.getByTestId("access-token").fill("not-the-token-0123456789");
  await page.getByTestId("access-submit").click();
  await expect(page.getByTestId("access-error")).toHaveText("That token was not accepted.");
  await page.getByTestId("access-token").fill(teamToken);
  await page.getByTestId("access-name").fill("rita");
  await page.getByTestId("access-submit").click();
  await expect(page).toHaveURL(new RegExp(`/repos/${id}$`));
  await page.waitForLoadState("load");
  await expect(page.getByTestId("user-name")).toHaveText("rita");
  const cookie = (await context.cookies()).find((c) => c.name === "wayfinder_access");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict" });
  expect(cookie?.value).not.toContain(teamToken);

  const chat = new ChatPage(page);
  await chat.ask("Why do I get PaymentDeclined: card declined by gateway when placing an order?");
  await expect((await chat.answer(1)).verifiedCitations.first()).toBeVisible();
  const shareUrl = await chat.share();

  await page.goto("/");
  await expect(page.getByTestId("manage-note")).toBeVisible();
  await expect(page.getByTestId("repo-path-input")).toHaveCount(0);
  await expect(page.getByTestId("reindex-button")).toHaveCount(0);

  // A share link needs a reader: a fresh browser is sent to sign in, and comes back to it.
  const stranger = await browser.newContext({ baseURL: server.url });
  const strangerPage = await stranger.newPage();
  await strangerPage.goto(shareUrl);
  await expect(strangerPage).toHaveURL(/\/login\?next=%2Fs%2F/);
  await expect(strangerPage.getByTestId("share-page")).toHaveCount(0);
  await strangerPage.getByTestId("access-token").fill(teamToken);
  await strangerPage.getByTestId("access-submit").click();
  await expect(strangerPage.getByTestId("share-page")).toBeVisible();
  await expect(strangerPage.getByTestId("user-message")).toContainText("PaymentDeclined");
  await stranger.close();

  // Sign out: the cookie is gone and every page is closed again.
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto(`/repos/${id}`);
  await expect(page).toHaveURL(/\/login\?next=/);
  expect((await context.cookies()).find((c) => c.name === "wayfinder_access")).toBeUndefined();

  expect(await violations()).toEqual([]);
  // The request log names the route and who asked, never the question or a token.
  expect(server.output()).toMatch(/\[wayfinder\] api POST \/api\/qa 200 \d+ms who=reader\/access-cookie/);
  expect(server.output()).not.toContain("PaymentDeclined");
  await context.close();
});
