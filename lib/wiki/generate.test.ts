/**
 * Wiki generation inside real index builds (SQLite, tree-sitter): which pages a build
 * regenerates and which it copies. An edited function body regenerates its file's
 * page and its folder's page only; a changed interface also regenerates the pages of
 * the files whose edges to it changed; added and removed files update their folders
 * and the overview. Pages are searchable as "wiki" chunks that cite their file, and a
 * configured model adds summaries that failures silently leave out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client.ts";
import { snapshotOf, visibleIn } from "../db/snapshot.ts";
import { getWikiPage } from "../db/wiki-store.ts";
import { indexRepository } from "../builds/build.ts";
import { lexicalSearch } from "../search/hybrid.ts";
import { scriptedModel } from "../../test-support/qa-model.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";

let t: TempEnv;
beforeAll(async () => {
  t = await setupTempEnv();
});
afterAll(async () => {
  await t?.cleanup();
});

const PRICING = [
  '"""Prices and discounts."""',
  "",
  "",
  "def compute_total(items):",
  '    """Sum of the item prices (gooseberry)."""',
  "    return sum(items)",
  "",
  "",
  "def apply_coupon(total, rate):",
  '    """Take a coupon rate off a total."""',
  "    return round(total * (1 - rate), 2)",
  "",
].join("\n");

const FILES = {
  "README.md": "# Tiny shop\n\nA tiny shop used to test the generated wiki pages.\n",
  "shop/__init__.py": '"""The shop package: pricing and checkout."""\n',
  "shop/pricing.py": PRICING,
  "shop/service.py": [
    '"""Checkout: price a cart."""',
    "from shop.pricing import apply_coupon, compute_total",
    "",
    "",
    "def checkout(items, rate=0.0):",
    '    """Price a cart and apply a coupon (marzipan)."""',
    "    return apply_coupon(compute_total(items), rate)",
    "",
  ].join("\n"),
  "shop/util/text.py": '"""Text helpers."""\n\n\ndef slug(text):\n    return text.lower()\n',
  "api/handlers.py": [
    '"""HTTP handlers."""',
    "from shop.service import checkout",
    "",
    "",
    "def handle(request):",
    '    """Answer a checkout request."""',
    '    return checkout(request["items"])',
    "",
  ].join("\n"),
  "web/app.ts":
    "/** The web front end. */\nexport function render(total: number): string {\n  return `${total}`;\n}\n",
};

type PageState = Map<string, { inputHash: string; updatedAt: number }>;

async function pages(generationId: string): Promise<PageState> {
  const client = await db();
  const rows = await client.wikiPage.findMany({ where: visibleIn(await snapshotOf(generationId)) });
  return new Map(rows.map((r) => [r.slug, { inputHash: r.inputHash, updatedAt: r.updatedAt.getTime() }]));
}

/** Slugs whose page was regenerated (or is new) between two builds. */
function regenerated(before: PageState, after: PageState): string[] {
  return [...after]
    .filter(([slug, page]) => {
      const old = before.get(slug);
      return !old || old.inputHash !== page.inputHash || old.updatedAt !== page.updatedAt;
    })
    .map(([slug]) => slug)
    .sort();
}

describe("incremental wiki pages", () => {
  let root: string;
  let state: PageState;
  let generationId: string;

  it("a first build generates a page for the repository, each folder and each source file", async () => {
    root = t.makeRepo(FILES);
    const { stats } = await indexRepository(root, { wikiModel: null });
    generationId = stats.generationId;
    state = await pages(generationId);
    expect([...state.keys()].sort()).toEqual([
      "",
      "dir/api",
      "dir/shop",
      "dir/shop/util",
      "dir/web",
      "file/api/handlers.py",
      "file/shop/__init__.py",
      "file/shop/pricing.py",
      "file/shop/service.py",
      "file/shop/util/text.py",
      "file/web/app.ts",
    ]);
    expect(stats).toMatchObject({
      wikiPages: 11,
      wikiPagesGenerated: 11,
      wikiPagesReused: 0,
      wikiModel: null,
    });
    expect(stats.phaseSeconds.wiki).toBeGreaterThanOrEqual(0);

    const service = await getWikiPage(generationId, "file/shop/service.py");
    expect(service?.summary).toBe("Checkout: price a cart.");
    expect(service?.content).toContain("`checkout` (function) shop/service.py:5-7");
    expect(service?.content).toContain("calls `apply_coupon`, `compute_total` in `shop/pricing.py`");
    expect(service?.content).toContain("called by `handle` in `api/handlers.py`");
    expect(service?.diagram?.mermaid).toMatch(/^graph LR/);
    const folder = await getWikiPage(generationId, "dir/shop");
    expect(folder?.summary).toBe("The shop package: pricing and checkout. (from `shop/__init__.py`)");
    const overview = await getWikiPage(generationId, "");
    expect(overview?.summary).toContain("A tiny shop used to test the generated wiki pages.");
  });

  it("an edited function body regenerates its file's page and its folder's page only", async () => {
    t.write(
      root,
      "shop/pricing.py",
      PRICING.replace(
        "    return round(total * (1 - rate), 2)",
        "    # Rates are fractions.\n    discounted = total * (1 - rate)\n    return round(discounted, 2)",
      ),
    );
    const { stats } = await indexRepository(root, { wikiModel: null });
    const after = await pages(stats.generationId);
    expect(regenerated(state, after)).toEqual(["dir/shop", "file/shop/pricing.py"]);
    expect(stats).toMatchObject({ wikiPages: 11, wikiPagesGenerated: 2, wikiPagesReused: 9 });
    // The regenerated page cites the new lines.
    expect((await getWikiPage(stats.generationId, "file/shop/pricing.py"))?.content).toContain(
      "`apply_coupon` (function) shop/pricing.py:9-13",
    );
    state = after;
    generationId = stats.generationId;
  });

  it("a changed interface also regenerates the pages of files whose edges to it changed", async () => {
    t.write(
      root,
      "shop/pricing.py",
      PRICING.replace("def apply_coupon(total, rate):", "def apply_discount(total, rate):"),
    );
    const { stats } = await indexRepository(root, { wikiModel: null });
    const after = await pages(stats.generationId);
    // service.py called apply_coupon: that edge is gone, so its page changes; api/ is untouched.
    expect(regenerated(state, after)).toEqual(["dir/shop", "file/shop/pricing.py", "file/shop/service.py"]);
    const service = await getWikiPage(stats.generationId, "file/shop/service.py");
    expect(service?.content).toContain("calls `compute_total` in `shop/pricing.py`");
    expect(service?.content).not.toContain("apply_coupon` in");
    state = after;
    generationId = stats.generationId;
  });

  it("added and removed files update their folders and the overview", async () => {
    t.remove(root, "api/handlers.py");
    t.write(
      root,
      "shop/util/numbers.py",
      '"""Number helpers."""\n\n\ndef cents(value):\n    return round(value * 100)\n',
    );
    const { stats } = await indexRepository(root, { wikiModel: null });
    const after = await pages(stats.generationId);
    expect(after.has("file/api/handlers.py")).toBe(false);
    expect(after.has("dir/api")).toBe(false);
    // shop/ lists its subfolder's size; the overview lists the top-level folders; service.py lost its caller.
    expect(regenerated(state, after)).toEqual([
      "",
      "dir/shop",
      "dir/shop/util",
      "file/shop/service.py",
      "file/shop/util/numbers.py",
    ]);
    state = after;
    generationId = stats.generationId;
  });

  it("a build with nothing changed copies every page", async () => {
    const { stats } = await indexRepository(root, { wikiModel: null });
    expect(regenerated(state, await pages(stats.generationId))).toEqual([]);
    expect(stats).toMatchObject({ wikiPagesGenerated: 0, wikiPagesReused: state.size });
    generationId = stats.generationId;
  });

  it("pages are wiki chunks that search finds and that cite their file like code", async () => {
    const hits = await lexicalSearch(generationId, "marzipan checkout", { kinds: ["wiki"] });
    expect(hits[0]).toMatchObject({ path: "shop/service.py", kind: "wiki", startLine: 1, endLine: 7 });
    expect(hits[0]?.title).toBe("Wiki: shop/service.py");
    // A page copied over several builds is still in the full-text index.
    const copied = await lexicalSearch(generationId, "gooseberry", { kinds: ["wiki"] });
    expect(copied.map((h) => h.path)).toEqual(["shop/pricing.py"]);
    const overview = await lexicalSearch(generationId, "tiny shop overview", { kinds: ["wiki"] });
    expect(overview.map((h) => h.path)).toContain("README");
  });
});

describe("model-written summaries", () => {
  it("are added and marked when a model is configured, and kept while nothing changes", async () => {
    const root = t.makeRepo({ "calc/add.py": '"""Adding."""\n\n\ndef add(a, b):\n    return a + b\n' });
    const summary = "Adds two numbers; the only arithmetic this project needs.";
    const scripted = scriptedModel([], { generate: [summary, summary, summary, summary] });
    const model = { model: scripted.model, label: "mock:scripted", timeoutMs: 5000 };
    const { stats } = await indexRepository(root, { wikiModel: model });
    expect(stats).toMatchObject({ wikiPages: 3, wikiModelWritten: 3, wikiModel: "mock:scripted" });
    const page = await getWikiPage(stats.generationId, "file/calc/add.py");
    expect(page).toMatchObject({ modelWritten: true, summary });
    // The evidence stays in the body, apart from the model's words.
    expect(page?.content).toContain("**Purpose.** Adding.");
    expect(scripted.model.doGenerateCalls).toHaveLength(3);

    const again = await indexRepository(root, { wikiModel: model });
    expect(again.stats).toMatchObject({ wikiPagesGenerated: 0, wikiPagesReused: 3 });
    expect(scripted.model.doGenerateCalls).toHaveLength(3);
  });

  it("fall back silently to evidence-only pages when the model fails", async () => {
    const root = t.makeRepo({ "calc/sub.py": '"""Subtracting."""\n\n\ndef sub(a, b):\n    return a - b\n' });
    const failing = scriptedModel([], { generate: [] });
    const { stats } = await indexRepository(root, {
      wikiModel: { model: failing.model, label: "mock:failing", timeoutMs: 5000 },
    });
    expect(stats).toMatchObject({ wikiPages: 3, wikiModelWritten: 0 });
    expect(await getWikiPage(stats.generationId, "file/calc/sub.py")).toMatchObject({
      modelWritten: false,
      summary: "Subtracting.",
    });
  });
});
