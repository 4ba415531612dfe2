/**
 * Parsing in worker threads must not change the index: the pool returns exactly what
 * a serial parse returns, in order, and a repository built with workers stores the
 * same rows in the same order as one built in a single thread. A file that cannot be
 * parsed fails its batch with an error that names it, in both modes.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client.ts";
import { snapshotOf, visibleIn } from "../db/snapshot.ts";
import { setupTempEnv, type TempEnv } from "../test-support/temp-env.ts";
import { indexRepository } from "./build.ts";
import { countLines, hashContent } from "./discover.ts";
import type { SourceFile } from "./parse-file.ts";
import { createParsePool, workerHeapLimitMb } from "./parse-pool.ts";
import { languageForFile } from "./parser.ts";

let t: TempEnv;
beforeAll(async () => {
  t = await setupTempEnv();
});
afterAll(async () => {
  await t?.cleanup();
});

const FIXTURES = path.join(__dirname, "__fixtures__");

/** Every fixture (malformed ones included), as discovery hands files over. */
function fixtureFiles(): SourceFile[] {
  const out: SourceFile[] = [];
  for (const dir of fs.readdirSync(FIXTURES).sort()) {
    if (!fs.statSync(path.join(FIXTURES, dir)).isDirectory()) continue;
    for (const name of fs.readdirSync(path.join(FIXTURES, dir)).sort()) {
      const content = fs.readFileSync(path.join(FIXTURES, dir, name), "utf8");
      out.push({
        path: `${dir}/${name}`,
        language: languageForFile(name, content) ?? "text",
        kind: "code",
        content,
        hash: hashContent(content),
        size: content.length,
        lines: countLines(content),
        mtimeNs: null,
      });
    }
  }
  out.push({
    path: "README.md",
    language: "markdown",
    kind: "text",
    content: "# Fixtures\n\nText.\n",
    hash: "h",
    size: 19,
    lines: 3,
    mtimeNs: null,
  });
  return out;
}

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
      const file: SourceFile = {
        path: "big/generated.py",
        language: "python",
        kind: "code",
        content,
        hash: hashContent(content),
        size: Buffer.byteLength(content),
        lines: countLines(content),
        mtimeNs: null,
      };
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
    const entry = path.join(t.home, "timestamp-entry.mjs");
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

  it("fails a batch with an error naming the file it could not parse", { timeout: 60_000 }, async () => {
    const bad: SourceFile = { ...(fixtureFiles()[0] as SourceFile), path: "odd.cob", language: "cobol" };
    for (const threads of [0, 1]) {
      const pool = createParsePool({ threads });
      try {
        await expect(pool.parse([bad])).rejects.toThrow(threads ? /odd\.cob/ : /./);
      } finally {
        await pool.close();
      }
    }
  });
});

describe("a build with parse workers", () => {
  it(
    "stores the same rows, in the same order, as a single-threaded build",
    { timeout: 120_000 },
    async () => {
      const tree: Record<string, string> = {};
      for (const f of fixtureFiles()) tree[f.path] = f.content;
      // Enough files for several batches.
      for (let i = 0; i < 150; i++)
        tree[`gen/mod_${i}.py`] =
          `def f${i}(x):\n    return g${i % 7}(x)\n\n\ndef g${i % 7}(y):\n    return y\n`;
      const serialRoot = t.makeRepo(tree, "serial");
      const parallelRoot = t.makeRepo(tree, "parallel");
      const serial = await indexRepository(serialRoot, { name: "serial", parseThreads: 0, wikiModel: null });
      const parallel = await indexRepository(parallelRoot, {
        name: "parallel",
        parseThreads: 2,
        wikiModel: null,
      });
      expect(serial.stats.parseThreads).toBe(0);
      expect(parallel.stats.parseThreads).toBe(2);
      const client = await db();
      const rows = async (generationId: string) => {
        const where = visibleIn(await snapshotOf(generationId));
        const omit = { id: true, repositoryId: true, fromGeneration: true, toGeneration: true } as const;
        return {
          // The modification time is the stat cache's, not content: the two trees were
          // written at different moments, and a time too close to the read is not kept.
          files: await client.file.findMany({
            where,
            omit: { ...omit, mtimeNs: true },
            orderBy: { id: "asc" },
          }),
          symbols: await client.symbol.findMany({
            where,
            omit: { ...omit, fileId: true },
            orderBy: { id: "asc" },
          }),
          // Wiki pages name their repository; they are written after parsing anyway.
          chunks: await client.chunk.findMany({
            where: { ...where, kind: { not: "wiki" } },
            omit: { ...omit, fileId: true },
            orderBy: { id: "asc" },
          }),
          edges: await client.edge.findMany({ where, omit, orderBy: { id: "asc" } }),
        };
      };
      const [a, b] = await Promise.all([rows(serial.stats.generationId), rows(parallel.stats.generationId)]);
      expect(a.files.length).toBeGreaterThan(150);
      for (const table of ["files", "symbols", "chunks", "edges"] as const) {
        const [x, y] = [a[table].map((r) => JSON.stringify(r)), b[table].map((r) => JSON.stringify(r))];
        const first = x.findIndex((row, i) => row !== y[i]);
        expect({ table, first, serial: x[first], parallel: y[first] }).toEqual({
          table,
          first: -1,
          serial: undefined,
          parallel: undefined,
        });
        expect(y.length).toBe(x.length);
      }
    },
  );
});
