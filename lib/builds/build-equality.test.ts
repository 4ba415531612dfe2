/**
 * An incremental build must read exactly like a full build of the same tree. A small
 * Python + TypeScript repository goes through edits that move resolution around —
 * a renamed function its callers must lose, a re-export through a package
 * `__init__`, a new module that turns imports and a bare-name guess into a second
 * candidate, a removed base class, a changed method an inherited call lands on — and
 * after each incremental build the same tree is rebuilt in full (the index format
 * forces it) and every row the two generations read is compared: files, symbols (fan
 * counts included), edges, chunks, wiki pages, findings, and what search finds. Edits
 * that add or remove no file are also checked to take the wiki's scoped path (only the
 * changed files' surroundings read), findings carried over or recomputed alike.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client.ts";
import { searchChunks } from "../db/code-graph.ts";
import { snapshotOf, visibleIn } from "../db/snapshot.ts";
import { listFindings } from "../db/wiki-store.ts";
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

const lines = (...l: string[]) => `${l.join("\n")}\n`;

const TREE = {
  "pkg/__init__.py": lines('"""The package."""', "from .core import merge, Base"),
  "pkg/core.py": lines(
    "class Base:",
    '    """Stores things."""',
    "",
    "    def save(self, item):",
    "        return self.check(item)",
    "",
    "    def check(self, item):",
    "        return item",
    "",
    "",
    "def merge(a, b):",
    '    """Merges two ledgers."""',
    "    return a + b",
  ),
  "pkg/util.py": lines(
    "from pkg import merge",
    "from .legacy import Archive",
    "",
    "",
    "def total(rows):",
    "    return merge(rows, [])",
    "",
    "",
    "def archive(rows):",
    "    return Archive().store(rows)",
  ),
  "pkg/legacy.py": lines("class Archive:", "    def store(self, rows):", "        return rows"),
  "pkg/models.py": lines(
    "from .core import Base",
    "from .legacy import Archive",
    "",
    "",
    "class Model(Base):",
    "    def persist(self):",
    "        return self.save(self)",
    "",
    "",
    "class Frozen(Archive):",
    "    def keep(self):",
    "        return self.store([])",
    "",
    "",
    "def build():",
    "    return combine(1, 2)",
  ),
  "web/format.ts": lines("export function formatPrice(cents: number): string {", "  return `${cents}`;", "}"),
  "web/cart.ts": lines(
    'import { formatPrice } from "./format";',
    "",
    "export class Cart {",
    "  label(): string {",
    "    return formatPrice(this.total());",
    "  }",
    "  total(): number {",
    "    return 1;",
    "  }",
    "}",
    "",
    "export class Basket {",
    "  label(): string {",
    '    return "basket";',
    "  }",
    "}",
  ),
  "web/factory.ts": lines(
    'import { Cart, Basket } from "./cart";',
    "",
    "export function makeCart(): Cart {",
    "  return new Cart();",
    "}",
  ),
  "web/shop.ts": lines(
    'import { makeCart } from "./factory";',
    "",
    "export function price(): string {",
    "  return makeCart().label();",
    "}",
  ),
  "README.md": "# Ledger\n\nMerges ledgers.\n",
  // An entry point by name: the overview lists it whatever else nothing calls.
  "pkg/cli.py": lines("def main():", "    return 0"),
};

const UTIL_WITH_FINDINGS =
  TREE["pkg/util.py"] +
  lines(
    "",
    "",
    "def load(rows):",
    "    # TODO: stream the rows",
    "    # TODO: validate them",
    "    # FIXME: keep the order",
    "    try:",
    "        return merge(rows, [])",
    "    except Exception:",
    "        pass",
    "",
    "",
    "SEEN = 0",
    "",
    "",
    ...["first", "second", "third"].flatMap((name) => [
      `def count_${name}():`,
      "    global SEEN",
      "    SEEN += 1",
      "",
      "",
    ]),
    "def report(rows):",
    ...Array.from({ length: 110 }, (_, i) => `    rows.append(${i})`),
    "    return rows",
  );

/** Edits applied one after the other; after each, incremental and full builds must agree. */
const EDITS: {
  what: string;
  apply: (root: string) => void;
  reresolves?: "none" | "some";
  /** a call edge (source id, target id) the tree must have after the edit */
  edge?: [string, string];
  /** the wiki's path: the changed files' surroundings only, or every page */
  wikiScope?: "changes" | "all";
  /** finding categories the tree must have after the edit (so their comparison is not vacuous) */
  findings?: string[];
}[] = [
  {
    what: "a function renamed: its callers lose the edge, a bare-name call finds the new one",
    apply: (root) =>
      t.write(
        root,
        "pkg/core.py",
        TREE["pkg/core.py"].replace("def merge(a, b):", "def combine(a, b):") +
          lines("", "", "def merge(a, b):", "    return combine(a, b)"),
      ),
  },
  {
    what: "a new module defining a name others call",
    apply: (root) =>
      t.write(
        root,
        "pkg/extra.py",
        lines("def combine(x, y):", '    """Another combine."""', "    return x"),
      ),
  },
  {
    what: "a base class removed with its module",
    apply: (root) => t.remove(root, "pkg/legacy.py"),
  },
  {
    what: "an inherited method changed, and a TypeScript edit",
    apply: (root) => {
      t.write(root, "pkg/core.py", TREE["pkg/core.py"].replace("return self.check(item)", "return item"));
      t.write(root, "web/cart.ts", TREE["web/cart.ts"].replace("return 1;", "return formatPrice(2).length;"));
    },
  },
  {
    what: "a function's declared return type changed: a call on its result in another file lands on the other class",
    apply: (root) =>
      t.write(root, "web/factory.ts", TREE["web/factory.ts"].replace("(): Cart", "(): Basket")),
    reresolves: "some",
    edge: ["web/shop.ts::price", "web/cart.ts::Basket.label"],
  },
  {
    what: "a package re-exports another name: importers of the old one resolve elsewhere",
    apply: (root) =>
      t.write(root, "pkg/__init__.py", lines('"""The package."""', "from .core import combine, Base")),
    reresolves: "some",
  },
  {
    what: "only function bodies changed in the module everything calls",
    apply: (root) =>
      t.write(
        root,
        "pkg/core.py",
        TREE["pkg/core.py"]
          .replace("return self.check(item)", "return item")
          .replace("        return item\n\n\ndef", "        return [item]\n\n\ndef")
          .replace("return a + b", "return b + a"),
      ),
    reresolves: "none",
    wikiScope: "changes",
  },
  {
    what: "a swallowed exception, TODO markers, module state and a long function added to a module: those findings are recomputed",
    apply: (root) => t.write(root, "pkg/util.py", UTIL_WITH_FINDINGS),
    wikiScope: "changes",
    findings: ["swallowed-exception", "todo-density", "module-state", "long-function"],
  },
  {
    what: "lines inserted above them: the findings move with them",
    apply: (root) =>
      t.write(
        root,
        "pkg/util.py",
        UTIL_WITH_FINDINGS.replace("def total(rows):", "# Totals.\n\n\ndef total(rows):"),
      ),
    wikiScope: "changes",
    findings: ["swallowed-exception", "todo-density", "module-state", "long-function"],
  },
  {
    what: "an unrelated edit elsewhere: every finding is carried over",
    apply: (root) => t.write(root, "web/cart.ts", TREE["web/cart.ts"].replace("return 1;", "return 3;")),
    wikiScope: "changes",
  },
];

function sorted(rows: unknown[]): string[] {
  return rows.map((r) => JSON.stringify(r)).sort();
}

/** Everything a generation reads, without row ids (which differ by design). */
async function readAll(generationId: string) {
  const client = await db();
  const where = visibleIn(await snapshotOf(generationId));
  const [files, symbols, edges, chunks, pages] = await Promise.all([
    client.file.findMany({
      where,
      select: {
        path: true,
        language: true,
        kind: true,
        hash: true,
        size: true,
        lines: true,
        imports: true,
        parseErrors: true,
        facts: true,
        callNames: true,
      },
    }),
    client.symbol.findMany({
      where,
      omit: { id: true, repositoryId: true, fromGeneration: true, toGeneration: true, fileId: true },
    }),
    client.edge.findMany({
      where,
      omit: { id: true, repositoryId: true, fromGeneration: true, toGeneration: true },
    }),
    client.chunk.findMany({
      where,
      omit: { id: true, repositoryId: true, fromGeneration: true, toGeneration: true, fileId: true },
    }),
    client.wikiPage.findMany({
      where,
      omit: { id: true, repositoryId: true, fromGeneration: true, toGeneration: true, updatedAt: true },
    }),
  ]);
  const findings = (await listFindings(generationId)).map(({ id: _id, ...f }) => f);
  return {
    files: sorted(files),
    symbols: sorted(symbols),
    edges: sorted(edges),
    chunks: sorted(chunks),
    pages: sorted(pages),
    findings: sorted(findings),
  };
}

async function forceFullRebuild(generationId: string): Promise<void> {
  const client = await db();
  const active = await client.indexGeneration.findUniqueOrThrow({ where: { id: generationId } });
  const stats = JSON.parse(active.stats) as BuildStats;
  await client.indexGeneration.update({
    where: { id: generationId },
    data: { stats: JSON.stringify({ ...stats, formatVersion: INDEX_FORMAT_VERSION - 1 }) },
  });
}

describe("incremental and full builds", () => {
  it("read the same rows after every edit", { timeout: 240_000 }, async () => {
    const root = t.makeRepo(TREE);
    let { stats } = await indexRepository(root, { name: "ledger", wikiModel: null });
    for (const edit of EDITS) {
      edit.apply(root);
      const incremental = (await indexRepository(root, { wikiModel: null })).stats;
      expect(incremental.parsedFiles, edit.what).toBeLessThan(incremental.files);
      if (edit.reresolves === "none") expect(incremental.reresolvedSymbols, edit.what).toBe(0);
      if (edit.reresolves === "some") expect(incremental.reresolvedSymbols, edit.what).toBeGreaterThan(0);
      if (edit.wikiScope) expect(incremental.wikiScope, edit.what).toBe(edit.wikiScope);
      await forceFullRebuild(incremental.generationId);
      const full = (await indexRepository(root, { wikiModel: null })).stats;
      expect(full.parsedFiles, edit.what).toBe(full.files);
      const [a, b] = await Promise.all([readAll(incremental.generationId), readAll(full.generationId)]);
      const edge = edit.edge;
      if (edge)
        expect(
          a.edges.some((e) => e.includes(`"srcId":"${edge[0]}"`) && e.includes(`"dstId":"${edge[1]}"`)),
          edit.what,
        ).toBe(true);
      for (const category of edit.findings ?? [])
        expect(
          a.findings.some((f) => f.includes(`"category":"${category}"`), `${edit.what}: ${category}`),
        ).toBe(true);
      for (const key of Object.keys(a) as (keyof typeof a)[]) {
        expect(a[key], `${edit.what}: ${key}`).toEqual(b[key]);
      }
      for (const word of ["merges", "combine", "archive", "price"]) {
        const hits = async (id: string) =>
          (await searchChunks(id, `"${word}"`)).map((h) => [h.path, h.title]);
        expect(await hits(incremental.generationId), `${edit.what}: search ${word}`).toEqual(
          await hits(full.generationId),
        );
      }
      stats = full;
    }
    expect(stats.generation).toBe(1 + EDITS.length * 2);
  });
});
