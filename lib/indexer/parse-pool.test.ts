/**
 * Parsing in worker threads must not change what parsing returns: the pool returns
 * exactly what a serial parse returns, in order. No file fails a batch: one that cannot
 * be parsed, exhausts a worker's heap or keeps a worker busy past its budget is indexed
 * as text with the reason, and a stopped worker is replaced. (A whole build with
 * workers against one without: build-parallel.test.ts.)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeSource, fixtureFiles, FIXTURES } from "../../test-support/parse-fixtures.ts";
import type { SourceFile } from "./parse-file.ts";
import { createParsePool, workerHeapLimitMb } from "./parse-pool.ts";

let scratch: string;
beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "wayfinder-parse-pool-"));
});
afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("the parse pool", () => {
  it("returns what a serial parse returns, in the order given", { timeout: 60_000 }, async () => {
    const files = fixtureFiles();
    const serial = createParsePool({ threads: 0 });
    const workers = createParsePool({ threads: 2 });
    try {
      const [a, b] = await Promise.all([serial.parse(files), workers.parse(files)]);
      expect(workers.threadsStarted).toBe(2);
      expect(serial.threadsStarted).toBe(0);
      expect(b.map((p) => p.file.path)).toEqual(files.map((f) => f.path));
      expect(b).toEqual(a);
      expect(a.some((p) => p.symbols.length > 0)).toBe(true);
    } finally {
      await Promise.all([serial.close(), workers.close()]);
    }
  });

  it(
    "parses a file of the largest size discovery hands over within a worker's capped heap",
    { timeout: 60_000 },
    async () => {
      // About 1 MiB of Python: a few thousand documented functions, each calling the one before.
      const doc = "Adds the step's number to what the step before returns. ".repeat(5);
      const lines: string[] = [];
      for (let i = 0, size = 0; size < 1024 * 1024 - 600; i++) {
        const fn = [
          `def step_${i}(value):`,
          `    """${doc}"""`,
          `    return step_${Math.max(0, i - 1)}(value) + ${i}`,
          "",
        ];
        lines.push(...fn);
        size += fn.join("\n").length + 1;
      }
      const content = lines.join("\n");
      const file = codeSource("big/generated.py", content, "python");
      expect(file.size).toBeLessThanOrEqual(1024 * 1024);
      const serial = createParsePool({ threads: 0 });
      const workers = createParsePool({ threads: 1, maxFileBytes: 1024 * 1024 });
      try {
        const [[a], [b]] = await Promise.all([serial.parse([file]), workers.parse([file])]);
        expect(workers.threadsStarted).toBe(1);
        expect(a?.symbols.length).toBeGreaterThan(2500);
        expect(b).toEqual(a);
      } finally {
        await Promise.all([serial.close(), workers.close()]);
      }
    },
  );

  it("caps a worker's heap in proportion to the largest file it may be handed", () => {
    expect(workerHeapLimitMb()).toBe(192);
    expect(workerHeapLimitMb(64 * 1024 * 1024)).toBeGreaterThan(64 * 8);
  });

  it("parses small batches in the calling thread until there is enough to share", async () => {
    const pool = createParsePool({ threads: 2, serialUpTo: 5 });
    try {
      await pool.parse(fixtureFiles().slice(0, 3));
      expect(pool.threadsStarted).toBe(0);
      await pool.parse(fixtureFiles().slice(0, 3));
      expect(pool.threadsStarted).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it("keeps a worker parsing queued files while the calling thread is busy", async () => {
    // A parse entry that only notes when each file's parse began.
    const entry = path.join(scratch, "timestamp-entry.mjs");
    fs.writeFileSync(
      entry,
      "export async function parseFile(file) { return { file: { path: file.path }, startedAt: Date.now() }; }\n",
    );
    const pool = createParsePool({ threads: 1, workerEntry: entry });
    try {
      const files = fixtureFiles().slice(0, 6);
      await pool.parse(files.slice(0, 1)); // the worker is up
      const parsing = pool.parse(files);
      // The build's thread reads and writes synchronously; block it as such work would.
      const blockedUntil = Date.now() + 1_000;
      while (Date.now() < blockedUntil) {
        // busy
      }
      const started = (await parsing).map((p) => (p as unknown as { startedAt: number }).startedAt);
      // Every file began while this thread was blocked: none waited for it to hand the next one over.
      expect(started.filter((at) => at >= blockedUntil)).toEqual([]);
    } finally {
      await pool.close();
    }
  });

  it(
    "parses in the calling thread when its workers cannot load the parse entry",
    { timeout: 60_000 },
    async () => {
      const files = fixtureFiles().slice(0, 4);
      const pool = createParsePool({
        threads: 2,
        workerEntry: path.join(FIXTURES, "python", "user_service.py"),
      });
      try {
        const parsed = await pool.parse(files);
        expect(parsed.map((p) => p.file.path)).toEqual(files.map((f) => f.path));
        expect(pool.threadsStarted).toBe(0);
        expect(await pool.parse(files)).toEqual(parsed);
      } finally {
        await pool.close();
      }
    },
  );

  it(
    "indexes a file it cannot parse as text, with the reason, in both modes",
    { timeout: 60_000 },
    async () => {
      const bad: SourceFile = { ...(fixtureFiles()[0] as SourceFile), path: "odd.cob", language: "cobol" };
      for (const threads of [0, 1]) {
        const pool = createParsePool({ threads });
        try {
          const [parsed] = await pool.parse([bad]);
          expect(parsed?.file.unparsed).toMatch(/^error: /);
          expect(parsed?.symbols).toEqual([]);
          expect(parsed?.chunks.length).toBeGreaterThan(0);
        } finally {
          await pool.close();
        }
      }
    },
  );

  it(
    "replaces a worker whose heap a file exhausts; that file is indexed as text, the others parse",
    { timeout: 60_000 },
    async () => {
      // The real parse entry, except that one file makes the worker allocate until its heap is gone.
      const entry = path.join(scratch, "hog-entry.mjs");
      const real = path.resolve("lib/indexer/parse-file.ts");
      fs.writeFileSync(
        entry,
        `import * as real from ${JSON.stringify(real)};
const parse = real.parseFile ?? real.default.parseFile;
export async function parseFile(file, options) {
  if (file.path === "hog.py") { const hog = []; for (;;) hog.push(new Array(1e6).fill(file.size)); }
  return parse(file, options);
}
`,
      );
      const files = fixtureFiles().slice(0, 6);
      const hog = { ...(files[0] as SourceFile), path: "hog.py" };
      const batch = [...files.slice(0, 3), hog, ...files.slice(3)];
      const serial = createParsePool({ threads: 0 });
      const pool = createParsePool({ threads: 1, workerEntry: entry });
      try {
        const [expected, parsed] = await Promise.all([serial.parse(files), pool.parse(batch)]);
        expect(parsed.map((p) => p.file.path)).toEqual(batch.map((f) => f.path));
        const [hogged] = parsed.splice(3, 1);
        expect(hogged?.file.unparsed).toBe("memory: the worker's 192 MB heap ran out");
        expect(hogged?.symbols).toEqual([]);
        expect(parsed).toEqual(expected);
        expect(pool.workersReplaced).toBe(1);
        // The replacement keeps parsing.
        expect(await pool.parse(files.slice(0, 2))).toEqual(expected.slice(0, 2));
      } finally {
        await Promise.all([serial.close(), pool.close()]);
      }
    },
  );

  it(
    "indexes a file whose parse throws as text, and a worker that crashes on a file is replaced",
    { timeout: 60_000 },
    async () => {
      // The real parse entry, except that one file throws and another crashes the worker
      // with an error nothing catches.
      const entry = path.join(scratch, "throwing-entry.mjs");
      const real = path.resolve("lib/indexer/parse-file.ts");
      fs.writeFileSync(
        entry,
        `import * as real from ${JSON.stringify(real)};
const parse = real.parseFile ?? real.default.parseFile;
export async function parseFile(file, options) {
  if (file.path === "throws.py") throw new RangeError("Maximum call stack size exceeded");
  if (file.path === "crash.py") {
    setTimeout(() => { throw new Error("grammar aborted"); });
    return new Promise(() => {});
  }
  return parse(file, options);
}
`,
      );
      const files = fixtureFiles().slice(0, 4);
      const throws = { ...(files[0] as SourceFile), path: "throws.py" };
      const crash = { ...(files[0] as SourceFile), path: "crash.py" };
      const batch = [files[0], throws, files[1], crash, ...files.slice(2)] as SourceFile[];
      const serial = createParsePool({ threads: 0 });
      const pool = createParsePool({ threads: 1, workerEntry: entry });
      try {
        const [expected, parsed] = await Promise.all([serial.parse(files), pool.parse(batch)]);
        expect(parsed.map((p) => p.file.path)).toEqual(batch.map((f) => f.path));
        expect(parsed[1]?.file.unparsed).toBe("error: Maximum call stack size exceeded");
        expect(parsed[3]?.file.unparsed).toBe("error: the parse worker stopped: grammar aborted");
        for (const i of [1, 3]) {
          expect(parsed[i]?.symbols).toEqual([]);
          expect(parsed[i]?.chunks.length).toBeGreaterThan(0);
        }
        expect([parsed[0], parsed[2], parsed[4], parsed[5]]).toEqual(expected);
        // A throw is answered by the worker itself; only the crash cost a worker.
        expect(pool.workersReplaced).toBe(1);
      } finally {
        await Promise.all([serial.close(), pool.close()]);
      }
    },
  );

  it("replaces a worker stuck on one file past its budget", { timeout: 60_000 }, async () => {
    const entry = path.join(scratch, "stuck-entry.mjs");
    fs.writeFileSync(
      entry,
      `export async function parseFile(file) {
  if (file.path === "stuck.py") for (;;) {}
  return { file: { path: file.path, unparsed: null }, content: "", symbols: [], chunks: [] };
}
`,
    );
    const files = fixtureFiles().slice(0, 3);
    const stuck = { ...(files[0] as SourceFile), path: "stuck.py" };
    const pool = createParsePool({
      threads: 1,
      workerEntry: entry,
      budget: { baseSeconds: 0.5, secondsPerMb: 0 },
    });
    try {
      const parsed = await pool.parse([stuck, ...files]);
      expect(parsed[0]?.file.unparsed).toBe("timeout: over 1.5 s");
      expect(parsed.slice(1).map((p) => p.file.path)).toEqual(files.map((f) => f.path));
      expect(pool.workersReplaced).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it(
    "does not count a worker's slow start against the first file's budget",
    { timeout: 60_000 },
    async () => {
      // The entry takes longer to load than the watchdog's limit for a file (1.5 s here), as
      // loading modules and grammars can on a busy machine: no file may time out for it.
      const entry = path.join(scratch, "slow-start-entry.mjs");
      fs.writeFileSync(
        entry,
        `await new Promise((resolve) => setTimeout(resolve, 3000));
export async function parseFile(file) {
  return { file: { path: file.path, unparsed: null }, content: "", symbols: [], chunks: [] };
}
`,
      );
      const files = fixtureFiles().slice(0, 2);
      const pool = createParsePool({
        threads: 1,
        workerEntry: entry,
        budget: { baseSeconds: 0.5, secondsPerMb: 0 },
      });
      try {
        const parsed = await pool.parse(files);
        expect(parsed.map((p) => p.file.unparsed)).toEqual([null, null]);
        expect(pool.workersReplaced).toBe(0);
      } finally {
        await pool.close();
      }
    },
  );
});
