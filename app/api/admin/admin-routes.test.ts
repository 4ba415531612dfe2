/**
 * Admin route handlers called directly with Request objects: every route answers a
 * missing, wrong or forged credential with the same bare 401 (no settings, no
 * metrics, no hint) and changes nothing; the bearer token and the login cookie both
 * work; login sets an httpOnly SameSite=Strict cookie whose name signs the change log.
 */
import { PEER_HEADER, peerStamp } from "@/lib/auth/client-address";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetAuthThrottle } from "@/lib/auth/token-throttle";
import { ensureAdminToken, signAdminSession } from "@/lib/auth/admin-token";
import { getSettingsView } from "@/lib/admin/settings";
import { indexFixture, setupQaHome, type IndexedFixture } from "@/test-support/qa-env";
import { DELETE as deleteGolden } from "./golden/[id]/route";
import { POST as runGolden } from "./golden/run/route";
import { GET as listGolden, POST as createGolden } from "./golden/route";
import { POST as login } from "./login/route";
import { POST as logout } from "./logout/route";
import { GET as getMetrics } from "./metrics/route";
import { DELETE as resetSettings, GET as getSettings, PUT as putSettings } from "./settings/route";

let fx: IndexedFixture;
let cleanup: () => Promise<void>;
let token: string;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-admin-routes-"));
  delete process.env.ADMIN_TOKEN;
  fx = await indexFixture();
  token = ensureAdminToken().token;
});
afterAll(async () => cleanup());
// These tests send many wrong tokens on purpose; the throttle has its own tests below.
beforeEach(() => resetAuthThrottle());

const URL_BASE = "http://localhost";

function request(
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: unknown } = {},
) {
  return new Request(`${URL_BASE}${path}`, {
    method,
    headers: { "content-type": "application/json", ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

const params = { params: Promise.resolve({}) };
const goldenParams = { params: Promise.resolve({ id: "some-id" }) };

/** Every admin route with a request that would succeed (or at least pass auth) when authorized. */
const ROUTES: { name: string; call: (headers: Record<string, string>) => Promise<Response> }[] = [
  {
    name: "GET settings",
    call: (h) => getSettings(request("GET", "/api/admin/settings", { headers: h }), params),
  },
  {
    name: "PUT settings",
    call: (h) =>
      putSettings(
        request("PUT", "/api/admin/settings", { headers: h, body: { cgrag: { maxPasses: 1 } } }),
        params,
      ),
  },
  {
    name: "DELETE settings",
    call: (h) => resetSettings(request("DELETE", "/api/admin/settings", { headers: h }), params),
  },
  {
    name: "GET metrics",
    call: (h) => getMetrics(request("GET", "/api/admin/metrics?range=24h", { headers: h }), params),
  },
  {
    name: "GET golden",
    call: (h) => listGolden(request("GET", "/api/admin/golden", { headers: h }), params),
  },
  {
    name: "POST golden",
    call: (h) =>
      createGolden(
        request("POST", "/api/admin/golden", {
          headers: h,
          body: {
            repositoryId: fx.repositoryId,
            question: "Where are totals computed?",
            expectedFiles: ["shop/pricing.py"],
          },
        }),
        params,
      ),
  },
  {
    name: "DELETE golden",
    call: (h) => deleteGolden(request("DELETE", "/api/admin/golden/some-id", { headers: h }), goldenParams),
  },
  {
    name: "POST golden run",
    call: (h) =>
      runGolden(
        request("POST", "/api/admin/golden/run", { headers: h, body: { repositoryId: fx.repositoryId } }),
        params,
      ),
  },
];

const REFUSED = { error: { code: "unauthorized:admin", message: "Admin authentication required." } };

const BAD_CREDENTIALS: [string, () => Record<string, string>][] = [
  ["no credentials", () => ({})],
  ["a wrong bearer token", () => ({ authorization: "Bearer not-the-admin-token-at-all" })],
  ["an empty bearer", () => ({ authorization: "Bearer " })],
  ["the token in the wrong scheme", () => ({ authorization: `Basic ${token}` })],
  [
    "a forged cookie",
    () => ({
      cookie: `wayfinder_admin=${signAdminSession({ actor: "x", expiresAt: Date.now() + 60_000 }, "guess-0123456789abcdef")}`,
    }),
  ],
  [
    "an expired cookie",
    () => ({ cookie: `wayfinder_admin=${signAdminSession({ actor: "x", expiresAt: Date.now() - 1 })}` }),
  ],
  ["the raw token as cookie", () => ({ cookie: `wayfinder_admin=${token}` })],
  [
    "a wrong bearer beside a valid cookie",
    () => ({
      authorization: "Bearer wrong-token-0123456789",
      cookie: `wayfinder_admin=${signAdminSession({ actor: "x", expiresAt: Date.now() + 60_000 })}`,
    }),
  ],
];

describe("refusals", () => {
  for (const [what, headers] of BAD_CREDENTIALS) {
    it(`answers ${what} with a bare 401 on every route`, async () => {
      for (const route of ROUTES) {
        resetAuthThrottle(); // one wrong token per route here, not a guessing run
        const response = await route.call(headers());
        expect(response.status, route.name).toBe(401);
        expect(await response.json(), route.name).toEqual(REFUSED);
        expect(response.headers.get("set-cookie"), route.name).toBeNull();
      }
    });
  }

  it("changed nothing while refusing", async () => {
    const view = await getSettingsView();
    expect(view.overridden).toEqual([]);
    expect(view.changes).toEqual([]);
    const golden = await listGolden(
      request("GET", "/api/admin/golden", { headers: { authorization: `Bearer ${token}` } }),
      params,
    );
    expect((await golden.json()).questions).toEqual([]);
  });

  it("refuses a wrong token at login without setting a cookie", async () => {
    const response = await login(
      request("POST", "/api/admin/login", { body: { token: "wrong-token-0123456789" } }),
    );
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(REFUSED);
    expect(response.headers.get("set-cookie")).toBeNull();
  });
});

describe("access", () => {
  it("accepts the bearer token", async () => {
    const response = await getSettings(
      request("GET", "/api/admin/settings", { headers: { authorization: `Bearer ${token}` } }),
      params,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body.config.maxPasses).toBe(3);
    const metrics = await getMetrics(
      request("GET", "/api/admin/metrics", { headers: { authorization: `Bearer ${token}` } }),
      params,
    );
    expect(metrics.status).toBe(200);
    expect((await metrics.json()).dashboard.range).toBe("7d");
  });

  it("checks the body only after the credentials", async () => {
    const response = await putSettings(
      request("PUT", "/api/admin/settings", {
        headers: { authorization: `Bearer ${token}` },
        body: { cgrag: { maxPasses: 99 } },
      }),
      params,
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: {
        code: "bad_request:settings",
        fields: [{ key: "maxPasses", message: "Must be a whole number from 1 to 8." }],
      },
    });
    const query = await getMetrics(
      request("GET", "/api/admin/metrics?range=1y", { headers: { authorization: `Bearer ${token}` } }),
      params,
    );
    expect(query.status).toBe(400);
  });

  it("logs in with the token: an httpOnly, SameSite=Strict cookie that signs the change log with the name given", async () => {
    const response = await login(request("POST", "/api/admin/login", { body: { token, name: "Dana" } }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ actor: "Dana" });
    const setCookie = response.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^wayfinder_admin=[^;]+; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict$/);
    expect(setCookie).not.toContain(token);
    const cookie = setCookie.split(";")[0] ?? "";

    const saved = await putSettings(
      request("PUT", "/api/admin/settings", { headers: { cookie }, body: { cgrag: { maxPasses: 2 } } }),
      params,
    );
    expect(saved.status).toBe(200);
    expect((await saved.json()).changes[0]).toMatchObject({
      key: "cgrag.maxPasses",
      oldValue: 3,
      newValue: 2,
      actor: "Dana",
    });

    const reset = await resetSettings(
      request("DELETE", "/api/admin/settings", { headers: { cookie } }),
      params,
    );
    expect((await reset.json()).config.maxPasses).toBe(3);
  });

  it("marks the cookie Secure behind https", async () => {
    const response = await login(
      request("POST", "/api/admin/login", { body: { token }, headers: { "x-forwarded-proto": "https" } }),
    );
    expect(response.headers.get("set-cookie")).toContain("; Secure");
    expect(await response.json()).toEqual({ actor: "admin" });
  });

  it("refuses login names that would garble the change log", async () => {
    const response = await login(request("POST", "/api/admin/login", { body: { token, name: "<script>" } }));
    expect(response.status).toBe(400);
  });

  it("logs out by expiring the cookie", async () => {
    const response = await logout(request("POST", "/api/admin/logout"));
    expect(response.status).toBe(204);
    expect(response.headers.get("set-cookie")).toContain("Max-Age=0");
  });
});

describe("throttling wrong tokens", () => {
  const from = (address: string, extra: Record<string, string> = {}) => ({
    [PEER_HEADER]: peerStamp(address),
    "x-forwarded-for": "10.0.0.1",
    ...extra,
  });
  const wrongLogin = (address: string) =>
    login(
      request("POST", "/api/admin/login", {
        headers: from(address),
        body: { token: "wrong-token-0123456789" },
      }),
    );

  it("locks a client out with 429 and Retry-After after five wrong tokens, even for the right one", async () => {
    for (let i = 0; i < 5; i++) expect((await wrongLogin("203.0.113.7")).status).toBe(401);
    // The sixth failure is still checked (401) and starts the lock.
    expect((await wrongLogin("203.0.113.7")).status).toBe(401);
    const locked = await login(
      request("POST", "/api/admin/login", { headers: from("203.0.113.7"), body: { token } }),
    );
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(locked.headers.get("set-cookie")).toBeNull();
    expect((await locked.json()).error.code).toBe("too_many_requests:admin");
    // Bearer checks from that client are locked too; bearer and login share one count.
    const bearer = await getSettings(
      request("GET", "/api/admin/settings", {
        headers: from("203.0.113.7", { authorization: `Bearer ${token}` }),
      }),
      params,
    );
    expect(bearer.status).toBe(429);
  });

  it("counts each client on its own, and a correct token clears the count", async () => {
    for (let i = 0; i < 6; i++) await wrongLogin("198.51.100.1");
    expect((await wrongLogin("198.51.100.1")).status).toBe(429);
    const other = await getSettings(
      request("GET", "/api/admin/settings", {
        headers: from("198.51.100.2", { authorization: `Bearer ${token}` }),
      }),
      params,
    );
    expect(other.status).toBe(200);
    for (let i = 0; i < 4; i++) await wrongLogin("198.51.100.3");
    expect(
      (await login(request("POST", "/api/admin/login", { headers: from("198.51.100.3"), body: { token } })))
        .status,
    ).toBe(200);
    // Four more wrong tokens after a success are within the free allowance again.
    for (let i = 0; i < 4; i++) expect((await wrongLogin("198.51.100.3")).status).toBe(401);
  });
});
