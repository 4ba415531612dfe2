/**
 * The MCP server through the SDK's own client over both transports: Streamable HTTP
 * (the /api/mcp route handler behind a real HTTP server) and stdio (`wayfinder mcp`
 * as a child process). Both list the same tools and give the same results; `ask`
 * returns claims with verified spans and reports progress per pass; errors are tool
 * errors with the API's messages; nothing is read outside the indexed generation.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE, GET, POST } from "../../app/api/mcp/route.ts";
import { indexRepository } from "../builds/build.ts";
import { cliProcessArgs } from "../builds/jobs.ts";
import { startServer, type TestServer } from "../../test-support/qa-http.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";

const ROOT = process.cwd();

const BILLING = `"""Billing: invoices and their totals."""


class InvoiceError(Exception):
    """Raised when an invoice cannot be totalled."""


def line_total(line):
    """Price times quantity of one invoice line."""
    if line["quantity"] < 0:
        raise InvoiceError("negative quantity")
    return line["price"] * line["quantity"]


def invoice_total(invoice):
    """Sum of the invoice's lines."""
    return sum(line_total(line) for line in invoice["lines"])
`;

const API = `"""HTTP handlers for invoices."""
from billing import invoice_total


def get_invoice_total(request):
    """Answer GET /invoices/<id>/total."""
    invoice = request.store.load(request.params["id"])
    return {"total": invoice_total(invoice)}
`;

let t: TempEnv;
let http: TestServer;
let viaHttp: Client;
let viaStdio: Client;
let repo: string;

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const structured = async (client: Client, name: string, args: Record<string, unknown>) => {
  const result = await call(client, name, args);
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
};

beforeAll(async () => {
  t = await setupTempEnv();
  const root = t.makeRepo(
    { "billing.py": BILLING, "api.py": API, "README.md": "# Invoices\n\nTotals of invoices.\n" },
    "invoices",
  );
  const { repository } = await indexRepository(root);
  repo = repository.name;
  // After indexing the disk changes: tools must keep answering from the index.
  t.write(root, "billing.py", "# rewritten on disk after indexing\n");

  http = await startServer(async (request, url) => {
    if (url.pathname !== "/api/mcp") return new Response("not found", { status: 404 });
    const handler = request.method === "POST" ? POST : request.method === "GET" ? GET : DELETE;
    return handler(request, undefined);
  });
  viaHttp = new Client({ name: "wayfinder-test", version: "1.0.0" });
  await viaHttp.connect(new StreamableHTTPClientTransport(new URL(`${http.url}/api/mcp`)));
  viaStdio = new Client({ name: "wayfinder-test", version: "1.0.0" });
  await viaStdio.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: cliProcessArgs(["mcp"], ROOT),
      cwd: ROOT,
      env: t.childEnv() as Record<string, string>,
      stderr: "pipe",
    }),
  );
}, 120_000);

afterAll(async () => {
  await viaHttp?.close();
  await viaStdio?.close();
  await http?.close();
  await t?.cleanup();
});

describe("tools", () => {
  it("lists the same ten read-only tools with input and output schemas over both transports", async () => {
    const [a, b] = await Promise.all([viaHttp.listTools(), viaStdio.listTools()]);
    const names = a.tools.map((x) => x.name).sort();
    expect(names).toEqual([
      "ask",
      "callees",
      "callers",
      "find_symbol",
      "findings",
      "index_status",
      "list_repositories",
      "read_span",
      "search",
      "wiki_page",
    ]);
    expect(b.tools).toEqual(a.tools);
    for (const tool of a.tools) {
      expect(tool.description!.length, tool.name).toBeLessThanOrEqual(200);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
    }
  });

  it("search, find_symbol, callers, callees, read_span, wiki_page, findings and index_status agree across transports", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ["list_repositories", {}],
      ["index_status", { repository: repo }],
      ["search", { repository: repo, query: "invoice total", mode: "lexical" }],
      ["search", { repository: repo, query: "invoice total", scope: "api.py" }],
      ["find_symbol", { repository: repo, name: "line_total" }],
      ["callers", { repository: repo, symbol: "line_total", depth: 2 }],
      ["callees", { repository: repo, symbol: "api.py::get_invoice_total" }],
      ["read_span", { repository: repo, path: "billing.py", startLine: 9, endLine: 13 }],
      ["wiki_page", { repository: repo, page: "billing.py" }],
      ["findings", { repository: repo }],
    ];
    for (const [name, args] of calls) {
      const [a, b] = await Promise.all([structured(viaHttp, name, args), structured(viaStdio, name, args)]);
      expect(b, `${name} ${JSON.stringify(args)}`).toEqual(a);
    }
  });

  it("finds callers two hops up with verified spans, and reads spans from the indexed generation", async () => {
    const callers = await structured(viaHttp, "callers", {
      repository: repo,
      symbol: "line_total",
      depth: 2,
    });
    expect(callers.roots).toEqual(["billing.py::line_total"]);
    expect(callers.edges).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          from: "billing.py::invoice_total",
          to: "billing.py::line_total",
          depth: 1,
        }),
        expect.objectContaining({
          from: "api.py::get_invoice_total",
          to: "billing.py::invoice_total",
          depth: 2,
        }),
      ]),
    );
    const node = callers.nodes.find((n: { id: string }) => n.id === "api.py::get_invoice_total");
    const span = await structured(viaHttp, "read_span", {
      repository: repo,
      path: node.path,
      startLine: node.startLine,
      endLine: node.endLine,
    });
    expect(span.text).toMatch(/^def get_invoice_total\(request\):/);
    expect(span.text).toContain("invoice_total(invoice)");

    // billing.py was rewritten on disk after indexing: the indexed text is what comes back.
    const billing = await structured(viaStdio, "read_span", { repository: repo, path: "billing.py" });
    expect(billing.text).toContain("def line_total(line):");
    expect(billing.text).not.toContain("rewritten on disk");
    expect(billing.index).toMatchObject({ repository: repo, generation: 1 });
  });

  it("ask returns structured claims with verified citations, gaps, mode and passes, and reports progress per pass", async () => {
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const result = (await viaHttp.callTool(
      {
        name: "ask",
        arguments: { repository: repo, question: "What calls line_total and what does it raise?" },
      },
      undefined,
      { onprogress: (p) => progress.push(p) },
    )) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(answer.mode).toBe("analytical");
    expect(answer.passes.used).toBeGreaterThanOrEqual(1);
    expect(answer.index).toMatchObject({ repository: repo, generation: 1 });
    expect(answer.claims.length).toBeGreaterThan(0);
    const verified = answer.claims
      .flatMap((c: { citations: { verified: boolean }[] }) => c.citations)
      .filter((c: { verified: boolean }) => c.verified);
    expect(verified.length).toBeGreaterThan(0);
    for (const c of verified) {
      // A verified citation's snippet is exactly the indexed lines it says it shows, inside its span.
      expect(c.shownLines.startLine).toBeGreaterThanOrEqual(c.startLine);
      expect(c.shownLines.endLine).toBeLessThanOrEqual(c.endLine);
      const span = await structured(viaHttp, "read_span", {
        repository: repo,
        path: c.path,
        startLine: c.shownLines.startLine,
        endLine: c.shownLines.endLine,
      });
      expect(c.snippet).toBe(span.text);
    }
    expect(answer.claims.some((c: { text: string }) => /invoice_total/.test(c.text))).toBe(true);
    expect(Array.isArray(answer.gaps.resolved) && Array.isArray(answer.gaps.unresolved)).toBe(true);
    // A notification per pass phase; progress only grows and ends at the passes used, out of the maximum.
    expect(progress.length).toBeGreaterThanOrEqual(3 * answer.passes.used - 1);
    expect(progress[0]).toMatchObject({ progress: 0.25, total: answer.passes.max });
    expect(progress[0]!.message).toMatch(/^pass 1: /);
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
    expect(progress.at(-1)).toMatchObject({ progress: answer.passes.used });

    // The same question over stdio gives the same evidence.
    const again = await structured(viaStdio, "ask", {
      repository: repo,
      question: "What calls line_total and what does it raise?",
    });
    for (const key of ["answer", "claims", "citations", "gaps", "mode", "passes", "index"])
      expect(again[key], key).toEqual(answer[key]);
  });

  it("ask continues a session's last answer from gapAnswers, counting passes as the chat does", async () => {
    // retry_policy exists nowhere in the repository: the loop names it and cannot find it.
    const first = await structured(viaHttp, "ask", {
      repository: repo,
      question: "What calls line_total, and is it wrapped by retry_policy?",
    });
    expect(first.gaps.unresolved.map((g: { gap: string }) => g.gap)).toContain("retry_policy()");
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const result = (await viaHttp.callTool(
      {
        name: "ask",
        arguments: {
          repository: repo,
          sessionId: first.sessionId,
          gapAnswers: [{ gap: "retry_policy()", excerpt: "def retry_policy(fn):\n    return fn" }],
        },
      },
      undefined,
      { onprogress: (p) => progress.push(p) },
    )) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const continued = result.structuredContent as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(continued.sessionId).toBe(first.sessionId);
    expect(continued.gaps.resolved).toContainEqual({
      gap: "retry_policy()",
      via: "user",
      found: [],
      note: "provided by the user, not verified",
    });
    expect(continued.gaps.unresolved.map((g: { gap: string }) => g.gap)).not.toContain("retry_policy()");
    expect(continued.answer).toContain("provided by the user, not verified");
    // One more pass, and one more allowed: the user's.
    expect(continued.passes.used).toBe(first.passes.used + 1);
    expect(continued.passes.max).toBe(first.passes.max + 1);
    // Progress ends at the passes used (half-way beyond, when a last lookup found nothing new).
    expect(Math.floor(progress.at(-1)!.progress)).toBe(continued.passes.used);
    expect(progress.at(-1)!.total).toBe(continued.passes.max);
    // No progress message names a pass beyond those the answer counts.
    for (const p of progress) {
      const named = Number(/^pass (\d+)/.exec(p.message ?? "")?.[1] ?? 0);
      expect(named).toBeLessThanOrEqual(continued.passes.used);
    }

    const refused = await call(viaHttp, "ask", {
      repository: repo,
      sessionId: first.sessionId,
      gapAnswers: [{ gap: "retry_policy()", location: "retry.py" }],
    });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/not a gap this answer left open|No file or folder/);
  });
});

describe("errors are tool errors with the API's messages", () => {
  it.each([
    ["search", { repository: "no-such-repo", query: "x" }, /No indexed repository "no-such-repo"/],
    ["read_span", { repository: "invoices", path: "../../etc/passwd" }, /Not a path inside the repository/],
    ["read_span", { repository: "invoices", path: "/etc/passwd" }, /Not a path inside the repository/],
    [
      "read_span",
      { repository: "invoices", path: "missing.py" },
      /missing\.py is not in the index of invoices \(generation 1\)/,
    ],
    [
      "read_span",
      { repository: "invoices", path: "api.py", startLine: 500 },
      /api\.py has 8 lines; line 500 does not exist/,
    ],
    [
      "find_symbol",
      { repository: "invoices", name: "nothing_like_this" },
      /No symbol named "nothing_like_this"/,
    ],
    ["wiki_page", { repository: "invoices", page: "nowhere/at/all" }, /No wiki page for "nowhere\/at\/all"/],
    [
      "search",
      { repository: "invoices", query: "x", scope: "../outside" },
      /Not a path inside the repository/,
    ],
    ["callers", { repository: "invoices", symbol: "line_total", depth: 9 }, /Input validation error/],
  ])("%s %j", async (name, args, message) => {
    for (const client of [viaHttp, viaStdio]) {
      const result = await call(client, name, args);
      expect(result.isError).toBe(true);
      expect((result.content as { text: string }[])[0]!.text).toMatch(message);
    }
  });
});

describe("resources and the HTTP endpoint", () => {
  it("serves wiki pages as resources", async () => {
    const { resources } = await viaStdio.listResources();
    const page = resources.find((r) => r.uri.endsWith("/wiki/file/billing.py"));
    expect(page?.mimeType).toBe("text/markdown");
    const read = await viaHttp.readResource({ uri: page!.uri });
    expect((read.contents[0] as { text: string }).text).toMatch(/^# billing\.py/);
    expect((read.contents[0] as { text: string }).text).toMatch(/billing\.py:\d+-\d+/);
  });

  it("answers GET and DELETE with 405 (stateless endpoint) and refuses oversized bodies", async () => {
    const get = await fetch(`${http.url}/api/mcp`, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const big = await fetch(`${http.url}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: { pad: "x".repeat(2 * 1024 * 1024) },
      }),
    });
    expect(big.status).toBe(413);
  });
});
