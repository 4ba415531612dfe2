/**
 * What an answer cites: the function that answers, not the file that holds it; one
 * citation per stretch of a file; snippets that show the lines that matched. Asked
 * offline (the evidence engine) over a small repository indexed by the real indexer.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EvidenceEngine } from "../answerers/evidence-engine.ts";
import { indexFixture, setupQaHome, type IndexedFixture } from "../../test-support/qa-env.ts";
import { askQuestion } from "./ask.ts";
import type { QueryMode } from "./types.ts";
import { mergeOverlapping } from "./citations.ts";
import { claimsOf } from "./claims.ts";
import type { CitationPart } from "./types.ts";

const RETRIER = `# frozen_string_literal: true

require "json"

module Jobs
  # Runs jobs and retries the ones that fail.
  class Retrier
    DEFAULT_MAX_RETRIES = 25

    def initialize(options = {})
      @max_retries = options.fetch(:max_retries, DEFAULT_MAX_RETRIES)
      @logger = options[:logger]
    end

    def run(job)
      job.perform
    rescue StandardError => e
      attempt_retry(job, e)
    end

    # Decides whether a failed job is retried, and schedules the next attempt.
    def attempt_retry(job, error)
      count = job.retry_count + 1
      if count > @max_retries
        @logger&.warn("job #{job.id} exhausted its retries")
        return :dead
      end
      job.schedule_in(delay_for(count))
    end

    # How long to wait before the next attempt: exponential backoff with jitter.
    def delay_for(count)
      (count**4) + 15 + (rand(10) * (count + 1))
    end

    def describe(job)
      "Retrier(#{job.id})"
    end

    def to_json(*)
      JSON.generate(max_retries: @max_retries)
    end

    def inspect
      "#<Jobs::Retrier max_retries=#{@max_retries}>"
    end
  end
end
`;

const CONFIG = `# Worker settings
concurrency: 10
queues:
  - default
  - mailers

# Failed jobs
retry:
  max_attempts: 25
  backoff: exponential
  wait_seconds: 15

logging:
  level: info
`;

let fx: IndexedFixture;
let cleanup: () => Promise<void>;
let repoDir: string;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-cited-spans-"));
  repoDir = mkdtempSync(path.join(os.tmpdir(), "wf-jobs-"));
  mkdirSync(path.join(repoDir, "lib/jobs"), { recursive: true });
  mkdirSync(path.join(repoDir, "config"), { recursive: true });
  writeFileSync(path.join(repoDir, "lib/jobs/retrier.rb"), RETRIER);
  writeFileSync(path.join(repoDir, "config/worker.yml"), CONFIG);
  fx = await indexFixture(repoDir, "jobs");
});
afterAll(async () => {
  await cleanup();
  rmSync(repoDir, { recursive: true, force: true });
});

async function ask(question: string, mode: QueryMode) {
  const result = await askQuestion(
    { repository: fx.repositoryId, question, overrides: { mode } },
    { write: () => undefined },
    { model: null, answerer: new EvidenceEngine(), ephemeral: true },
  );
  return result.citations.filter((c) => c.verified);
}

const RETRIER_LINES = RETRIER.split("\n").length - 1;
const line = (text: string) => RETRIER.split("\n").findIndex((l) => l.includes(text)) + 1;

describe("cited spans", () => {
  it("cites the function that computes the wait, never the whole file, and shows its lines", async () => {
    const citations = await ask(
      "How does it decide when a failed job is retried and how long it waits?",
      "conceptual",
    );
    const retrier = citations.filter((c) => c.path === "lib/jobs/retrier.rb");
    expect(retrier.length).toBeGreaterThan(0);
    const defs = RETRIER.split("\n").flatMap((l, i) => (/^\s+def /.test(l) ? [i + 1] : []));
    for (const c of retrier) {
      expect(c.endLine - c.startLine + 1).toBeLessThan(RETRIER_LINES);
      expect(c.snippet?.startsWith("# frozen_string_literal")).toBe(false);
      // One function: not the class or module around several of them.
      expect(defs.filter((d) => d >= c.startLine && d <= c.endLine).length).toBeLessThanOrEqual(1);
    }
    const delay = line("def delay_for");
    expect(retrier.some((c) => c.startLine <= delay && c.endLine >= delay + 2)).toBe(true);
  });

  it("cites the raise site of a quoted message at its function", async () => {
    const citations = await ask('Jobs stop with "exhausted its retries" after a few failures', "diagnostic");
    const site = line("exhausted its retries");
    const cited = citations.find(
      (c) => c.path === "lib/jobs/retrier.rb" && c.startLine <= site && c.endLine >= site,
    );
    expect(cited).toBeDefined();
    expect(cited?.startLine).toBeGreaterThan(1);
    expect(cited?.snippet).toContain("exhausted its retries");
  });

  it("lists one citation per stretch of a file", async () => {
    for (const [question, mode] of [
      ["How does it decide when a failed job is retried and how long it waits?", "conceptual"],
      ['Jobs stop with "exhausted its retries"', "diagnostic"],
    ] as const) {
      const citations = await ask(question, mode);
      for (const a of citations)
        for (const b of citations)
          if (a !== b && a.path === b.path)
            expect(a.endLine < b.startLine - 1 || b.endLine < a.startLine - 1).toBe(true);
    }
  });
});

describe("mergeOverlapping", () => {
  const at = (path: string, startLine: number, endLine: number, symbol: string | null, verified = true) => ({
    path,
    startLine,
    endLine,
    symbol,
    verified,
  });
  const key = (path: string, start: number, end: number) => `${path}:${start}-${end}`;

  it("merges overlapping and touching citations of one file, keeping a symbol that holds them all", () => {
    const spans = [
      { qualifiedId: "a.rb::A", startLine: 6, endLine: 55 },
      { qualifiedId: "a.rb::A.run", startLine: 15, endLine: 19 },
    ];
    const symbolsAt = (_p: string, start: number, end: number) =>
      spans.filter((s) => s.startLine <= end && s.endLine >= start);
    const merged = mergeOverlapping(
      [at("a.rb", 15, 19, "a.rb::A.run"), at("b.rb", 1, 4, null), at("a.rb", 6, 55, "a.rb::A")],
      symbolsAt,
    );
    expect(merged).toEqual([
      { ...at("a.rb", 6, 55, "a.rb::A"), alsoCites: [key("a.rb", 15, 19), key("a.rb", 6, 55)] },
      { ...at("b.rb", 1, 4, null), alsoCites: [key("b.rb", 1, 4)] },
    ]);
    // A citation past the class's last line: the stretch is no one symbol's.
    const longer = mergeOverlapping([...merged, at("a.rb", 56, 60, null)], symbolsAt);
    expect(longer[0]).toMatchObject({ startLine: 6, endLine: 60, symbol: null });
  });

  it("makes a stretch that took in a whole-file citation the whole file, named by no symbol", () => {
    const merged = mergeOverlapping([
      at("a.rb", 20, 22, "a.rb::A.clear"),
      { ...at("a.rb", 1, 22, null), wholeFile: true },
    ]);
    expect(merged).toEqual([
      {
        ...at("a.rb", 1, 22, null),
        wholeFile: true,
        alsoCites: [key("a.rb", 20, 22), key("a.rb", 1, 22)],
      },
    ]);
  });

  it("joins entries that a later citation bridges", () => {
    const merged = mergeOverlapping([
      at("a.rb", 1, 5, null),
      at("a.rb", 10, 15, null),
      at("a.rb", 4, 11, null),
    ]);
    expect(merged).toEqual([
      { ...at("a.rb", 1, 15, null), alsoCites: [key("a.rb", 1, 5), key("a.rb", 10, 15), key("a.rb", 4, 11)] },
    ]);
  });

  it("keeps apart what does not overlap, and every unverified citation", () => {
    const list = [at("a.rb", 1, 4, null), at("a.rb", 10, 12, null), at("a.rb", 2, 3, null, false)];
    expect(mergeOverlapping(list)).toEqual(
      list.map((c) => ({ ...c, alsoCites: [key(c.path, c.startLine, c.endLine)] })),
    );
  });
});

describe("claims of merged citations", () => {
  const part = (raw: string, startLine: number, endLine: number, alsoCites?: string[]): CitationPart => ({
    raw,
    path: "a.rb",
    startLine,
    endLine,
    verified: true,
    reason: null,
    symbol: null,
    snippet: "x",
    language: "ruby",
    ...(alsoCites ? { alsoCites } : {}),
  });

  it("find the entry that took a citation in", () => {
    const merged = part("a.rb:6-55", 6, 60, ["a.rb:6-55", "a.rb:15-19", "a.rb:56-60"]);
    const answer = "- `A` holds it (a.rb:6-55).\n- `A.run` does the work (a.rb:15-19).";
    const claims = claimsOf(answer, [merged]);
    expect(claims.map((c) => c.citations[0]?.raw)).toEqual(["a.rb:6-55", "a.rb:6-55"]);
  });
});
