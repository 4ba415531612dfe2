/**
 * Re-indexing without reading unchanged files: a file whose size and modification time
 * are what its row recorded is vouched for by them, the way git's index skips
 * unchanged files. A touched file is read and hashed but not parsed again (and its new
 * time recorded); a time too close to the moment the file was read ("racy") vouches for
 * nothing, so an edit that keeps the size and restores the time is still found; a file
 * with redacted secrets is read on every build, so every build reports them.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "../db/client.ts";
import { getFileContent } from "../db/index-reads.ts";
import { snapshotOf, visibleIn } from "../db/snapshot.ts";
import { plantedSecretsRepository } from "../../test-support/planted-secrets.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { indexRepository } from "./build.ts";

let t: TempEnv;
beforeAll(async () => {
  t = await setupTempEnv();
});
afterAll(async () => {
  await t?.cleanup();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const TREE = {
  "pkg/core.py": "def merge(a, b):\n    return a + b\n",
  "pkg/util.py": "from .core import merge\n\n\ndef total(rows):\n    return merge(rows, [])\n",
  "web/cart.ts": "export function price(cents: number): string {\n  return `${cents}`;\n}\n",
  "README.md": "# Ledger\n",
};

/** Whole seconds: a time utimes sets, and stat reports back, exactly. */
const secondsAgo = (s: number) => Math.floor(Date.now() / 1000) - s;

function setTimes(root: string, files: string[], seconds: number): void {
  for (const f of files) fs.utimesSync(path.join(root, f), seconds, seconds);
}

/** Counts the files under `root` whose contents are read while `run` runs. */
async function countReads<T>(root: string, run: () => Promise<T>): Promise<{ result: T; reads: string[] }> {
  const reads: string[] = [];
  const original = fs.readFileSync;
  const spy = vi.spyOn(fs, "readFileSync").mockImplementation(((
    file: fs.PathOrFileDescriptor,
    options?: unknown,
  ) => {
    if (typeof file === "string" && file.startsWith(root + path.sep)) reads.push(path.relative(root, file));
    return (original as (f: fs.PathOrFileDescriptor, o?: unknown) => unknown)(file, options);
  }) as typeof fs.readFileSync);
  try {
    return { result: await run(), reads };
  } finally {
    spy.mockRestore();
  }
}

async function storedTimes(generationId: string): Promise<Map<string, string | null>> {
  const client = await db();
  const rows = await client.file.findMany({
    where: visibleIn(await snapshotOf(generationId)),
    select: { path: true, mtimeNs: true },
  });
  return new Map(rows.map((r) => [r.path, r.mtimeNs]));
}

describe("re-indexing by size and modification time", () => {
  it("reads no file of an unchanged tree, and reads but does not parse a touched one", async () => {
    const root = t.makeRepo(TREE, "stat-unchanged");
    const paths = Object.keys(TREE);
    const old = secondsAgo(3600);
    setTimes(root, paths, old);
    const first = await indexRepository(root, { name: "stat-unchanged", wikiModel: null });
    expect(first.stats.readFiles).toBe(paths.length);
    const times = await storedTimes(first.stats.generationId);
    expect(times.get("pkg/core.py")).toBe(`${old}000000000`);

    const again = await countReads(root, () => indexRepository(root, { wikiModel: null }));
    expect(again.reads).toEqual([]);
    expect(again.result.stats).toMatchObject({ readFiles: 0, parsedFiles: 0, files: paths.length });

    // Touched: a new time, the same bytes. Read and hashed once, not parsed, and its new time kept.
    const touchedAt = secondsAgo(60);
    setTimes(root, ["pkg/util.py"], touchedAt);
    const touched = await countReads(root, () => indexRepository(root, { wikiModel: null }));
    expect(touched.reads).toEqual(["pkg/util.py"]);
    expect(touched.result.stats).toMatchObject({ readFiles: 1, parsedFiles: 0 });
    expect((await storedTimes(touched.result.stats.generationId)).get("pkg/util.py")).toBe(
      `${touchedAt}000000000`,
    );
    const after = await countReads(root, () => indexRepository(root, { wikiModel: null }));
    expect(after.reads).toEqual([]);
    expect(after.result.stats).toMatchObject({ readFiles: 0, parsedFiles: 0 });
  });

  it("re-indexes an edit that keeps the size and restores a time too recent to vouch for the content", async () => {
    const root = t.makeRepo(TREE, "stat-racy");
    setTimes(root, Object.keys(TREE), secondsAgo(3600));
    // Written just before the build reads it: the time is racy and recorded as nothing.
    const racy = secondsAgo(0);
    t.write(root, "pkg/core.py", "def merge(a, b):\n    return a + b\n");
    setTimes(root, ["pkg/core.py"], racy);
    const first = await indexRepository(root, { name: "stat-racy", wikiModel: null });
    const times = await storedTimes(first.stats.generationId);
    expect(times.get("pkg/core.py")).toBeNull();
    expect(times.get("pkg/util.py")).not.toBeNull();

    // Same size, same time, other bytes.
    t.write(root, "pkg/core.py", "def merge(a, b):\n    return b + a\n");
    setTimes(root, ["pkg/core.py"], racy);
    const second = await countReads(root, () => indexRepository(root, { wikiModel: null }));
    expect(second.reads).toEqual(["pkg/core.py"]);
    expect(second.result.stats).toMatchObject({ readFiles: 1, parsedFiles: 1 });
    expect(await getFileContent(second.result.stats.generationId, "pkg/core.py")).toContain("return b + a");
  });

  it("reads a file with redacted secrets on every build, so every build reports them", async () => {
    const planted = plantedSecretsRepository();
    const settings = planted.files["shop/settings.py"] ?? "";
    const root = t.makeRepo({ ...TREE, "shop/settings.py": settings }, "stat-secrets");
    setTimes(root, [...Object.keys(TREE), "shop/settings.py"], secondsAgo(3600));
    const first = await indexRepository(root, { name: "stat-secrets", wikiModel: null });
    expect(first.stats.secrets.redactedFiles).toBe(1);
    const again = await countReads(root, () => indexRepository(root, { wikiModel: null }));
    expect(again.reads).toEqual(["shop/settings.py"]);
    expect(again.result.stats).toMatchObject({ readFiles: 1, parsedFiles: 0 });
    expect(again.result.stats.secrets.redactedFiles).toBe(1);
    expect(await getFileContent(again.result.stats.generationId, "shop/settings.py")).toContain(
      "[redacted github secret]",
    );
  });
});
