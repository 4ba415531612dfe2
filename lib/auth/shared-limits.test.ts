/**
 * Two instances, one limit: a second process (what a second web instance is) counts
 * questions and wrong tokens from the same client against the same database. On
 * PostgreSQL the counts are shared (the RateLimit table): what one instance used up,
 * the other refuses, and a lock-out started by one holds on the other. On SQLite each
 * process counts on its own (documented: one process serves an embedded installation).
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FREE_FAILURES, recordTokenFailure, retryAfterMs } from "./token-throttle.ts";
import { limitEpoch } from "../db/limit-store.ts";
import { resetEnvForTests } from "../env.ts";
import { tsScriptArgs } from "../package-files.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { PEER_HEADER, peerStamp } from "./client-address.ts";
import { consumeRateLimit } from "./rate-limit.ts";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const LIMIT = 3;

let t: TempEnv;
let script: string;

beforeAll(async () => {
  t = await setupTempEnv();
  process.env.WAYFINDER_RATE_QUESTIONS = String(LIMIT);
  resetEnvForTests();
  script = path.join(t.base, "second-instance.mts");
  const lib = (file: string) => JSON.stringify(path.join(ROOT, "lib", file));
  // The second instance: its own process, module state, memory and database pool.
  fs.writeFileSync(
    script,
    [
      `import { consumeRateLimit } from ${lib("auth/rate-limit.ts")};`,
      `import { recordTokenFailure, retryAfterMs } from ${lib("auth/token-throttle.ts")};`,
      `import { forgetLimits } from ${lib("db/limit-store.ts")};`,
      `import { closeDb } from ${lib("db/client.ts")};`,
      `import { PEER_HEADER, peerStamp } from ${lib("auth/client-address.ts")};`,
      "const [peer, questions, wrong, epoch] = process.argv.slice(2);",
      "for (let i = 0; i < Number(epoch); i++) forgetLimits();",
      "const request = new Request('http://instance-2/api/qa', { headers: { [PEER_HEADER]: peerStamp(peer) } });",
      "const asked = [];",
      "for (let i = 0; i < Number(questions); i++)",
      "  asked.push(await consumeRateLimit(request, null, 'question').then(() => 'ok', (e) => e.code));",
      "for (let i = 0; i < Number(wrong); i++) await recordTokenFailure(request);",
      "const lockedMs = await retryAfterMs(request);",
      "await closeDb();",
      "console.log(JSON.stringify({ asked, lockedMs }));",
    ].join("\n"),
  );
});
afterAll(async () => {
  delete process.env.WAYFINDER_RATE_QUESTIONS;
  resetEnvForTests();
  await t?.cleanup();
});

async function secondInstance(peer: string, questions: number, wrong: number) {
  const { stdout } = await run(
    process.execPath,
    tsScriptArgs(script, [peer, String(questions), String(wrong), String(limitEpoch())], ROOT),
    { cwd: ROOT, env: { ...t.childEnv(), WAYFINDER_RATE_QUESTIONS: String(LIMIT) } },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as { asked: string[]; lockedMs: number };
}

const from = (peer: string) =>
  new Request("http://instance-1/api/qa", { headers: { [PEER_HEADER]: peerStamp(peer) } });
const ask = (peer: string) =>
  consumeRateLimit(from(peer), null, "question").then(
    () => "ok",
    (e: { code: string }) => e.code,
  );

describe("limits across two instances", () => {
  it("shares the question limit on PostgreSQL; counts per process on SQLite", async () => {
    const peer = `192.0.2.${100 + Math.floor(Math.random() * 100)}`;
    expect(await ask(peer)).toBe("ok");
    expect(await ask(peer)).toBe("ok");
    const second = await secondInstance(peer, 2, 0);
    if (t.databaseKind === "postgres") {
      expect(second.asked).toEqual(["ok", "too_many_requests:question"]);
      expect(await ask(peer)).toBe("too_many_requests:question");
    } else {
      expect(second.asked).toEqual(["ok", "ok"]);
      expect(await ask(peer)).toBe("ok");
    }
  });

  it("locks a client out on every instance once their wrong tokens together pass the free ones; per process on SQLite", async () => {
    const peer = `198.51.100.${100 + Math.floor(Math.random() * 100)}`;
    for (let i = 0; i < FREE_FAILURES - 1; i++) await recordTokenFailure(from(peer));
    const second = await secondInstance(peer, 0, 2);
    if (t.databaseKind === "postgres") {
      expect(second.lockedMs).toBeGreaterThan(0);
      expect(await retryAfterMs(from(peer))).toBeGreaterThan(0);
    } else {
      expect(second.lockedMs).toBe(0);
      expect(await retryAfterMs(from(peer))).toBe(0);
    }
  });
});
