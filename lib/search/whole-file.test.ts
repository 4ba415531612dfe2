/**
 * The whole-file lexical channel on a real database (SQLite, and PostgreSQL with
 * WAYFINDER_TEST_PG_URL) over really indexed files: BM25 scores as the textbook formula
 * gives them, one repository's words never reaching another's files, and the counts
 * following re-indexing incrementally — rows of unchanged files kept, the previous
 * generation still ranking its own text, and rows deleted with their file rows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client.ts";
import { queryRaw } from "../db/dialect.ts";
import { bm25Files, bm25Idf } from "../db/file-terms.ts";
import { collectGarbage } from "../db/garbage.ts";
import { deleteRepository } from "../db/repositories.ts";
import { fileTermCounts } from "../db/tokenize.ts";
import { indexRepository } from "../builds/build.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { wholeFileSearch } from "./whole-file.ts";

let t: TempEnv;
beforeAll(async () => {
  t = await setupTempEnv();
});
afterAll(async () => {
  await t?.cleanup();
});

const FILES = {
  "shop/basket.py": [
    "def basket_total(items):",
    '    """Adds up the basket: every gooseberry counts twice, gooseberry jam once."""',
    "    return sum(items)",
    "",
  ].join("\n"),
  "shop/price.py": [
    "def format_price(cents):",
    '    """Renders a price; a gooseberry is never free."""',
    "    return f'{cents / 100:.2f}'",
    "",
  ].join("\n"),
  "shop/stock.py": [
    "def restock(shelf):",
    '    """Fills the shelf with marmalade."""',
    "    return shelf",
    "",
  ].join("\n"),
  "README.md": "# Shop\n\nSells marmalade and jam.\n",
};

/** Textbook BM25 (k1 1.2, b 0.75) of `words` over files given as path → text. */
function expectedBm25(files: Record<string, string>, words: string[]): Map<string, number> {
  const docs = Object.entries(files).map(([path, text]) => {
    const counts = fileTermCounts(path, text);
    return { path, length: counts.length, tf: new Map(counts.terms.map((w, i) => [w, counts.counts[i]])) };
  });
  const average = docs.reduce((n, d) => n + d.length, 0) / docs.length;
  const scores = new Map<string, number>();
  for (const d of docs) {
    let score = 0;
    for (const w of words) {
      const f = d.tf.get(w);
      if (!f) continue;
      const df = docs.filter((x) => x.tf.has(w)).length;
      score += (bm25Idf(docs.length, df) * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / average));
    }
    if (score > 0) scores.set(d.path, score);
  }
  return scores;
}

async function fileTermRows(): Promise<number> {
  const rows = await queryRaw<{ n: number | bigint }[]>(await db(), `SELECT COUNT(*) AS n FROM "FileTerm"`);
  return Number(rows[0]?.n ?? 0);
}

async function orphanTermRows(): Promise<number> {
  const rows = await queryRaw<{ n: number | bigint }[]>(
    await db(),
    `SELECT COUNT(*) AS n FROM "FileTerm" t WHERE NOT EXISTS (SELECT 1 FROM "File" f WHERE f.id = t."fileId")`,
  );
  return Number(rows[0]?.n ?? 0);
}

describe("whole-file BM25", () => {
  let root: string;
  let firstGeneration: string;

  it("scores whole files as textbook BM25 does, rare words above common ones", async () => {
    root = t.makeRepo(FILES, "shop");
    const { stats } = await indexRepository(root);
    firstGeneration = stats.generationId;
    const hits = await bm25Files(firstGeneration, [
      { word: "gooseberry", weight: 1 },
      { word: "marmalade", weight: 1 },
    ]);
    const expected = expectedBm25(FILES, ["gooseberry", "marmalade"]);
    expect(hits.map((h) => h.path).sort()).toEqual([...expected.keys()].sort());
    for (const h of hits) expect(h.score).toBeCloseTo(expected.get(h.path) as number, 6);
    // Two gooseberries beat one in a file of about the same length.
    const gooseberry = await bm25Files(firstGeneration, [{ word: "gooseberry", weight: 1 }]);
    expect(gooseberry.map((h) => h.path)).toEqual(["shop/basket.py", "shop/price.py"]);
  });

  it("takes the question's words, identifier parts and the path into account", async () => {
    const hits = await wholeFileSearch(firstGeneration, "Where is the basket total computed?");
    expect(hits[0]?.path).toBe("shop/basket.py");
    expect((await wholeFileSearch(firstGeneration, "stock")).map((h) => h.path)).toEqual(["shop/stock.py"]);
    expect(await wholeFileSearch(firstGeneration, "what is the")).toEqual([]);
  });

  it("weighs each word by the weight the caller gives it and filters by path prefix and kind", async () => {
    const plain = await bm25Files(firstGeneration, [{ word: "marmalade", weight: 1 }]);
    const half = await bm25Files(firstGeneration, [{ word: "marmalade", weight: 0.5 }]);
    expect(half.map((h) => h.path)).toEqual(plain.map((h) => h.path));
    half.forEach((h, i) => expect(h.score).toBeCloseTo((plain[i]?.score ?? 0) / 2, 9));
    const scoped = await bm25Files(firstGeneration, [{ word: "marmalade", weight: 1 }], {
      pathPrefix: "shop/",
    });
    expect(scoped.map((h) => h.path)).toEqual(["shop/stock.py"]);
    const code = await bm25Files(firstGeneration, [{ word: "marmalade", weight: 1 }], { kind: "code" });
    expect(code.map((h) => h.path)).toEqual(["shop/stock.py"]);
    const text = await bm25Files(firstGeneration, [{ word: "marmalade", weight: 1 }], { kind: "text" });
    expect(text.map((h) => h.path)).toEqual(["README.md"]);
  });

  it("never ranks another repository's files", async () => {
    const other = t.makeRepo({ "jam.py": "def gooseberry_jam():\n    return 'gooseberry'\n" }, "other");
    const { repository, stats } = await indexRepository(other);
    expect((await wholeFileSearch(stats.generationId, "gooseberry")).map((h) => h.path)).toEqual(["jam.py"]);
    expect((await wholeFileSearch(firstGeneration, "gooseberry")).map((h) => h.path)).not.toContain("jam.py");
    const before = await fileTermRows();
    await deleteRepository(repository.id);
    expect(await fileTermRows()).toBeLessThan(before);
    expect(await orphanTermRows()).toBe(0);
  });

  it("follows re-indexing: new text ranks in the new generation, the old one keeps its own", async () => {
    const rowsBefore = await fileTermRows();
    const edited = "def format_price(cents):\n    return 'quince'\n";
    t.write(root, "shop/price.py", edited);
    const { stats } = await indexRepository(root);
    // Only the changed file's words were written (its old rows stay for the old generation).
    expect(stats.parsedFiles).toBe(1);
    expect(await fileTermRows()).toBe(rowsBefore + fileTermCounts("shop/price.py", edited).terms.length);
    expect((await wholeFileSearch(stats.generationId, "quince")).map((h) => h.path)).toEqual([
      "shop/price.py",
    ]);
    expect(await wholeFileSearch(firstGeneration, "quince")).toEqual([]);
    expect((await wholeFileSearch(firstGeneration, "gooseberry")).map((h) => h.path)).toContain(
      "shop/price.py",
    );
    expect((await wholeFileSearch(stats.generationId, "gooseberry")).map((h) => h.path)).toEqual([
      "shop/basket.py",
    ]);
  });

  it("deletes the counts of file rows garbage collection deletes", async () => {
    t.write(root, "shop/price.py", "def format_price(cents):\n    return 'medlar'\n");
    const { repository, stats } = await indexRepository(root);
    await collectGarbage(repository.id);
    expect(await orphanTermRows()).toBe(0);
    expect((await wholeFileSearch(stats.generationId, "medlar")).map((h) => h.path)).toEqual([
      "shop/price.py",
    ]);
  });
});
