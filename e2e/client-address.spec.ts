/**
 * The client's address through `next start` itself: Next.js fills X-Forwarded-For from
 * the socket only when a request has none, so the server stamps each request with its
 * socket's address (instrumentation.ts). Without trusted proxies a forged
 * X-Forwarded-For starts no fresh count of wrong tokens and never reaches the log; with
 * WAYFINDER_TRUSTED_PROXIES naming the proxy (here: this test, on loopback) the header
 * is believed, entry by entry. Open mode on a network address warns at start.
 */
import { expect, test } from "@playwright/test";
import { E2E_PORT, startWayfinder, type RunningServer } from "./support/wayfinder-server";

const ADMIN = "client-address-admin-0123456789";
const servers: RunningServer[] = [];
test.afterAll(async () => {
  for (const server of servers) await server.stop();
});

const wrongLogin = (url: string, forwardedFor: string) =>
  fetch(`${url}/api/admin/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor },
    body: JSON.stringify({ token: "wrong-token-0123456789abcdef" }),
  }).then((r) => r.status);

test("without trusted proxies the socket's address counts and is logged, whatever X-Forwarded-For says", async () => {
  test.setTimeout(120_000);
  const server = await startWayfinder({
    port: E2E_PORT + 7,
    host: "0.0.0.0",
    env: { WAYFINDER_ACCESS: "open", ADMIN_TOKEN: ADMIN, WAYFINDER_LOG_LEVEL: "info" },
  });
  servers.push(server);
  expect(server.output()).toContain(
    "[wayfinder] warning: access is open (no sign-in) while the server listens on 0.0.0.0",
  );
  const statuses = [];
  for (let i = 0; i < 20; i++) statuses.push(await wrongLogin(server.url, `198.51.100.${i}`));
  expect(statuses.slice(0, 6)).toEqual(Array(6).fill(401));
  expect(statuses.slice(6).every((s) => s === 429)).toBe(true);
  const lines = server
    .output()
    .split("\n")
    .filter((l) => l.includes("api POST /api/admin/login"));
  expect(lines).toHaveLength(20);
  for (const line of lines) expect(line).toMatch(/ client=127\.0\.0\.1$/);
  expect(server.output()).not.toContain("198.51.100.");
});

test("with the proxy trusted, each forwarded client counts on its own and is logged", async () => {
  test.setTimeout(120_000);
  const server = await startWayfinder({
    port: E2E_PORT + 8,
    env: { WAYFINDER_TRUSTED_PROXIES: "127.0.0.1", ADMIN_TOKEN: ADMIN, WAYFINDER_LOG_LEVEL: "info" },
  });
  servers.push(server);
  expect(server.output()).not.toContain("[wayfinder] warning");
  // Seven wrong tokens from seven clients behind the proxy: none is locked out.
  const spread = [];
  for (let i = 0; i < 7; i++) spread.push(await wrongLogin(server.url, `203.0.113.${i}`));
  expect(spread).toEqual(Array(7).fill(401));
  // One client, whatever it puts before the entry the proxy appended: locked after five.
  const one = [];
  for (let i = 0; i < 7; i++) one.push(await wrongLogin(server.url, `198.51.100.${i}, 203.0.113.50`));
  expect(one).toEqual([401, 401, 401, 401, 401, 401, 429]);
  expect(server.output()).toMatch(/api POST \/api\/admin\/login 401 \d+ms who=\S+ client=203\.0\.113\.3$/m);
  expect(server.output()).not.toMatch(/client=198\.51\.100\./);
});
