/**
 * The wiki and the issues store at question time, end to end through askQuestion with
 * the offline engine (no model): a conceptual question is answered from wiki pages
 * first, and an analytical question about a folder gets the structure metrics, the
 * issues store's findings (high severity first) and a dependency diagram from edges.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askQuestion } from "../qa/ask.ts";
import { resolveScope } from "../qa/retrievers/analytical.ts";
import type { ClassificationPart, DiagramPart, PassPart } from "../qa/types.ts";
import { indexFixture, setupQaHome, type IndexedFixture } from "../../test-support/qa-env.ts";
import { PartLog } from "../../test-support/qa-model.ts";

const PLANTED = fileURLToPath(new URL("./__fixtures__/planted", import.meta.url));

let shop: IndexedFixture;
let planted: IndexedFixture;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-wiki-qa-"));
  shop = await indexFixture();
  planted = await indexFixture(PLANTED, "planted");
});
afterAll(() => cleanup());

async function ask(repository: string, question: string) {
  const log = new PartLog();
  const result = await askQuestion({ repository, question }, log, { model: null, ephemeral: true });
  const passes = log.data<PassPart>("data-pass").map((p) => p.data);
  const firstPass = passes.filter((p) => p.pass === 1).at(-1);
  return { result, log, firstPass };
}

describe("conceptual questions", () => {
  it("retrieve the code that defines the concept, then its file's wiki page, and cite both", async () => {
    const { result, log, firstPass } = await ask(
      shop.repositoryId,
      "What is the order service for and how does it fit in?",
    );
    expect(log.data<ClassificationPart>("data-classification").at(-1)?.data.mode).toBe("conceptual");
    const added = firstPass?.added ?? [];
    // The definition leads (its name carries the concept), not a page that mentions it.
    expect(added[0]).toMatchObject({ title: "OrderService", path: "shop/service.py" });
    expect(added.find((a) => a.title === "Wiki: shop/service.py")?.reason).toContain("wiki page");
    // The answer opens with that definition, cited.
    expect(result.loop.answer.split("\n")[0]).toMatch(/`OrderService` \(shop\/service\.py:\d+-\d+\)/);
    expect(result.loop.context.filter((i) => i.kind === "wiki").map((i) => i.title)).toContain(
      "Wiki: shop/service.py",
    );
    // A file's wiki page cites the lines of its file that answer (or the whole file when
    // nothing in it matches), and the citation checks out against the index.
    const wiki = result.loop.context.find((i) => i.title === "Wiki: shop/service.py");
    const span = wiki?.focus ?? wiki;
    const cited = `shop/service.py:${span?.startLine}-${span?.endLine}`;
    expect(result.loop.answer).toContain(cited);
    // (Overlapping citations of one file are listed once, spanning them all.)
    const entry = result.citations.find((c) => c.raw === cited || c.alsoCites?.includes(cited));
    expect(entry?.verified).toBe(true);
  });
});

describe("analytical scope", () => {
  it("is resolved against the index: a path, a named package, a dotted module; nothing else", async () => {
    const g = planted.generationId;
    expect(await resolveScope(g, "Assess the coupling of svc/main.go", null)).toBe("svc/main.go");
    expect(await resolveScope(g, "How coupled is the store package?", null)).toBe("store");
    expect(await resolveScope(g, "What is wrong with app.handlers?", null)).toBe("app/handlers.py");
    expect(await resolveScope(g, "How coupled is the billing package?", null)).toBeNull();
    // The classifier's scope wins when files live under it.
    expect(await resolveScope(g, "Assess the structure", "web")).toBe("web");
  });

  it("keeps the answer's files and citations inside it, and says what it was", async () => {
    const { result } = await ask(planted.repositoryId, "Which functions in svc have the highest fan-out?");
    expect(result.loop.retrieval.rankedFiles.length).toBeGreaterThan(0);
    expect(result.loop.retrieval.rankedFiles.every((f) => f.startsWith("svc/"))).toBe(true);
    expect(result.citations.length).toBeGreaterThan(0);
    expect(result.citations.every((c) => c.path.startsWith("svc"))).toBe(true);
    // It opens with the figure asked for, in the scope asked about.
    expect(result.loop.answer.split("\n")[0]).toMatch(/^The highest fan-out in `svc` \(.*\): `\w+/);
  });
});

describe("analytical questions", () => {
  it("get metrics, findings and a diagram for the folder they name", async () => {
    const { result, log } = await ask(
      planted.repositoryId,
      "How well is the app package structured? Assess coupling, cycles and hotspots.",
    );
    const classification = log.data<ClassificationPart>("data-classification").at(-1)?.data;
    expect(classification).toMatchObject({ mode: "analytical", scope: "app" });

    const structure = result.loop.context.find((i) => i.kind === "structure");
    expect(structure?.title).toBe("Structure of app");
    expect(structure?.text).toContain(
      "Boundary of app (11 files): 1 imports and 1 calls come in, 0 imports and 0 calls go out",
    );
    expect(structure?.text).toContain("- depended on by: cli (2)");
    expect(structure?.text).toContain(
      "- app: afferent 1, efferent 0, instability 0, calls in 1, calls out 0",
    );
    expect(structure?.text).toMatch(/Findings \(issues store: .*\), high severity first:/);
    const findings = (structure?.text ?? "").split("\n").filter((l) => l.startsWith("- ["));
    expect(findings[0]).toBe(
      "- [high] swallowed-exception: except: pass in load_settings [app/silent.py:11-12]",
    );
    for (const category of [
      "god-function",
      "hotspot",
      "call-cycle",
      "import-cycle",
      "module-state",
      "todo-density",
    ])
      expect(
        findings.some((l) => l.includes(`] ${category}: `)),
        category,
      ).toBe(true);
    // Findings outside the scope stay out.
    expect(structure?.text).not.toContain("svc/main.go");

    // The scope's wiki page comes along, and the flagged code itself.
    expect(result.loop.context.some((i) => i.kind === "wiki" && i.title === "Wiki: app/")).toBe(true);
    expect(result.loop.context.some((i) => i.facts?.qualifiedName === "orchestrate")).toBe(true);

    const diagram = log.data<DiagramPart>("data-diagram").at(-1)?.data;
    expect(diagram?.kind).toBe("dependencies");
    expect(diagram?.mermaid).toMatch(/^graph LR/);
    expect(diagram?.mermaid).toContain('["a.py"]');
    expect(diagram?.nodes.some((n) => n.path === "app/a.py")).toBe(true);

    // The offline answer reports the findings, each with its location.
    expect(result.loop.answer).toContain(
      "**high** swallowed-exception: except: pass in load_settings — app/silent.py:11-12",
    );
  });

  it("without a scope describe the whole repository's modules", async () => {
    const { result, log } = await ask(
      planted.repositoryId,
      "Review the architecture: which modules depend on which, and where are the cycles?",
    );
    expect(log.data<ClassificationPart>("data-classification").at(-1)?.data.mode).toBe("analytical");
    const structure = result.loop.context.find((i) => i.kind === "structure");
    expect(structure?.text).toContain("Modules (");
    expect(structure?.text).toContain("Cycles: app/a.py → app/b.py → app/a.py");
    expect(structure?.text).toContain("svc/main.go");
    expect(log.data<DiagramPart>("data-diagram").at(-1)?.data.title).toBe(
      "Module dependencies: imports between folders",
    );
  });
});
