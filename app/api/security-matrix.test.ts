/**
 * The security matrix, beside the bad-input one: every route handler and every page ×
 * every access mode (open, token, oidc) × every kind of caller (no identity, reader,
 * admin), asserting the exact status of both layers that guard them: the route
 * handler's own check (apiRoute → lib/auth/guards) and the proxy's gate in front of
 * everything (proxy.ts → lib/auth/gate). Real database, real indexed repository, real
 * credentials: the team token, the admin token, and Auth.js session cookies as the
 * OIDC sign-in sets them.
 *
 * Adding a route: add a row to ROUTES (method, path, handler, what it needs, the
 * status of a valid request). A route or page file that is in no table fails the
 * completeness test below.
 *
 * Expected outcomes (a = the route's success status):
 *
 * | needs   | open: none / reader / admin | token and oidc: none / reader / admin |
 * | ------- | --------------------------- | ------------------------------------- |
 * | public  | a / a / a                   | a / a / a                             |
 * | reader  | a / a / a                   | 401 / a / a                           |
 * | manager | a / a / a                   | 401 / 403 / a                         |
 * | admin   | 401 / 401 / a               | 401 / 403 / a                         |
 *
 * (In open mode the reader is the anonymous visitor; managing repositories is open
 * there by default. Pages answer a refusal with a redirect to the sign-in page.)
 */
import fs from "node:fs";
import path from "node:path";
import { encode } from "@auth/core/jwt";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetAuthThrottle } from "@/lib/admin/throttle";
import { ensureAdminToken } from "@/lib/admin/token";
import { addGoldenQuestion, isGoldenRunInProgress } from "@/lib/admin/golden";
import { createRepository, listQueuedGenerations, failQueuedGeneration } from "@/lib/db/index-store";
import { createSession, shareSession } from "@/lib/db/sessions";
import { resetEnvForTests } from "@/lib/env";
import { indexRepository } from "@/lib/indexer/build";
import { SHOP_FIXTURE } from "@/lib/test-support/qa-env";
import { setupTempEnv, type TempEnv } from "@/lib/test-support/temp-env";
import { proxy } from "@/proxy";
import { GET as authRoute } from "./auth/[...auth]/route";
import { POST as accessLogin } from "./access/login/route";
import { POST as accessLogout } from "./access/logout/route";
import { DELETE as deleteGolden } from "./admin/golden/[id]/route";
import { POST as runGolden } from "./admin/golden/run/route";
import { GET as listGolden, POST as createGolden } from "./admin/golden/route";
import { POST as adminLogin } from "./admin/login/route";
import { POST as adminLogout } from "./admin/logout/route";
import { GET as metrics } from "./admin/metrics/route";
import { GET as secrets } from "./admin/secrets/route";
import { DELETE as resetSettings, GET as getSettings, PUT as putSettings } from "./admin/settings/route";
import { GET as health } from "./health/route";
import { DELETE as mcpDelete, GET as mcpGet, POST as mcp } from "./mcp/route";
import { POST as hook } from "./repos/[id]/hook/route";
import { GET as getSchedule, PUT as putSchedule } from "./repos/[id]/schedule/route";
import { POST as highlight } from "./highlight/route";
import { POST as ask } from "./qa/route";
import { POST as reindex } from "./repos/[id]/index/route";
import { GET as issues } from "./repos/[id]/issues/route";
import { DELETE as removeRepository, GET as getRepository } from "./repos/[id]/route";
import { GET as wiki } from "./repos/[id]/wiki/route";
import { GET as listRepositories, POST as addRepository } from "./repos/route";
import { POST as checkGapAnswers } from "./sessions/[id]/gap-answers/route";
import { POST as share } from "./sessions/[id]/share/route";
import { GET as getSession } from "./sessions/[id]/route";

type Mode = "open" | "token" | "oidc";
type Who = "none" | "reader" | "admin";
type Needs = "public" | "reader" | "manager" | "admin";
type Handler = (
  request: Request,
  context: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

const MODES: Mode[] = ["open", "token", "oidc"];
const WHO: Who[] = ["none", "reader", "admin"];
const TEAM_TOKEN = "matrix-team-token-0123456789abcdef";
const AUTH_SECRET = "matrix-auth-secret-0123456789abcdef0123456789";
const ORIGIN = "http://127.0.0.1:3999";

let t: TempEnv;
let roots: string;
let repositoryId: string;
let generationId: string;
let sessionId: string;
let shareId: string;
let adminToken: string;
let made = 0;

interface Call {
  path: string;
  params?: Record<string, string | string[]>;
  body?: unknown;
  headers?: Record<string, string>;
}

interface RouteRow {
  method: string;
  /** the route's path pattern, as its folder names it */
  route: string;
  handler: Handler;
  needs: Needs | ((mode: Mode) => Needs);
  /** the status of a valid request that passes the access check, per mode */
  ok: number | ((mode: Mode) => number);
  /** a fresh valid request (may create what it acts on) */
  call: () => Promise<Call> | Call;
}

const json = (body: unknown) => body;

/** Every route handler. */
const ROUTES: RouteRow[] = [
  {
    method: "GET",
    route: "/api/health",
    handler: health as Handler,
    needs: "public",
    ok: 200,
    call: () => ({ path: "/api/health" }),
  },
  {
    method: "GET",
    route: "/api/repos",
    handler: listRepositories as Handler,
    needs: "reader",
    ok: 200,
    call: () => ({ path: "/api/repos" }),
  },
  {
    method: "POST",
    route: "/api/repos",
    handler: addRepository as Handler,
    needs: "manager",
    ok: 202,
    call: () => {
      const folder = path.join(roots, `added-${++made}`);
      fs.mkdirSync(folder);
      fs.writeFileSync(path.join(folder, "main.py"), "def main():\n    return 1\n");
      return { path: "/api/repos", body: json({ path: folder }) };
    },
  },
  {
    method: "GET",
    route: "/api/repos/[id]",
    handler: getRepository as Handler,
    needs: "reader",
    ok: 200,
    call: () => ({ path: `/api/repos/${repositoryId}`, params: { id: repositoryId } }),
  },
  {
    method: "DELETE",
    route: "/api/repos/[id]",
    handler: removeRepository as Handler,
    needs: "manager",
    ok: 204,
    call: async () => {
      const folder = path.join(roots, `doomed-${++made}`);
      fs.mkdirSync(folder);
      const repository = await createRepository({ name: `doomed-${made}`, rootPath: folder });
      return { path: `/api/repos/${repository.id}`, params: { id: repository.id } };
    },
  },
  {
    method: "POST",
    route: "/api/repos/[id]/index",
    handler: reindex as Handler,
    needs: "manager",
    ok: 202,
    call: () => ({ path: `/api/repos/${repositoryId}/index`, params: { id: repositoryId } }),
  },
  {
    method: "GET",
    route: "/api/repos/[id]/wiki",
    handler: wiki as Handler,
    needs: "reader",
    ok: 200,
    call: () => ({ path: `/api/repos/${repositoryId}/wiki`, params: { id: repositoryId } }),
  },
  {
    method: "GET",
    route: "/api/repos/[id]/issues",
    handler: issues as Handler,
    needs: "reader",
    ok: 200,
    call: () => ({ path: `/api/repos/${repositoryId}/issues`, params: { id: repositoryId } }),
  },
  {
    method: "POST",
    route: "/api/qa",
    handler: ask as Handler,
    needs: "reader",
    ok: 200,
    call: () => ({
      path: "/api/qa",
      body: {
        id: `matrix-ask-${++made}`,
        messages: [
          { id: "m1", role: "user", parts: [{ type: "text", text: "Where are order totals computed?" }] },
        ],
        trigger: "submit-message",
        repositoryId,
      },
    }),
  },
  {
    method: "GET",
    route: "/api/sessions/[id]",
    handler: getSession as Handler,
    needs: "reader",
    ok: 200,
    call: () => ({ path: `/api/sessions/${sessionId}`, params: { id: sessionId } }),
  },
  {
    method: "POST",
    route: "/api/sessions/[id]/share",
    handler: share as Handler,
    needs: "reader",
    ok: 200,
    call: () => ({ path: `/api/sessions/${sessionId}/share`, params: { id: sessionId } }),
  },
  {
    method: "POST",
    route: "/api/sessions/[id]/gap-answers",
    handler: checkGapAnswers as Handler,
    needs: "reader",
    // Past the access check, the matrix's session has no answer to continue yet.
    ok: 409,
    call: () => ({
      path: `/api/sessions/${sessionId}/gap-answers`,
      params: { id: sessionId },
      body: { repositoryId, gapAnswers: [{ gap: "fraud_screen()", location: "shop/payments.py" }] },
    }),
  },
  {
    method: "POST",
    route: "/api/highlight",
    handler: highlight as Handler,
    needs: "reader",
    ok: 200,
    call: () => ({
      path: "/api/highlight",
      body: { items: [{ code: "x = 1", language: "python", firstLine: 1 }] },
    }),
  },
  {
    method: "POST",
    route: "/api/admin/login",
    handler: adminLogin as Handler,
    needs: "public",
    ok: 200,
    call: () => ({ path: "/api/admin/login", body: { token: adminToken } }),
  },
  {
    method: "POST",
    route: "/api/admin/logout",
    handler: adminLogout as Handler,
    needs: "public",
    ok: 204,
    call: () => ({ path: "/api/admin/logout" }),
  },
  {
    method: "POST",
    route: "/api/access/login",
    handler: accessLogin as Handler,
    needs: "public",
    ok: (m) => (m === "token" ? 200 : 404),
    call: () => ({ path: "/api/access/login", body: { token: TEAM_TOKEN } }),
  },
  {
    method: "POST",
    route: "/api/access/logout",
    handler: accessLogout as Handler,
    needs: "public",
    ok: 204,
    call: () => ({ path: "/api/access/logout" }),
  },
  {
    method: "GET",
    route: "/api/auth/[...auth]",
    handler: authRoute as Handler,
    needs: "public",
    ok: (m) => (m === "oidc" ? 200 : 404),
    call: () => ({ path: "/api/auth/csrf" }),
  },
  {
    method: "GET",
    route: "/api/admin/settings",
    handler: getSettings as Handler,
    needs: "admin",
    ok: 200,
    call: () => ({ path: "/api/admin/settings" }),
  },
  {
    method: "PUT",
    route: "/api/admin/settings",
    handler: putSettings as Handler,
    needs: "admin",
    ok: 200,
    call: () => ({ path: "/api/admin/settings", body: { cgrag: { maxPasses: 3 } } }),
  },
  {
    method: "DELETE",
    route: "/api/admin/settings",
    handler: resetSettings as Handler,
    needs: "admin",
    ok: 200,
    call: () => ({ path: "/api/admin/settings" }),
  },
  {
    method: "GET",
    route: "/api/admin/metrics",
    handler: metrics as Handler,
    needs: "admin",
    ok: 200,
    call: () => ({ path: "/api/admin/metrics?range=24h" }),
  },
  {
    method: "GET",
    route: "/api/admin/golden",
    handler: listGolden as Handler,
    needs: "admin",
    ok: 200,
    call: () => ({ path: "/api/admin/golden" }),
  },
  {
    method: "POST",
    route: "/api/admin/golden",
    handler: createGolden as Handler,
    needs: "admin",
    ok: 201,
    call: () => ({
      path: "/api/admin/golden",
      body: {
        repositoryId,
        question: `Where are totals computed ${++made}?`,
        expectedFiles: ["shop/pricing.py"],
      },
    }),
  },
  {
    method: "DELETE",
    route: "/api/admin/golden/[id]",
    handler: deleteGolden as Handler,
    needs: "admin",
    ok: 204,
    call: async () => {
      const golden = await addGoldenQuestion({
        repositoryId,
        question: `Doomed ${++made}?`,
        mode: null,
        expectedFiles: ["shop/api.py"],
      });
      return { path: `/api/admin/golden/${golden.id}`, params: { id: golden.id } };
    },
  },
  {
    method: "POST",
    route: "/api/admin/golden/run",
    handler: runGolden as Handler,
    needs: "admin",
    ok: 202,
    call: () => ({ path: "/api/admin/golden/run", body: { repositoryId } }),
  },
  {
    method: "POST",
    route: "/api/mcp",
    handler: mcp as Handler,
    needs: "reader",
    ok: 200,
    call: () => ({
      path: "/api/mcp",
      headers: { accept: "application/json, text/event-stream" },
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "matrix", version: "1" },
        },
      },
    }),
  },
  {
    method: "GET",
    route: "/api/mcp",
    handler: mcpGet as Handler,
    needs: "reader",
    ok: 405,
    call: () => ({ path: "/api/mcp" }),
  },
  {
    method: "DELETE",
    route: "/api/mcp",
    handler: mcpDelete as Handler,
    needs: "reader",
    ok: 405,
    call: () => ({ path: "/api/mcp" }),
  },
  // Webhooks are public to people and answer for themselves: an unsigned push is refused by the handler.
  {
    method: "POST",
    route: "/api/repos/[id]/hook",
    handler: hook as Handler,
    needs: "public",
    ok: 401,
    call: () => ({
      path: `/api/repos/${repositoryId}/hook`,
      params: { id: repositoryId },
      body: { ref: "refs/heads/main" },
    }),
  },
  {
    method: "GET",
    route: "/api/repos/[id]/schedule",
    handler: getSchedule as Handler,
    needs: "admin",
    ok: 200,
    call: () => ({ path: `/api/repos/${repositoryId}/schedule`, params: { id: repositoryId } }),
  },
  {
    method: "PUT",
    route: "/api/repos/[id]/schedule",
    handler: putSchedule as Handler,
    needs: "admin",
    ok: 200,
    call: () => ({
      path: `/api/repos/${repositoryId}/schedule`,
      params: { id: repositoryId },
      body: { pollMinutes: null },
    }),
  },
  {
    method: "GET",
    route: "/api/admin/secrets",
    handler: secrets as Handler,
    needs: "admin",
    ok: 200,
    call: () => ({ path: "/api/admin/secrets" }),
  },
];

/** Every page, as the proxy sees it: allowed through, or redirected to sign in. */
const PAGES: { page: string; needs: Needs; path: () => string }[] = [
  { page: "/", needs: "reader", path: () => "/" },
  { page: "/repos/[id]", needs: "reader", path: () => `/repos/${repositoryId}` },
  { page: "/repos/[id]/issues", needs: "reader", path: () => `/repos/${repositoryId}/issues` },
  {
    page: "/repos/[id]/source",
    needs: "reader",
    path: () => `/repos/${repositoryId}/source?path=shop/api.py`,
  },
  { page: "/repos/[id]/wiki", needs: "reader", path: () => `/repos/${repositoryId}/wiki` },
  {
    page: "/repos/[id]/wiki/[...slug]",
    needs: "reader",
    path: () => `/repos/${repositoryId}/wiki/file/shop/api.py`,
  },
  { page: "/s/[shareId]", needs: "reader", path: () => `/s/${shareId}` },
  { page: "/login", needs: "public", path: () => "/login" },
  { page: "/admin", needs: "admin", path: () => "/admin" },
  { page: "/admin/settings", needs: "admin", path: () => "/admin/settings" },
  { page: "/admin/golden", needs: "admin", path: () => "/admin/golden" },
  { page: "/admin/secrets", needs: "admin", path: () => "/admin/secrets" },
  { page: "/admin/sources", needs: "admin", path: () => "/admin/sources" },
  { page: "/admin/login", needs: "public", path: () => "/admin/login" },
];

function expectedStatus(needs: Needs, mode: Mode, who: Who, ok: number): number {
  if (needs === "public") return ok;
  if (mode === "open") return needs === "admin" && who !== "admin" ? 401 : ok;
  if (who === "none") return 401;
  if (who === "reader" && needs !== "reader") return 403;
  return ok;
}

function useMode(mode: Mode): void {
  process.env.WAYFINDER_ACCESS = mode;
  resetEnvForTests();
  resetAuthThrottle();
}

async function credentials(mode: Mode, who: Who): Promise<Record<string, string>> {
  if (who === "none") return {};
  if (who === "admin") return { authorization: `Bearer ${adminToken}` };
  if (mode === "token") return { authorization: `Bearer ${TEAM_TOKEN}` };
  if (mode === "oidc") {
    const token = await encode({
      token: { sub: "reader-1", email: "rita@example.test", name: "Rita" },
      secret: AUTH_SECRET,
      salt: "authjs.session-token",
    });
    return { cookie: `authjs.session-token=${token}` };
  }
  return {}; // open mode: the reader is the anonymous visitor
}

beforeAll(async () => {
  t = await setupTempEnv();
  delete process.env.ADMIN_TOKEN;
  adminToken = ensureAdminToken().token;
  roots = t.makeDir("roots");
  Object.assign(process.env, {
    WAYFINDER_ACCESS_TOKEN: TEAM_TOKEN,
    AUTH_SECRET,
    WAYFINDER_OIDC_ISSUER: "http://127.0.0.1:9/issuer",
    WAYFINDER_OIDC_CLIENT_ID: "matrix",
    WAYFINDER_OIDC_CLIENT_SECRET: "matrix-secret",
    WAYFINDER_ADMINS: "ada@example.test",
    WAYFINDER_REPO_ROOTS: roots,
    // Builds are only queued here; no worker process runs them.
    WAYFINDER_INDEX_WORKER: "external",
  });
  resetEnvForTests();
  const { repository, stats } = await indexRepository(SHOP_FIXTURE, { name: "shop" });
  repositoryId = repository.id;
  generationId = stats.generationId;
  sessionId = (await createSession({ id: "matrix-session-1", repositoryId, generationId, title: "Matrix" }))
    .id;
  shareId = await shareSession(sessionId);
});
afterAll(async () => {
  // Golden runs started by the matrix finish in the background; let them end before the database goes.
  while (repositoryId && isGoldenRunInProgress(repositoryId)) await new Promise((r) => setTimeout(r, 100));
  for (const key of [
    "WAYFINDER_ACCESS_TOKEN",
    "AUTH_SECRET",
    "WAYFINDER_OIDC_ISSUER",
    "WAYFINDER_OIDC_CLIENT_ID",
    "WAYFINDER_OIDC_CLIENT_SECRET",
    "WAYFINDER_ADMINS",
    "WAYFINDER_REPO_ROOTS",
    "WAYFINDER_INDEX_WORKER",
  ])
    delete process.env[key];
  process.env.WAYFINDER_ACCESS = "open";
  resetEnvForTests();
  await t?.cleanup();
});
beforeEach(async () => {
  // A queued build of the repository would turn the next re-index into a 409.
  for (const queued of await listQueuedGenerations()) await failQueuedGeneration(queued.id, "matrix");
});

describe.each(MODES)("%s mode", (mode) => {
  beforeEach(() => useMode(mode));

  describe.each(WHO)("as %s", (who) => {
    it.each(ROUTES.map((r) => [`${r.method} ${r.route}`, r] as const))("%s", async (_name, row) => {
      const needs = typeof row.needs === "function" ? row.needs(mode) : row.needs;
      const ok = typeof row.ok === "function" ? row.ok(mode) : row.ok;
      const expected = expectedStatus(needs, mode, who, ok);
      const call = await row.call();
      const headers = {
        ...(await credentials(mode, who)),
        "content-type": "application/json",
        ...call.headers,
      };
      const init = {
        method: row.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
      };

      // The proxy in front: lets the request through (0 here) or refuses it before any handler runs.
      // It knows paths, not routes: admin routes need an admin there, every other route a reader.
      const gateNeeds: Needs =
        needs === "public" ? needs : row.route.startsWith("/api/admin/") ? "admin" : "reader";
      const gate = await proxy(new NextRequest(`${ORIGIN}${call.path}`, { method: row.method, headers }));
      const through = gate.headers.get("x-middleware-next") === "1";
      expect(through ? 0 : gate.status, "proxy").toBe(expectedStatus(gateNeeds, mode, who, 0));

      // The handler itself, called as Next calls it.
      const response = await row.handler(new Request(`${ORIGIN}${call.path}`, init), {
        params: Promise.resolve(call.params ?? {}),
      });
      const text = await response.text();
      expect(response.status, text.slice(0, 200)).toBe(expected);
      if (expected === 401 || expected === 403) {
        // A refusal says nothing about what is behind it.
        expect(JSON.parse(text).error.code).toMatch(
          /^(unauthorized|forbidden):(access|admin|manage|webhook)$/,
        );
        expect(text).not.toContain("shop");
      }
    });

    it.each(PAGES.map((p) => [p.page, p] as const))("page %s", async (_name, page) => {
      const headers = await credentials(mode, who);
      const gate = await proxy(new NextRequest(`${ORIGIN}${page.path()}`, { headers }));
      const expected = expectedStatus(page.needs, mode, who, 200);
      if (expected === 200) {
        expect(gate.headers.get("x-middleware-next"), "let through").toBe("1");
        return;
      }
      expect(gate.status).toBe(307);
      const location = new URL(gate.headers.get("location") ?? "", ORIGIN);
      // Not signed in: the team sign-in (in open mode, where there is none, the admin sign-in).
      const signIn = expected === 403 || mode === "open" ? "/admin/login" : "/login";
      expect(location.pathname).toBe(signIn);
      expect(location.searchParams.get("next")).toBe(page.path());
    });
  });
});

describe("coverage", () => {
  const appDir = path.resolve(__dirname, "..");
  const files = (dir: string, name: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return files(full, name);
      return entry.name === name ? [full] : [];
    });
  const routeOf = (file: string, base: string) =>
    "/" + path.relative(appDir, path.dirname(file)).split(path.sep).join("/").replace(/^\.$/, "") + base;

  it("has a row for every route and method", async () => {
    for (const file of files(appDir, "route.ts")) {
      const route = routeOf(file, "").replace(/\/$/, "");
      const exported = (await import(file)) as Record<string, unknown>;
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        if (typeof exported[method] !== "function") continue;
        if (route === "/api/auth/[...auth]" && method === "POST") continue; // the same handler as GET
        expect(
          ROUTES.some((r) => r.route === route && r.method === method),
          `${method} ${route}`,
        ).toBe(true);
      }
    }
  });

  it("has a row for every page", () => {
    for (const file of files(appDir, "page.tsx")) {
      const page = routeOf(file, "").replace(/(.)\/$/, "$1");
      expect(
        PAGES.some((p) => p.page === page),
        page,
      ).toBe(true);
    }
  });
});
