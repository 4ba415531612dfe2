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
 *
 * The session rows act on a conversation of the caller's own. Below the matrix:
 * ownership (a person's, a browser's, a script's conversations: 404 for everyone else,
 * admins included; conversations from before owners read-only for admins), the question
 * limit over MCP (each ask of a batch counts, together with /api/qa), and the client
 * address (a forged X-Forwarded-For changes no count and no log line without trusted
 * proxies; with them, the header counts exactly as far as they go). The limits shared by
 * two instances on PostgreSQL are in lib/auth/shared-limits.test.ts.
 */
import fs from "node:fs";
import path from "node:path";
import { encode } from "@auth/core/jwt";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { resetAuthThrottle } from "@/lib/auth/token-throttle";
import { ensureAdminToken } from "@/lib/auth/admin-token";
import { addGoldenQuestion, isGoldenRunInProgress } from "@/lib/admin/golden";
import { createRepository } from "@/lib/db/repositories";
import { listQueuedGenerations, failQueuedGeneration } from "@/lib/db/generations";
import { ACCESS_COOKIE, signAccessSession } from "@/lib/auth/access-token";
import { PEER_HEADER, peerStamp } from "@/lib/auth/client-address";
import { BROWSER_COOKIE } from "@/lib/auth/conversation-owner";
import { resetRateLimits } from "@/lib/auth/rate-limit";
import { createSession, listMessages, shareSession } from "@/lib/db/sessions";
import { getSharedConversation, listOwnSessions } from "@/lib/qa/conversations";
import { resetEnvForTests } from "@/lib/env";
import { indexRepository } from "@/lib/builds/build";
import { SHOP_FIXTURE } from "@/test-support/qa-env";
import { setupTempEnv, type TempEnv } from "@/test-support/temp-env";
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
import { GET as adminFiles } from "./admin/files/route";
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
import { MERMAID_VERSION } from "@/components/diagrams/mermaid-bundle";
import { GET as mermaidBundle } from "../vendor/mermaid/[version]/[...file]/route";

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
  /** a fresh valid request (may create what it acts on, e.g. a conversation of the caller's) */
  call: (mode: Mode, who: Who) => Promise<Call> | Call;
}

const json = (body: unknown) => body;

/** Every route handler: the API, and mermaid's browser build for diagrams. */
const ROUTES: RouteRow[] = [
  {
    method: "GET",
    route: "/vendor/mermaid/[version]/[...file]",
    handler: mermaidBundle as Handler,
    needs: "public",
    ok: 200,
    call: () => ({
      path: `/vendor/mermaid/${MERMAID_VERSION}/mermaid.esm.min.mjs`,
      params: { version: MERMAID_VERSION, file: ["mermaid.esm.min.mjs"] },
    }),
  },
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
    call: async (mode, who) => {
      const id = await ownSession(mode, who);
      return { path: `/api/sessions/${id}`, params: { id } };
    },
  },
  {
    method: "POST",
    route: "/api/sessions/[id]/share",
    handler: share as Handler,
    needs: "reader",
    ok: 200,
    call: async (mode, who) => {
      const id = await ownSession(mode, who);
      return { path: `/api/sessions/${id}/share`, params: { id } };
    },
  },
  {
    method: "POST",
    route: "/api/sessions/[id]/gap-answers",
    handler: checkGapAnswers as Handler,
    needs: "reader",
    // Past the access and ownership checks, the caller's own session has no answer to continue yet.
    ok: 409,
    call: async (mode, who) => {
      const id = await ownSession(mode, who);
      return {
        path: `/api/sessions/${id}/gap-answers`,
        params: { id },
        body: { repositoryId, gapAnswers: [{ gap: "fraud_screen()", location: "shop/payments.py" }] },
      };
    },
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
  {
    method: "GET",
    route: "/api/admin/files",
    handler: adminFiles as Handler,
    needs: "admin",
    ok: 200,
    call: () => ({ path: "/api/admin/files" }),
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
  { page: "/admin/files", needs: "admin", path: () => "/admin/files" },
  { page: "/admin/sources", needs: "admin", path: () => "/admin/sources" },
  { page: "/admin/login", needs: "public", path: () => "/admin/login" },
];

/** Whose conversations the matrix's callers hold (lib/auth/conversation-owner.ts): null in open mode. */
function ownerOf(mode: Mode, who: Who): string | null {
  if (mode === "open") return null;
  if (who === "admin") return "script:admin";
  if (who === "reader") return mode === "token" ? "script:team" : "oidc:reader-1";
  return "browser:no-one";
}

/** A fresh conversation belonging to the caller (the rows above read and share only their own). */
async function ownSession(mode: Mode, who: Who): Promise<string> {
  const id = `matrix-own-${++made}`;
  await createSession({ id, repositoryId, generationId, title: "Own", ownerKey: ownerOf(mode, who) });
  return id;
}

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
      const call = await row.call(mode, who);
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

// ------------------------------------------------------------------ conversations

/** An Auth.js session cookie of an OIDC user. */
async function oidcCookie(sub: string, email: string): Promise<Record<string, string>> {
  const token = await encode({
    token: { sub, email, name: sub },
    secret: AUTH_SECRET,
    salt: "authjs.session-token",
  });
  return { cookie: `authjs.session-token=${token}` };
}

/** A browser signed in with the team token (its own browser id cookie, if it has one yet). */
function teamBrowser(browserCookie?: string): Record<string, string> {
  const team = signAccessSession({ actor: "team", expiresAt: Date.now() + 3_600_000 });
  return { cookie: [`${ACCESS_COOKIE}=${team}`, ...(browserCookie ? [browserCookie] : [])].join("; ") };
}

const askBody = (id: string, text = "Where are order totals computed?") => ({
  id,
  messages: [{ id: `q-${++made}`, role: "user", parts: [{ type: "text", text }] }],
  trigger: "submit-message",
  repositoryId,
});

async function post(
  handler: Handler,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
  params = {},
) {
  const response = await handler(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    { params: Promise.resolve(params) },
  );
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function get(handler: Handler, path: string, headers: Record<string, string>, params = {}) {
  const response = await handler(new Request(`${ORIGIN}${path}`, { headers }), {
    params: Promise.resolve(params),
  });
  return { status: response.status, text: await response.text() };
}

const readSession = (id: string, headers: Record<string, string>) =>
  get(getSession as Handler, `/api/sessions/${id}`, headers, { id });
const shareOf = (id: string, headers: Record<string, string>) =>
  post(share as Handler, `/api/sessions/${id}/share`, headers, undefined, { id });
const askIn = (id: string, headers: Record<string, string>) =>
  post(ask as Handler, "/api/qa", headers, askBody(id));
const messageCount = async (id: string) => (await listMessages(id)).length;

/** The JSON-RPC messages of an MCP response (JSON or an SSE stream). */
function mcpMessages(
  text: string,
): { id?: number; result?: { isError?: boolean; content?: { text: string }[] } }[] {
  const data = text.includes("data:")
    ? text
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5))
    : [text];
  return data.flatMap((d) => {
    const value = JSON.parse(d) as unknown;
    return Array.isArray(value) ? value : [value];
  });
}

const mcpAsk = (id: number, question: string, sessionId?: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: {
    name: "ask",
    arguments: { repository: repositoryId, question, ...(sessionId ? { sessionId } : {}) },
  },
});
const MCP_HEADERS = { accept: "application/json, text/event-stream" };

describe("conversations belong to a person (oidc)", () => {
  const rita = () => oidcCookie("reader-1", "rita@example.test");
  const oscar = () => oidcCookie("reader-2", "oscar@example.test");
  const ada = () => oidcCookie("admin-1", "ada@example.test"); // in WAYFINDER_ADMINS
  let ritas: string;
  let legacy: string;
  beforeAll(async () => {
    useMode("oidc");
    ritas = `matrix-rita-${++made}`;
    expect((await askIn(ritas, await rita())).status).toBe(200);
    legacy = (
      await createSession({ id: `matrix-legacy-${++made}`, repositoryId, generationId, title: "Old" })
    ).id;
  });
  beforeEach(() => useMode("oidc"));

  it.each([
    ["the owner reads it", "rita", "own", 200],
    ["another user gets 404", "oscar", "own", 404],
    ["an admin gets 404 for someone else's", "ada", "own", 404],
    ["an admin reads one from before owners", "ada", "legacy", 200],
    ["a reader gets 404 for one from before owners", "rita", "legacy", 404],
  ] as const)("GET /api/sessions/[id]: %s", async (_name, who, which, status) => {
    const headers = await { rita, oscar, ada }[who]();
    expect((await readSession(which === "own" ? ritas : legacy, headers)).status).toBe(status);
  });

  it("shares only what the caller may read", async () => {
    expect((await shareOf(ritas, await oscar())).status).toBe(404);
    expect((await shareOf(ritas, await ada())).status).toBe(404);
    expect((await shareOf(ritas, await rita())).status).toBe(200);
  });

  it("lets nobody but the owner append: another user's POST /api/qa is 404 and adds nothing", async () => {
    const before = await messageCount(ritas);
    const refused = await askIn(ritas, await oscar());
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.text).error.code).toBe("not_found:session");
    expect((await askIn(ritas, await ada())).status).toBe(404);
    // Nor over MCP: the tool refuses the session id as if it did not exist.
    const viaMcp = await post(
      mcp as Handler,
      "/api/mcp",
      { ...(await oscar()), ...MCP_HEADERS },
      mcpAsk(1, "Totals?", ritas),
    );
    const [message] = mcpMessages(viaMcp.text);
    expect(message?.result?.isError).toBe(true);
    expect(message?.result?.content?.[0]?.text).toBe("No such session.");
    expect(await messageCount(ritas)).toBe(before);
    expect((await askIn(ritas, await rita())).status).toBe(200);
    expect(await messageCount(ritas)).toBe(before + 2);
  });

  it("lets nobody but the owner continue an answer from filled gaps (POST /api/sessions/[id]/gap-answers)", async () => {
    const check = async (headers: Record<string, string>) =>
      (
        await post(
          checkGapAnswers as Handler,
          `/api/sessions/${ritas}/gap-answers`,
          headers,
          { repositoryId, gapAnswers: [{ gap: "fraud_screen()", location: "shop/payments.py" }] },
          { id: ritas },
        )
      ).status;
    expect(await check(await oscar())).toBe(404);
    expect(await check(await ada())).toBe(404);
    // The owner gets past ownership to the answer's own checks (the gap is not one it left open).
    expect(await check(await rita())).toBe(400);
  });

  it("keeps a conversation from before owners read-only, even for admins", async () => {
    const refused = await askIn(legacy, await ada());
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text).error.code).toBe("forbidden:session");
    expect(await messageCount(legacy)).toBe(0);
  });

  it("lists each person's own conversations only", async () => {
    const own = await listOwnSessions(
      repositoryId,
      { kind: "owner", owner: "oidc:reader-1", admin: false },
      100,
    );
    expect(own.map((s) => s.id)).toContain(ritas);
    expect(own.every((s) => s.ownerKey === "oidc:reader-1")).toBe(true);
    const others = await listOwnSessions(
      repositoryId,
      { kind: "owner", owner: "oidc:reader-2", admin: false },
      100,
    );
    expect(others.map((s) => s.id)).not.toContain(ritas);
  });

  it("shows admins other people's questions as numbers only", async () => {
    const response = await get(metrics as Handler, "/api/admin/metrics?range=all", await ada());
    const recent = (
      JSON.parse(response.text) as {
        recent: { sessionId: string | null; question: string | null; private: boolean }[];
      }
    ).recent;
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.some((r) => r.private)).toBe(true);
    expect(recent.filter((r) => r.private).every((r) => r.question === null && r.sessionId === null)).toBe(
      true,
    );
    expect(response.text).not.toContain(ritas);
  });
});

describe("conversations belong to a browser or a script (token)", () => {
  beforeEach(() => useMode("token"));

  it("gives a browser a signed, httpOnly id with its first question, and only that browser reads on", async () => {
    const id = `matrix-browser-${++made}`;
    const first = await askIn(id, teamBrowser());
    expect(first.status).toBe(200);
    const setCookie = first.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(
      new RegExp(`^${BROWSER_COOKIE}=[^;]+; Path=/; Max-Age=\\d+; HttpOnly; SameSite=Strict`),
    );
    const browserA = setCookie.split(";")[0] ?? "";
    expect((await readSession(id, teamBrowser(browserA))).status).toBe(200);
    // Another browser, a script with the team token, the admin's script, a forged id: 404.
    const other = await askIn(`matrix-browser-${++made}`, teamBrowser());
    const browserB = (other.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    expect(browserB).not.toBe(browserA);
    expect((await readSession(id, teamBrowser(browserB))).status).toBe(404);
    expect((await readSession(id, { authorization: `Bearer ${TEAM_TOKEN}` })).status).toBe(404);
    expect((await readSession(id, { authorization: `Bearer ${adminToken}` })).status).toBe(404);
    const [name, value = ""] = browserA.split("=");
    const forged = `${name}=${value.slice(0, -3)}abc`;
    expect((await readSession(id, teamBrowser(forged))).status).toBe(404);
    expect((await askIn(id, teamBrowser(browserB))).status).toBe(404);
    expect(await messageCount(id)).toBe(2);
  });

  it("lets scripts see the conversations scripts started, and no browser's", async () => {
    const id = `matrix-script-${++made}`;
    const script = { authorization: `Bearer ${TEAM_TOKEN}` };
    const first = await askIn(id, script);
    expect(first.status).toBe(200);
    expect(first.headers.get("set-cookie")).toBeNull();
    expect((await readSession(id, script)).status).toBe(200);
    expect((await askIn(id, script)).status).toBe(200);
    expect((await readSession(id, teamBrowser())).status).toBe(404);
  });

  it("shows a shared conversation to anyone holding the link, and only what was shared", async () => {
    const id = `matrix-shared-${++made}`;
    const script = { authorization: `Bearer ${TEAM_TOKEN}` };
    await askIn(id, script);
    const shared = await shareOf(id, script);
    expect(shared.status).toBe(200);
    const { shareId: link } = JSON.parse(shared.text) as { shareId: string };
    expect((await getSharedConversation(link))?.session.id).toBe(id);
  });
});

// ------------------------------------------------------------------ one limiter, the real client

describe("limits that cannot be dodged", () => {
  const LIMIT = 3;
  beforeAll(() => {
    process.env.WAYFINDER_RATE_QUESTIONS = String(LIMIT);
  });
  afterAll(() => {
    delete process.env.WAYFINDER_RATE_QUESTIONS;
    delete process.env.WAYFINDER_TRUSTED_PROXIES;
    resetEnvForTests();
  });
  beforeEach(() => {
    delete process.env.WAYFINDER_TRUSTED_PROXIES;
    useMode("token");
    resetRateLimits();
  });
  const script = (peer: string, forwarded?: string) => ({
    authorization: `Bearer ${TEAM_TOKEN}`,
    [PEER_HEADER]: peerStamp(peer),
    ...(forwarded ? { "x-forwarded-for": forwarded } : {}),
  });

  it("counts every ask of an MCP batch against the question limit", async () => {
    const batch = Array.from({ length: 6 }, (_, i) =>
      mcpAsk(i + 1, `Where are order totals computed? (${i})`),
    );
    const response = await post(
      mcp as Handler,
      "/api/mcp",
      { ...script("192.0.2.30"), ...MCP_HEADERS },
      batch,
    );
    expect(response.status).toBe(200);
    const results = mcpMessages(response.text).filter((m) => m.id !== undefined && m.result);
    expect(results).toHaveLength(6);
    const refused = results.filter((m) => m.result?.isError);
    expect(refused).toHaveLength(6 - LIMIT);
    for (const m of refused)
      expect(m.result?.content?.[0]?.text).toMatch(/^Too many questions from this client/);
    // The same limit as /api/qa: that client's next question over HTTP is refused too.
    expect((await askIn(`matrix-limit-${++made}`, script("192.0.2.30"))).status).toBe(429);
  });

  it("counts separate MCP posts and /api/qa questions together", async () => {
    const peer = "192.0.2.31";
    expect((await askIn(`matrix-limit-${++made}`, script(peer))).status).toBe(200);
    for (let i = 0; i < LIMIT - 1; i++) {
      const one = await post(
        mcp as Handler,
        "/api/mcp",
        { ...script(peer), ...MCP_HEADERS },
        mcpAsk(1, "Totals?"),
      );
      expect(mcpMessages(one.text)[0]?.result?.isError, `post ${i}`).toBeFalsy();
    }
    const over = await post(
      mcp as Handler,
      "/api/mcp",
      { ...script(peer), ...MCP_HEADERS },
      mcpAsk(1, "Totals?"),
    );
    expect(mcpMessages(over.text)[0]?.result?.isError).toBe(true);
  });

  it("ignores a forged X-Forwarded-For without trusted proxies: questions, wrong tokens and the log", async () => {
    const peer = "192.0.2.40";
    const statuses = [];
    for (let i = 0; i < LIMIT + 2; i++)
      statuses.push((await askIn(`matrix-limit-${++made}`, script(peer, `198.51.100.${i}`))).status);
    expect(statuses).toEqual([...Array(LIMIT).fill(200), 429, 429]);

    const wrong = [];
    for (let i = 0; i < 20; i++)
      wrong.push(
        (
          await post(
            adminLogin as Handler,
            "/api/admin/login",
            { [PEER_HEADER]: peerStamp(peer), "x-forwarded-for": `203.0.113.${i}` },
            {
              token: "wrong-token-0123456789",
            },
          )
        ).status,
      );
    expect(wrong.slice(0, 6)).toEqual(Array(6).fill(401));
    expect(wrong.slice(6).every((s) => s === 429)).toBe(true);

    process.env.WAYFINDER_LOG_LEVEL = "info";
    resetEnvForTests();
    const lines: string[] = [];
    const spy = vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
    try {
      await get(health as Handler, "/api/health", {
        [PEER_HEADER]: peerStamp(peer),
        "x-forwarded-for": "198.51.100.77",
      });
    } finally {
      spy.mockRestore();
      process.env.WAYFINDER_LOG_LEVEL = "warn";
      resetEnvForTests();
    }
    expect(lines.join("\n")).toMatch(/api GET \/api\/health 200 \d+ms who=- client=192\.0\.2\.40$/m);
  });

  it("believes X-Forwarded-For as far as WAYFINDER_TRUSTED_PROXIES says, and no further", async () => {
    process.env.WAYFINDER_TRUSTED_PROXIES = "10.0.0.0/8";
    useMode("token");
    const proxy = "10.1.2.3";
    // Two clients behind the proxy each get their own count.
    for (const client of ["203.0.113.60", "203.0.113.61"])
      for (let i = 0; i < LIMIT; i++)
        expect((await askIn(`matrix-limit-${++made}`, script(proxy, client))).status, client).toBe(200);
    // A client that puts forged entries before the one the proxy appended is still itself.
    const forged = await askIn(`matrix-limit-${++made}`, script(proxy, "198.51.100.5, 203.0.113.60"));
    expect(forged.status).toBe(429);
    // Wrong tokens count per real client too.
    const wrong = [];
    for (let i = 0; i < 7; i++)
      wrong.push(
        (
          await post(
            adminLogin as Handler,
            "/api/admin/login",
            { [PEER_HEADER]: peerStamp(proxy), "x-forwarded-for": `198.51.100.${i}, 203.0.113.62` },
            { token: "wrong-token-0123456789" },
          )
        ).status,
      );
    expect(wrong).toEqual([401, 401, 401, 401, 401, 401, 429]);
    // A peer outside the trusted range is the client whatever it forwards.
    const outsider = [];
    for (let i = 0; i < LIMIT + 1; i++)
      outsider.push(
        (await askIn(`matrix-limit-${++made}`, script("192.0.2.70", `203.0.113.${100 + i}`))).status,
      );
    expect(outsider.at(-1)).toBe(429);
  });
});
