/**
 * Per-client rate limits (429 with Retry-After, nothing done) on questions and builds,
 * through the real routes; and the request log line, which names the route, status,
 * caller and the address limits counted (never a forged X-Forwarded-For) but never the
 * question, the query string or a token.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as ask } from "@/app/api/qa/route";
import { POST as reindex } from "@/app/api/repos/[id]/index/route";
import { listGenerations } from "@/lib/db/generations";
import { resetEnvForTests } from "@/lib/env";
import { indexFixture, setupQaHome, type IndexedFixture } from "@/test-support/qa-env";
import { PEER_HEADER, peerStamp } from "./client-address";
import { resetRateLimits } from "./rate-limit";
import { requestLogLine } from "./request-log";

let fx: IndexedFixture;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-limits-"));
  fx = await indexFixture();
  process.env.WAYFINDER_RATE_QUESTIONS = "2";
  process.env.WAYFINDER_RATE_BUILDS = "1";
  process.env.WAYFINDER_INDEX_WORKER = "external";
  resetEnvForTests();
  resetRateLimits();
});
afterAll(async () => {
  process.env.WAYFINDER_RATE_QUESTIONS = "100000";
  process.env.WAYFINDER_RATE_BUILDS = "100000";
  delete process.env.WAYFINDER_INDEX_WORKER;
  resetEnvForTests();
  await cleanup();
});

/** Asks and reads the whole answer (a stream left unread would run on past the test). */
const question = async (client: string, text = "Where are order totals computed?") => {
  const response = await ask(
    new Request("http://localhost/api/qa", {
      method: "POST",
      headers: { "content-type": "application/json", [PEER_HEADER]: peerStamp(client) },
      body: JSON.stringify({
        id: `limits-${Math.random().toString(36).slice(2, 10)}`,
        messages: [{ id: "m1", role: "user", parts: [{ type: "text", text }] }],
        trigger: "submit-message",
        repositoryId: fx.repositoryId,
      }),
    }),
  );
  return { status: response.status, headers: response.headers, body: await response.text() };
};

describe("rate limits", () => {
  it("answers a client's third question in a minute with 429 and Retry-After; other clients go on", async () => {
    expect((await question("198.51.100.10")).status).toBe(200);
    expect((await question("198.51.100.10")).status).toBe(200);
    const limited = await question("198.51.100.10");
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((JSON.parse(limited.body) as { error: { code: string } }).error.code).toBe(
      "too_many_requests:question",
    );
    expect((await question("198.51.100.11")).status).toBe(200);
  });

  it("limits index builds per hour, and a refused build queues nothing", async () => {
    const build = () =>
      reindex(
        new Request(`http://localhost/api/repos/${fx.repositoryId}/index`, {
          method: "POST",
          headers: { [PEER_HEADER]: peerStamp("198.51.100.20") },
        }),
        { params: Promise.resolve({ id: fx.repositoryId }) },
      );
    expect((await build()).status).toBe(202);
    const before = (await listGenerations(fx.repositoryId, 10)).length;
    const limited = await build();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(60);
    expect((await listGenerations(fx.repositoryId, 10)).length).toBe(before);
  });
});

describe("request log", () => {
  it("writes one line per API call without the question, the query string or the token", async () => {
    process.env.WAYFINDER_LOG_LEVEL = "info";
    resetEnvForTests();
    const lines: string[] = [];
    const spy = vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
    try {
      await question("198.51.100.30", "Why does SECRET-QUESTION-TEXT fail?");
    } finally {
      spy.mockRestore();
      process.env.WAYFINDER_LOG_LEVEL = "warn";
      resetEnvForTests();
    }
    const api = lines.filter((l) => l.includes("[wayfinder] api "));
    expect(api).toHaveLength(1);
    expect(api[0]).toMatch(
      /^\[wayfinder\] api POST \/api\/qa 200 \d+ms who=reader\/open client=198\.51\.100\.30$/,
    );
    expect(lines.join("\n")).not.toContain("SECRET-QUESTION-TEXT");

    const line = requestLogLine(
      new Request("http://localhost/api/repos/x/wiki?slug=private-term", {
        headers: {
          authorization: "Bearer tok-0123456789abcdef",
          [PEER_HEADER]: peerStamp("203.0.113.1"),
          "x-forwarded-for": "198.51.100.99",
        },
      }),
      401,
      3.2,
      null,
    );
    expect(line).toBe("[wayfinder] api GET /api/repos/x/wiki 401 3ms who=- client=203.0.113.1");
  });
});
