/**
 * /api/qa and /api/sessions/:id over real HTTP (node:http on 127.0.0.1:0 adapting
 * to the exported route handlers), offline engine, shop fixture: a useChat-shaped
 * request streams the UI message parts in order, incrementally; bad requests get a
 * clear 4xx JSON error before any stream starts; the stored conversation comes back.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnswerMetadata, CitationPart, PassPart, WayfinderUIMessage } from "@/lib/qa/types";
import { indexFixture, setupQaHome, type IndexedFixture } from "@/test-support/qa-env";
import { readSse, startServer, type SseEvent, type TestServer } from "@/test-support/qa-http";
import { GET as getSession } from "../sessions/[id]/route";
import { POST } from "./route";

let fx: IndexedFixture;
let server: TestServer;
let cleanup: () => Promise<void>;
let otherRepo: string;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-route-"));
  fx = await indexFixture();
  // A second repository, to check that a session cannot hop between repositories.
  const other = mkdtempSync(path.join(os.tmpdir(), "wf-other-repo-"));
  writeFileSync(path.join(other, "tool.py"), 'def run():\n    """Run the tool."""\n    return 1\n');
  otherRepo = (await indexFixture(other, "other")).repositoryId;
  rmSync(other, { recursive: true, force: true });
  server = await startServer(async (request, url) => {
    if (url.pathname === "/api/qa" && request.method === "POST") return POST(request);
    const session = /^\/api\/sessions\/([^/]+)$/.exec(url.pathname);
    if (session?.[1] && request.method === "GET")
      return getSession(request, { params: Promise.resolve({ id: session[1] }) });
    return new Response("not found", { status: 404 });
  });
});
afterAll(async () => {
  await server.close();
  await cleanup();
});

function chatBody(text: string, overrides: Record<string, unknown> = {}) {
  return {
    id: "chat-route-0001",
    messages: [{ id: "msg-1", role: "user", parts: [{ type: "text", text }] }],
    trigger: "submit-message",
    repositoryId: fx.repositoryId,
    ...overrides,
  };
}

function post(body: unknown): Promise<Response> {
  return fetch(`${server.url}/api/qa`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const typeOf = (e: SseEvent) => String(e.json?.type ?? e.data);
const passOf = (e: SseEvent) => (e.json?.type === "data-pass" ? (e.json.data as PassPart) : null);

// fraud_screen is nowhere in the shop: the evidence engine names it as the one gap, so a
// second pass looks for it (and stops, finding nothing new).
const QUESTION = "Why does create_order return 402 with PaymentDeclined? Is it retried by fraud_screen?";

describe("POST /api/qa", () => {
  let events: SseEvent[];
  let response: Response;

  beforeAll(async () => {
    response = await post(chatBody(QUESTION, { options: { mode: "diagnostic" } }));
    events = await readSse(response);
  });

  it("answers with a UI message stream", () => {
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect(response.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    expect(events.at(-1)?.data).toBe("[DONE]");
  });

  it("streams the parts in order: classification, passes with their text, sources, citations, finish", () => {
    const types = events.map(typeOf);
    expect(types[0]).toBe("start");
    expect(types[1]).toBe("data-classification");
    expect(types.at(-2)).toBe("finish");

    // Pass 1: retrieving → answering → its text → done, in that order.
    const at = (pred: (e: SseEvent) => boolean) => events.findIndex(pred);
    const phase = (n: number, p: PassPart["phase"]) =>
      at((e) => passOf(e)?.pass === n && passOf(e)?.phase === p);
    const retrieving1 = phase(1, "retrieving");
    const answering1 = phase(1, "answering");
    const textStart1 = at((e) => typeOf(e) === "text-start" && e.json?.id === "answer-1");
    const textEnd1 = at((e) => typeOf(e) === "text-end" && e.json?.id === "answer-1");
    const done1 = phase(1, "done");
    expect(retrieving1).toBeGreaterThan(1);
    expect(answering1).toBeGreaterThan(retrieving1);
    expect(textStart1).toBeGreaterThan(answering1);
    expect(textEnd1).toBeGreaterThan(textStart1);
    expect(events.slice(textStart1 + 1, textEnd1).every((e) => typeOf(e) === "text-delta")).toBe(true);
    expect(textEnd1 - textStart1).toBeGreaterThan(1);
    expect(done1).toBeGreaterThan(textEnd1);

    // The offline engine names the gap this question bears on, so a second pass looks for it.
    const gaps = passOf(events[done1] as SseEvent)?.gapsIdentified ?? [];
    expect(gaps).toEqual(["fraud_screen()"]);
    const retrieving2 = phase(2, "retrieving");
    const done2 = phase(2, "done");
    expect(retrieving2).toBeGreaterThan(done1);
    expect(done2).toBeGreaterThan(retrieving2);
    expect(passOf(events[done2] as SseEvent)).toMatchObject({
      stopReason: "no-new-context",
      gaps: [{ gap: "fraud_screen()", status: "unresolved" }],
    });

    // After the last pass: sources, then the citations part, then finish.
    const lastPass = Math.max(...events.map((e, i) => (passOf(e) ? i : -1)));
    const sources = events.flatMap((e, i) => (typeOf(e) === "source-url" ? [i] : []));
    const citations = at((e) => typeOf(e) === "data-citations");
    expect(sources.length).toBeGreaterThan(0);
    expect(Math.min(...sources)).toBeGreaterThan(lastPass);
    expect(citations).toBeGreaterThan(Math.max(...sources));
    const items = (events[citations]?.json?.data as { items: CitationPart[] } | undefined)?.items ?? [];
    expect(items.filter((c) => c.verified).map((c) => `${c.path}:${c.startLine}-${c.endLine}`)).toEqual(
      sources.map((i) => events[i]?.json?.sourceId),
    );
  });

  it("finishes with the answer metadata", () => {
    const finish = events.find((e) => typeOf(e) === "finish")?.json?.messageMetadata as AnswerMetadata;
    expect(finish.sessionId).toBe("chat-route-0001");
    expect(finish.repositoryId).toBe(fx.repositoryId);
    expect(finish.mode).toBe("diagnostic");
    // One answered pass; the second found nothing new for the gap.
    expect(finish.passesUsed).toBe(1);
    expect(finish.stopReason).toBe("no-new-context");
    expect(finish.gapsIdentified).toEqual(["fraud_screen()"]);
    expect(finish.gapsResolved).toEqual([]);
    expect(finish.gapsUnresolved).toEqual(["fraud_screen()"]);
    expect(finish.budget.used).toBeGreaterThan(0);
    const passCount = new Set(events.flatMap((e) => (passOf(e) ? [passOf(e)?.pass] : []))).size;
    expect(finish.budget.perPass).toHaveLength(passCount);
    expect(finish.timings.totalMs).toBeGreaterThan(0);
    expect(finish.timings.passesMs).toHaveLength(passCount);
    expect(["high", "medium", "low"]).toContain(finish.confidence);
    expect(finish.engine).toBe("evidence");
  });

  it("is streamed, not buffered: the first parts arrive in an earlier read than the finish", () => {
    const first = events[0] as SseEvent;
    const finish = events.find((e) => typeOf(e) === "finish") as SseEvent;
    expect(first.read).toBeLessThan(finish.read);
    expect(first.at).toBeLessThan(finish.at);
    // Phases and paragraphs arrive as they are produced, over many reads.
    const pass2 = events.find((e) => passOf(e)?.pass === 2) as SseEvent;
    expect(pass2.read).toBeGreaterThan(first.read);
    expect(pass2.read).toBeLessThan(finish.read);
    expect(new Set(events.map((e) => e.read)).size).toBeGreaterThan(5);
  });

  it("stores the conversation, served by GET /api/sessions/:id", async () => {
    const res = await fetch(`${server.url}/api/sessions/chat-route-0001`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      session: { id: string; repositoryId: string };
      messages: WayfinderUIMessage[];
    };
    expect(body.session).toMatchObject({ id: "chat-route-0001", repositoryId: fx.repositoryId });
    expect(body.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    const [user, assistant] = body.messages;
    expect(user?.parts).toEqual([{ type: "text", text: QUESTION }]);
    const types = assistant?.parts.map((p) => p.type) ?? [];
    expect(types).toEqual(
      expect.arrayContaining(["data-classification", "data-pass", "text", "source-url", "data-citations"]),
    );
    // Only the final pass's answer is kept, and it is the streamed one.
    const texts = assistant?.parts.filter((p) => p.type === "text") ?? [];
    expect(texts).toHaveLength(1);
    const finish = events.find((e) => typeOf(e) === "finish")?.json?.messageMetadata as AnswerMetadata;
    expect(assistant?.metadata).toMatchObject({
      passesUsed: finish.passesUsed,
      sessionId: "chat-route-0001",
    });
  });

  it("a retry (regenerate-message) replaces the last exchange instead of storing the question twice", async () => {
    const res = await post(chatBody(QUESTION, { trigger: "regenerate-message" }));
    expect(res.status).toBe(200);
    await readSse(res);
    const stored = (await (await fetch(`${server.url}/api/sessions/chat-route-0001`)).json()) as {
      messages: WayfinderUIMessage[];
    };
    expect(stored.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("answers 404 for an unknown session", async () => {
    const res = await fetch(`${server.url}/api/sessions/no-such-session-01`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: "not_found:session" } });
  });
});

describe("bad requests are refused before streaming", () => {
  async function expectError(res: Response, status: number, code: string) {
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toContain("application/json");
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe(code);
    expect(body.error.message.length).toBeGreaterThan(0);
  }

  it("malformed JSON → 400 bad_request:json", async () => {
    await expectError(await post('{"repositoryId": "x", "messages": ['), 400, "bad_request:json");
  });

  it("missing repositoryId → 400", async () => {
    const { repositoryId: _omit, ...body } = chatBody("What does charge_card do?");
    await expectError(await post(body), 400, "bad_request:qa");
  });

  it("empty question → 400", async () => {
    await expectError(await post(chatBody("   ")), 400, "bad_request:question");
  });

  it("oversized body (> 512 KiB) → 413", async () => {
    await expectError(await post(chatBody("x".repeat(513 * 1024))), 413, "payload_too_large:body");
  });

  it("unknown repository → 404", async () => {
    await expectError(
      await post(chatBody("What does charge_card do?", { repositoryId: "no-such-repo" })),
      404,
      "not_found:repository",
    );
  });

  it("a session of another repository → 400", async () => {
    await expectError(
      await post(chatBody("What does run do?", { repositoryId: otherRepo, id: "chat-route-0001" })),
      400,
      "bad_request:session",
    );
  });
});
