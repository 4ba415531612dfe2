/**
 * Incremental re-indexing against a real SQLite database and real tree-sitter
 * parsing: a small Python + TypeScript + Markdown repository is indexed, edited
 * (one file changed, one added, one deleted) and re-indexed. Unchanged files must be
 * copied rather than re-parsed, changed ones must reflect their new content, search
 * must follow, and call edges must be recomputed across files.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client.ts";
import { snapshotOf, visibleIn } from "../db/snapshot.ts";
import { callersOf, searchChunks, symbolsByName, symbolsInFile } from "../db/code-graph.ts";
import { ftsIntegrityCheck } from "../db/dialect.ts";
import { findRepository } from "../db/repositories.ts";
import { getGeneration, listGenerations } from "../db/generations.ts";
import { lexicalSearch } from "../search/hybrid.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { INDEX_FORMAT_VERSION } from "../indexer/format.ts";
import { indexRepository } from "./build.ts";
import type { BuildStats } from "./types.ts";

let t: TempEnv;
beforeAll(async () => {
  t = await setupTempEnv();
});
afterAll(async () => {
  await t?.cleanup();
});

// Unique made-up words let the FTS assertions tell exactly which file a hit came from.
const FILES = {
  "app/main.py": [
    "from app.helpers import compute",
    "from app.text import slugify",
    "",
    "",
    "def run(values):",
    '    """Entry point: totals the values and slugs the result (marmalade)."""',
    "    total = compute(values)",
    "    return slugify(str(total))",
    "",
  ].join("\n"),
  "app/helpers.py": [
    "def legacy_sum(values):",
    '    """Old adder, mentions quillwort."""',
    "    return sum(values)",
    "",
  ].join("\n"),
  "app/text.py": [
    "def slugify(text):",
    '    """Lowercases text for URLs (periwinkle)."""',
    '    return text.lower().replace(" ", "-")',
    "",
  ].join("\n"),
  "app/obsolete.py": [
    "def obsolete_task():",
    '    """Scheduled for deletion: quokkaflux."""',
    "    return 0",
    "",
  ].join("\n"),
  "web/util.ts": [
    "export function formatPrice(cents: number): string {",
    "  // renders tamarind prices",
    "  return `$${(cents / 100).toFixed(2)}`;",
    "}",
    "",
  ].join("\n"),
  "web/cart.ts": [
    'import { formatPrice } from "./util";',
    "",
    "export class Cart {",
    "  private items: number[] = [];",
    "",
    "  total(): number {",
    "    return this.items.reduce((a, b) => a + b, 0);",
    "  }",
    "",
    "  label(): string {",
    "    return formatPrice(this.total());",
    "  }",
    "}",
    "",
  ].join("\n"),
  "README.md": "# Demo shop\n\nA tiny shop that sells gooseberry jam.\n\n## Usage\n\nRun it.\n",
};

const NEW_HELPERS = [
  "def compute(values):",
  '    """New adder, mentions zanzibarite."""',
  "    return sum(v * 2 for v in values)",
  "",
].join("\n");

const REPORT = [
  "from app.helpers import compute",
  "",
  "",
  "def build_report(values):",
  '    """Report over the totals (xylophonic)."""',
  "    return {'total': compute(values)}",
  "",
].join("\n");

async function searchPaths(generationId: string, query: string): Promise<string[]> {
  // Source and docs only: the generated wiki pages about a file would repeat its path.
  return (
    await lexicalSearch(generationId, query, { limit: 20, kinds: ["code", "file", "doc", "text"] })
  ).map((h) => h.path);
}

describe("incremental re-indexing", () => {
  let root: string;
  let first: BuildStats;
  let second: BuildStats;

  it("indexes the initial repository", async () => {
    root = t.makeRepo(FILES);
    ({ stats: first } = await indexRepository(root));
    expect(first).toMatchObject({
      formatVersion: INDEX_FORMAT_VERSION,
      generation: 1,
      files: 7,
      codeFiles: 6,
      textFiles: 1,
      parsedFiles: 7,
      reusedFiles: 0,
      removedFiles: 0,
      source: "walk",
    });
    expect(first.languages).toEqual({ python: 4, typescript: 2, markdown: 1 });
    // Before the edit `compute` does not exist: the import names it but nothing defines it.
    expect(await symbolsByName(first.generationId, "compute")).toEqual([]);
    expect(await searchPaths(first.generationId, "quokkaflux")).toEqual(["app/obsolete.py"]);
  });

  it("re-parses only changed and new files, copies the rest, counts the removed one", async () => {
    t.write(root, "app/helpers.py", NEW_HELPERS);
    t.write(root, "app/report.py", REPORT);
    t.remove(root, "app/obsolete.py");
    const result = await indexRepository(root);
    second = result.stats;
    expect(second).toMatchObject({
      generation: 2,
      files: 7,
      parsedFiles: 2,
      reusedFiles: 5,
      removedFiles: 1,
    });
    expect(result.repository.activeGenerationId).toBe(second.generationId);
    expect(second.generationId).not.toBe(first.generationId);
  });

  it("shares the rows of unchanged files between generations instead of copying them", async () => {
    // The same rows, not copies: unchanged files' symbols keep their ids.
    for (const path of ["app/text.py", "web/cart.ts"]) {
      const ids = async (generationId: string) => (await symbolsInFile(generationId, path)).map((s) => s.id);
      expect(await ids(second.generationId)).toEqual(await ids(first.generationId));
    }
  });

  it("reads the symbols and chunks of unchanged files unchanged", async () => {
    for (const path of ["app/text.py", "app/main.py", "web/cart.ts"]) {
      const strip = (rows: Awaited<ReturnType<typeof symbolsInFile>>) =>
        rows.map(({ qualifiedId, kind, startLine, endLine, signature, docstring, calls }) => ({
          qualifiedId,
          kind,
          startLine,
          endLine,
          signature,
          docstring,
          calls,
        }));
      const before = strip(await symbolsInFile(first.generationId, path));
      const after = strip(await symbolsInFile(second.generationId, path));
      expect(before.length).toBeGreaterThan(0);
      expect(after).toEqual(before);
    }
    const client = await db();
    const chunkSummary = async (generationId: string) =>
      (
        await client.chunk.findMany({
          where: {
            ...visibleIn(await snapshotOf(generationId)),
            path: { in: ["app/text.py", "web/util.ts", "README.md"] },
          },
          select: { path: true, kind: true, title: true, startLine: true, endLine: true, text: true },
          orderBy: [{ path: "asc" }, { startLine: "asc" }, { title: "asc" }],
        })
      ).map((c) => JSON.stringify(c));
    const copied = await chunkSummary(second.generationId);
    expect(copied.length).toBeGreaterThanOrEqual(5);
    expect(copied).toEqual(await chunkSummary(first.generationId));
    // Copied chunks must be in the FTS index too, not just in the Chunk table.
    expect(await searchPaths(second.generationId, "periwinkle")).toContain("app/text.py");
    expect(await searchPaths(second.generationId, "gooseberry")).toContain("README.md");
    expect(await searchPaths(second.generationId, "tamarind")).toContain("web/util.ts");
  });

  it("reflects changed, new and deleted files in symbols and search", async () => {
    const gen = second.generationId;
    const compute = await symbolsByName(gen, "compute");
    expect(compute.map((s) => s.qualifiedId)).toEqual(["app/helpers.py::compute"]);
    expect(compute[0]?.docstring).toContain("zanzibarite");
    expect(await symbolsByName(gen, "legacy_sum")).toEqual([]);
    expect(await symbolsByName(gen, "obsolete_task")).toEqual([]);
    expect((await symbolsByName(gen, "build_report")).map((s) => s.path)).toEqual(["app/report.py"]);

    expect(await searchPaths(gen, "zanzibarite")).toEqual(["app/helpers.py"]);
    expect(await searchPaths(gen, "xylophonic")).toEqual(["app/report.py"]);
    expect(await searchPaths(gen, "quokkaflux")).toEqual([]);
    expect(await searchPaths(gen, "quillwort")).toEqual([]);
    // Identifier splitting works on re-parsed content: `build_report` is found as words.
    expect(await searchPaths(gen, "build report")).toContain("app/report.py");
  });

  it("recomputes called_by across files, including callers in unchanged files", async () => {
    const gen = second.generationId;
    const callers = await callersOf(gen, "app/helpers.py::compute");
    const bySource = new Map(callers.map((e) => [e.srcId, e]));
    // app/main.py was copied, not re-parsed, yet its call now resolves to the new function.
    expect(bySource.get("app/main.py::run")?.confidence).toBeGreaterThanOrEqual(0.9);
    expect(bySource.get("app/report.py::build_report")?.confidence).toBeGreaterThanOrEqual(0.9);
    expect(callers).toHaveLength(2);
    const [compute] = await symbolsByName(gen, "compute");
    expect(compute?.fanIn).toBe(2);
    // Edges between two unchanged files are rebuilt in the new generation as well.
    expect((await callersOf(gen, "app/text.py::slugify")).map((e) => e.srcId)).toEqual(["app/main.py::run"]);
    expect((await callersOf(gen, "web/util.ts::formatPrice")).map((e) => e.srcId)).toEqual([
      "web/cart.ts::Cart.label",
    ]);
    expect((await callersOf(gen, "web/cart.ts::Cart.total")).map((e) => e.srcId)).toEqual([
      "web/cart.ts::Cart.label",
    ]);
  });

  it("keeps the superseded generation readable for readers pinned to it", async () => {
    const old = await getGeneration(first.generationId);
    expect(old?.status).toBe("superseded");
    expect(await searchPaths(first.generationId, "quokkaflux")).toEqual(["app/obsolete.py"]);
    expect(await searchPaths(first.generationId, "zanzibarite")).toEqual([]);
    expect((await symbolsByName(first.generationId, "legacy_sum")).length).toBe(1);
  });

  it("reuses everything when nothing changed, and collects the oldest generation", async () => {
    const { stats: third, repository } = await indexRepository(root);
    expect(third).toMatchObject({ generation: 3, files: 7, parsedFiles: 0, reusedFiles: 7, removedFiles: 0 });
    expect(third.symbols).toBe(second.symbols);
    expect(third.chunks).toBe(second.chunks);
    expect(third.callEdges).toBe(second.callEdges);
    expect(third.edges).toBe(second.edges);
    // Nothing changed: no edge is re-resolved and no chunk is embedded again.
    expect(third.resolvedEdges).toBe(0);
    expect(third.sharedEdges).toBe(second.edges);
    expect(third.embeddedChunks).toBe(0);
    expect(third.reusedVectors).toBe(third.chunks);
    expect(repository.activeGenerationId).toBe(third.generationId);

    const statuses = (await listGenerations(repository.id)).map((g) => [g.number, g.status]);
    expect(statuses).toEqual([
      [3, "ready"],
      [2, "superseded"],
      [1, "deleted"],
    ]);
    const client = await db();
    // Rows only generation 1 read (the old helpers, the deleted file) are gone; nothing
    // was copied, so the repository holds exactly the rows generation 3 reads.
    const onlyFirst = { repositoryId: repository.id, toGeneration: { lte: 2 } };
    expect(await client.symbol.count({ where: onlyFirst })).toBe(0);
    expect(await client.chunk.count({ where: onlyFirst })).toBe(0);
    expect(await client.symbol.count({ where: { repositoryId: repository.id } })).toBe(third.symbols);
    expect(await client.edge.count({ where: { repositoryId: repository.id } })).toBe(third.edges);
    expect(await searchChunks(first.generationId, "quokkaflux")).toEqual([]);
    // The FTS index (external content) must agree exactly with the Chunk table after
    // copies and garbage collection; rank 1 makes SQLite compare it with the content
    // table, so a missed sync or delete fails here.
    await expect(ftsIntegrityCheck(client)).resolves.toBeUndefined();
  });

  it("re-parses every file when the previous generation has another format version", async () => {
    const repo = await findRepository(root);
    const client = await db();
    const active = await client.indexGeneration.findUniqueOrThrow({
      where: { id: repo!.activeGenerationId! },
    });
    const stats = JSON.parse(active.stats) as BuildStats;
    await client.indexGeneration.update({
      where: { id: active.id },
      data: { stats: JSON.stringify({ ...stats, formatVersion: INDEX_FORMAT_VERSION - 1 }) },
    });
    const { stats: fourth } = await indexRepository(root);
    expect(fourth).toMatchObject({ generation: 4, files: 7, parsedFiles: 7, reusedFiles: 0 });
    expect(fourth.symbols).toBe(stats.symbols);
    expect((await callersOf(fourth.generationId, "app/helpers.py::compute")).length).toBe(2);
  });
});
