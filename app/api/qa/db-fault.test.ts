/**
 * The database disappears while a question streams through the real /api/qa handler
 * (node:http on 127.0.0.1, the shop fixture indexed by the real indexer). For the
 * embedded SQLite store, "disappears" means what an operator or a failing volume can
 * do to it: the client is closed and the database file is moved away, with something
 * unopenable left at its path, so every reconnect fails. On PostgreSQL
 * (WAYFINDER_TEST_PG_URL), the database stops accepting connections and its open
 * backends are terminated. The only double is the
 * language model, scripted so the answer pauses mid-stream while the fault happens.
 *
 * The stream must end with a clear error part (the text the chat shows), nothing may
 * crash or reject unhandled, and once the file is back every stored session and
 * message is intact, with the interrupted exchange stored completely or not at all.
 */
import fs from "node:fs";
import path from "node:path";
import { createParser } from "eventsource-parser";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeDb } from "@/lib/db/client";
import type { WayfinderUIMessage } from "@/lib/qa/types";
import { indexFixture, setupQaHome, type IndexedFixture } from "@/test-support/qa-env";
import { tagged, textStreamParts } from "@/test-support/qa-model";
import { startServer, type TestServer } from "@/test-support/qa-http";
import { GET as getSession } from "../sessions/[id]/route";
import { POST } from "./route";

/** The scripted model: answers at once, or, when a pause is armed, stops mid-answer until released. */
const gate = vi.hoisted(() => ({
  armed: false,
  reached: null as null | (() => void),
  release: null as null | (() => void),
}));

vi.mock("@/lib/answerers/providers", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/answerers/providers")>();
  return {
    ...original,
    createLanguageModel: () => ({ model: gatedModel(), label: "mock:gated", timeoutMs: 60_000 }),
  };
});

function gatedModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: "mock",
    modelId: "gated",
    doStream: async () => {
      const reply = tagged("Orders are placed by `place_order` in shop/orders.py:1-5.", "NONE");
      const parts = textStreamParts([reply.slice(0, 40), reply.slice(40)]);
      if (!gate.armed) {
        return {
          stream: simulateReadableStream({ chunks: parts, initialDelayInMs: null, chunkDelayInMs: null }),
        };
      }
      const stream = new ReadableStream({
        async start(controller) {
          for (const p of parts.slice(0, 3)) controller.enqueue(p);
          await new Promise<void>((resolve) => {
            gate.release = resolve;
            gate.reached?.();
          });
          for (const p of parts.slice(3)) controller.enqueue(p);
          controller.close();
        },
      });
      return { stream };
    },
    doGenerate: async () => {
      throw new Error("gated model: no generate reply");
    },
  });
}

let fx: IndexedFixture;
let server: TestServer;
let home: string;
let cleanup: () => Promise<void>;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  ({ home, cleanup } = await setupQaHome("wf-dbfault-"));
  fx = await indexFixture();
  process.on("unhandledRejection", onUnhandled);
  server = await startServer(async (request, url) => {
    if (url.pathname === "/api/qa" && request.method === "POST") return POST(request);
    const session = /^\/api\/sessions\/([^/]+)$/.exec(url.pathname);
    if (session?.[1]) return getSession(request, { params: Promise.resolve({ id: session[1] }) });
    return new Response("not found", { status: 404 });
  });
});
afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  await server?.close();
  await cleanup?.();
});

const SESSION = "db-fault-session-01";

function ask(text: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${server.url}/api/qa`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      id: SESSION,
      messages: [{ id: `m-${text.length}`, role: "user", parts: [{ type: "text", text }] }],
      trigger: "submit-message",
      repositoryId: fx.repositoryId,
      options: { mode: "conceptual", maxPasses: 1 },
    }),
    signal,
  });
}

/** Reads UI message parts until the stream ends; `onPart` may act mid-stream. */
async function readParts(
  response: Response,
  onPart?: (part: Record<string, unknown>) => Promise<void> | void,
): Promise<Record<string, unknown>[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const parts: Record<string, unknown>[] = [];
  const pending: string[] = [];
  const parser = createParser({ onEvent: ({ data }) => pending.push(data) });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return parts;
    parser.feed(value);
    for (const data of pending.splice(0)) {
      if (data === "[DONE]") continue;
      const part = JSON.parse(data) as Record<string, unknown>;
      parts.push(part);
      await onPart?.(part);
    }
  }
}

async function storedConversation(): Promise<WayfinderUIMessage[]> {
  const response = await fetch(`${server.url}/api/sessions/${SESSION}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { messages: WayfinderUIMessage[] }).messages;
}

const dbFile = () => path.join(home, "wayfinder.db");
const movedAside = () => path.join(home, "moved-away");

/** PostgreSQL runs (WAYFINDER_TEST_PG_URL): the database of this test file and the server's admin URL. */
function postgresTarget(): { admin: string; database: string } | null {
  const url = process.env.DATABASE_URL;
  const admin = process.env.WAYFINDER_TEST_PG_URL;
  if (!url || !admin || !/^postgres(ql)?:\/\//.test(url)) return null;
  const database = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!/^[a-z0-9_]+$/.test(database)) throw new Error(`unexpected database name ${database}`);
  return { admin, database };
}

async function asAdmin(admin: string, sql: string[]): Promise<void> {
  const { withAdmin } = await import("@/test-support/pg-test-db");
  await withAdmin(admin, async (client) => {
    for (const statement of sql) await client.query(statement);
  });
}

/**
 * SQLite: closes the client and moves the file away, leaving a folder where it was.
 * PostgreSQL: refuses new connections to the database and terminates the open ones.
 */
async function takeDatabaseAway(): Promise<void> {
  const pg = postgresTarget();
  if (pg) {
    await asAdmin(pg.admin, [
      `ALTER DATABASE ${pg.database} WITH ALLOW_CONNECTIONS false`,
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${pg.database}' AND pid <> pg_backend_pid()`,
    ]);
    return;
  }
  await closeDb();
  fs.mkdirSync(movedAside());
  for (const f of fs.readdirSync(home).filter((f) => f.startsWith("wayfinder.db"))) {
    fs.renameSync(path.join(home, f), path.join(movedAside(), f));
  }
  fs.mkdirSync(dbFile());
}

async function bringDatabaseBack(): Promise<void> {
  const pg = postgresTarget();
  if (pg) {
    await asAdmin(pg.admin, [`ALTER DATABASE ${pg.database} WITH ALLOW_CONNECTIONS true`]);
    return;
  }
  await closeDb();
  fs.rmSync(dbFile(), { recursive: true });
  for (const f of fs.readdirSync(movedAside())) fs.renameSync(path.join(movedAside(), f), path.join(home, f));
  fs.rmdirSync(movedAside());
}

function assertWholeExchanges(messages: WayfinderUIMessage[]): void {
  expect(messages.length % 2).toBe(0);
  messages.forEach((m, i) => {
    expect(m.role).toBe(i % 2 === 0 ? "user" : "assistant");
    if (m.role === "assistant") {
      const text = m.parts.find((p) => p.type === "text");
      expect(text && "text" in text ? text.text : "").toContain("place_order");
    }
  });
}

describe("/api/qa when the database disappears mid-question", () => {
  it(
    "ends the stream with a clear error and loses no stored conversation",
    { timeout: 120_000 },
    async () => {
      // Two complete exchanges are stored first.
      for (const q of ["How are orders placed?", "And where does placing an order start?"]) {
        const parts = await readParts(await ask(q));
        expect(parts.at(-1)?.type).toBe("finish");
      }
      const before = await storedConversation();
      expect(before.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);

      gate.armed = true;
      const paused = new Promise<void>((resolve) => (gate.reached = resolve));
      const response = await ask("What does placing an order write?");
      expect(response.status).toBe(200);
      let tookAway = false;
      const parts = await readParts(response, async (part) => {
        // The answer has begun streaming: now the database goes away, then the model continues.
        if (part.type === "text-delta" && !tookAway) {
          tookAway = true;
          await paused;
          await takeDatabaseAway();
          gate.release?.();
        }
      });
      gate.armed = false;
      expect(tookAway).toBe(true);
      expect(parts.some((p) => p.type === "text-delta")).toBe(true);
      expect(parts.some((p) => p.type === "finish")).toBe(false);
      const last = parts.at(-1);
      expect(last?.type).toBe("error");
      expect(String(last?.errorText)).toMatch(/database is unavailable/i);
      expect(String(last?.errorText)).not.toMatch(/prisma|sqlite|libsql|invocation/i);

      // While it is gone, a new question is refused up front with the same clear message.
      const refused = await ask("Is anything there?");
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({
        error: { code: "unavailable:database", message: last?.errorText },
      });

      await bringDatabaseBack();
      const after = await storedConversation();
      // Earlier exchanges are untouched; the interrupted one is whole or absent, never half.
      expect(after.slice(0, before.length)).toEqual(before);
      expect([before.length, before.length + 2]).toContain(after.length);
      assertWholeExchanges(after);

      // The conversation continues normally.
      const resumed = await readParts(await ask("How are orders placed now?"));
      expect(resumed.at(-1)?.type).toBe("finish");
      assertWholeExchanges(await storedConversation());
      expect(unhandled).toEqual([]);
    },
  );

  it(
    "stores a whole exchange or none when the client disconnects mid-answer",
    { timeout: 120_000 },
    async () => {
      const before = await storedConversation();
      gate.armed = true;
      const paused = new Promise<void>((resolve) => (gate.reached = resolve));
      const abort = new AbortController();
      const response = await ask("Which function validates an order?", abort.signal);
      await readParts(response, async (part) => {
        if (part.type === "text-delta") {
          await paused;
          abort.abort();
        }
      }).catch((error: unknown) => {
        expect((error as Error).name).toBe("AbortError");
      });
      gate.armed = false;
      gate.release?.();
      // Give the server time to finish (or abandon) the exchange, then check what it stored.
      let after = await storedConversation();
      for (let i = 0; i < 40 && after.length === before.length; i++) {
        await new Promise((r) => setTimeout(r, 50));
        after = await storedConversation();
      }
      expect(after.slice(0, before.length)).toEqual(before);
      expect([before.length, before.length + 2]).toContain(after.length);
      assertWholeExchanges(after);
      expect(unhandled).toEqual([]);
    },
  );
});
