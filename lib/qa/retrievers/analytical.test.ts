/**
 * Analytical answers compute the figure asked for about what the question names, on real
 * indexes of the shop and planted fixtures (offline engine): a named function's callers
 * and their files, the callers of a function the repository does not define, import
 * cycles, the most imported files, and the opening sentence that states the figure.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { symbolsByName } from "../../db/code-graph.ts";
import { indexFixture, setupQaHome, type IndexedFixture } from "../../../test-support/qa-env.ts";
import { PartLog } from "../../../test-support/qa-model.ts";
import { askQuestion } from "../ask.ts";
import type { DiagramPart } from "../types.ts";
import { importDiagram } from "./analytical-focus.ts";

const PLANTED = fileURLToPath(new URL("../../wiki/__fixtures__/planted", import.meta.url));
const C_SOURCES = fileURLToPath(new URL("../../indexer/__fixtures__/c", import.meta.url));
const WAREHOUSE = fileURLToPath(new URL("./__fixtures__/warehouse", import.meta.url));
const TYPED = fileURLToPath(new URL("./__fixtures__/typed", import.meta.url));
const GEM = fileURLToPath(new URL("./__fixtures__/gem", import.meta.url));

let shop: IndexedFixture;
let planted: IndexedFixture;
let c: IndexedFixture;
let warehouse: IndexedFixture;
let typed: IndexedFixture;
let gem: IndexedFixture;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-analytical-"));
  shop = await indexFixture();
  planted = await indexFixture(PLANTED, "planted");
  c = await indexFixture(C_SOURCES, "c-sources");
  warehouse = await indexFixture(WAREHOUSE, "warehouse");
  typed = await indexFixture(TYPED, "typed");
  gem = await indexFixture(GEM, "gem");
});
afterAll(() => cleanup());

async function analytical(repository: string, question: string) {
  const log = new PartLog();
  const result = await askQuestion({ repository, question, overrides: { mode: "analytical" } }, log, {
    model: null,
    ephemeral: true,
  });
  return {
    result,
    opening: result.loop.answer.split("\n")[0] ?? "",
    diagram: log.data<DiagramPart>("data-diagram").at(-1)?.data,
  };
}

async function span(generationId: string, name: string): Promise<string> {
  const [s] = await symbolsByName(generationId, name);
  return `${s?.path}:${s?.startLine}-${s?.endLine}`;
}

describe("a named function", () => {
  it("is answered with its callers, their files and a diagram of them, not repository-wide counts", async () => {
    const { result, opening, diagram } = await analytical(
      shop.repositoryId,
      "Which parts of the code call into OrderService.place_order, and how do they depend on each other?",
    );
    expect(opening).toBe(
      `1 function in 1 file calls \`OrderService.place_order\` (${await span(shop.generationId, "place_order")}) directly: ` +
        `\`create_order\` (${await span(shop.generationId, "create_order")}). Those files import each other 1 times, most \`shop/api.py\` → \`shop/service.py\` (1).`,
    );
    expect(result.loop.retrieval.rankedFiles.slice(0, 2).sort()).toEqual(["shop/api.py", "shop/service.py"]);
    expect(diagram?.title).toBe("Who calls OrderService.place_order, and what it calls");
    expect(diagram?.nodes.map((n) => n.label)).toEqual(
      expect.arrayContaining(["OrderService.place_order", "create_order"]),
    );
    expect(result.citations.filter((c) => !c.verified).map((c) => c.raw)).toEqual([]);
  });

  it("the repository does not define is answered from the calls as written", async () => {
    const { opening } = await analytical(shop.repositoryId, "Which parts of the shop call round?");
    expect(opening).toMatch(/^2 functions in 1 file call `round`, which the repository does not define: /);
    expect(opening).toContain(`\`compute_total\` (${await span(shop.generationId, "compute_total")})`);
    expect(opening).toContain(`\`apply_coupon\` (${await span(shop.generationId, "apply_coupon")})`);
    // One hop further up: who calls those callers.
    expect(opening).toContain(
      `1 more call those: \`OrderService.place_order\` (${await span(shop.generationId, "place_order")})`,
    );
  });
});

describe("a named part or class", () => {
  it("leads with the part's functions the callers use, then the callers", async () => {
    const { result, opening } = await analytical(
      shop.repositoryId,
      "Which parts of the shop call into shop/pricing.py?",
    );
    expect(opening).toMatch(/^1 function in 1 file outside `shop\/pricing\.py` calls into it/);
    expect(result.loop.retrieval.rankedSymbols.slice(0, 3)).toEqual(
      expect.arrayContaining(["shop/pricing.py::compute_total", "shop/pricing.py::apply_coupon"]),
    );
  });

  it("ranks a class's members the others call beside the class", async () => {
    const { result } = await analytical(
      shop.repositoryId,
      "Which parts of the shop call into OrderService, and how do they depend on each other?",
    );
    const top = result.loop.retrieval.rankedSymbols.slice(0, 5);
    expect(top).toEqual(
      expect.arrayContaining(["shop/service.py::OrderService.place_order", "shop/api.py::create_order"]),
    );
  });

  it("without a resolved caller, is answered from the calls written with its name", async () => {
    const { opening } = await analytical(
      warehouse.repositoryId,
      "Which parts of the code call install_global_sink, and how do they depend on each other?",
    );
    expect(opening).toContain(
      `1 function in 1 file calls \`install_global_sink\` (${await span(warehouse.generationId, "install_global_sink")}) by name`,
    );
    expect(opening).toContain(`\`start_console\` (${await span(warehouse.generationId, "start_console")})`);
  });
});

describe("the users of a named part", () => {
  it("ranks who imports it most, the part being what is used, not the scope", async () => {
    const { result, opening } = await analytical(
      shop.repositoryId,
      "Which modules import shop/pricing.py the most?",
    );
    expect(opening).toMatch(
      /^1 file outside `shop\/pricing\.py` imports or calls it \(.*\); the most: `shop\/service\.py` \(1 import, 2 calls; `OrderService\.place_order`/,
    );
    // What of the part they use, then who uses it.
    expect(result.loop.retrieval.rankedFiles.slice(0, 2)).toEqual(["shop/pricing.py", "shop/service.py"]);
  });

  it.each(["Which files import shop/pricing.py?", "Which modules import shop.pricing the most?"])(
    "answers %j with the importers of the module, written as a path or dotted",
    async (question) => {
      const { opening, result } = await analytical(shop.repositoryId, question);
      expect(opening).toMatch(
        /^1 file outside `shop\/pricing\.py` imports or calls it \(.*\); the most: `shop\/service\.py`/,
      );
      expect(result.loop.answer).toContain("shop/service.py: 1 import, 2 calls");
    },
  );

  it("keeps a path written as a place as the scope", async () => {
    const { opening } = await analytical(
      shop.repositoryId,
      "Which files in shop/ use compute_total the most?",
    );
    expect(opening).not.toMatch(/outside `shop`/);
  });
});

describe("a topic written in prose", () => {
  it("ranks the definitions whose names carry its words", async () => {
    const { result } = await analytical(
      shop.repositoryId,
      "Which parts of the shop depend on the coupon rate lookup, and how are they coupled?",
    );
    // BM25 over chunks alone does not reach them: their names carry the topic's words.
    expect(result.loop.retrieval.rankedSymbols).toEqual(
      expect.arrayContaining(["shop/pricing.py::lookup_rate", "shop/pricing.py::apply_coupon"]),
    );
    expect(result.loop.retrieval.rankedFiles[0]).toBe("shop/pricing.py");
  });
});

describe("the import graph", () => {
  it("states the cycle, in the question's scope", async () => {
    const { opening, diagram } = await analytical(planted.repositoryId, "Are there import cycles in app?");
    expect(opening).toMatch(
      /^One import cycle in `app`: `app\/(a|b)\.py` → `app\/(a|b)\.py` → `app\/(a|b)\.py`/,
    );
    expect(diagram?.kind).toBe("dependencies");
  });

  it("names the hub when asked, the file with the most import links inside the scope", async () => {
    const { opening, result } = await analytical(
      planted.repositoryId,
      "Are there import cycles among the modules in app, and which module is the hub?",
    );
    expect(opening).toMatch(
      /The hub is `(app\/[\w]+\.py)`: it imports \d+ of these files and \d+ import it\./,
    );
    const hub = /The hub is `([^`]+)`/.exec(opening)?.[1];
    expect(result.loop.retrieval.rankedFiles[0]).toBe(hub);
  });

  it("says when there is none", async () => {
    const { opening } = await analytical(planted.repositoryId, "Are there import cycles in cli?");
    expect(opening).toMatch(/^No import cycle in `cli`/);
  });

  it("counts C #includes like any language's imports, in the question's words", async () => {
    const { opening } = await analytical(
      c.repositoryId,
      "Which headers are included by the most other files?",
    );
    expect(opening).toMatch(
      /^The most included files in the repository \(.*\) are `stack\.h` \(included by 2 other files; /,
    );
  });

  it("counts a Java type named by files of its package, which use it without importing it", async () => {
    const { opening } = await analytical(
      warehouse.repositoryId,
      "Which classes are referenced by the most other source files?",
    );
    expect(opening).toMatch(
      /^The files in the repository that the most others depend on \(.*\) are `src\/com\/acme\/stock\/StockLevel\.java` \(used by 2 other files, 0 through imports; /,
    );
  });

  it("ranks by every use where no file imports another (namespace imports)", async () => {
    const { opening } = await analytical(
      warehouse.repositoryId,
      "Which files are imported by the most other files?",
    );
    expect(opening).toMatch(
      /^The files in the repository that the most others depend on .* are `src\/com\/acme\/stock\/StockLevel\.java` \(used by 2 other files/,
    );
  });

  it("ranks by every use where one entry file requires all the others (a Ruby gem)", async () => {
    const { opening, result } = await analytical(
      gem.repositoryId,
      "Which files are required by the most other files?",
    );
    expect(opening).toMatch(
      /^The files in the repository that the most others depend on .* are `lib\/parcel\/weight\.rb` \(used by 3 other files, 1 through requires; /,
    );
    expect(result.loop.retrieval.rankedFiles[0]).toBe("lib/parcel/weight.rb");
  });

  it("counts type-only imports among the importers of a file", async () => {
    const { opening } = await analytical(
      typed.repositoryId,
      "Which modules in src are imported by the most other modules?",
    );
    expect(opening).toMatch(/are `src\/options\.ts` \(imported by 3 other files; /);
  });

  it("ranks the files the most others import", async () => {
    const { opening, result } = await analytical(
      shop.repositoryId,
      "Which modules are imported by the most other files?",
    );
    expect(opening).toMatch(
      /^The most imported files in the repository \(.*left out\) are `shop\/\w+\.py` \(imported by \d+ other files; /,
    );
    expect(result.loop.retrieval.rankedFiles[0]).toMatch(/^shop\//);
  });
});

describe("an import diagram of many files", () => {
  it("draws at most a dozen nodes, the rest grouped in one node with their imports", () => {
    const files = Array.from({ length: 20 }, (_, i) => `src/m${i}.ts`);
    const imports = files.slice(1).map((f) => ({ srcPath: f, dstPath: "src/m0.ts" }));
    const diagram = importDiagram("Most imported", files, imports, new Map(), []);
    expect(diagram?.nodes).toHaveLength(12);
    expect(diagram?.nodes.at(-1)).toMatchObject({ id: "more", label: "+ 9 more files", path: null });
    expect(diagram?.mermaid).toContain("more -->|9| f0");
  });
});
