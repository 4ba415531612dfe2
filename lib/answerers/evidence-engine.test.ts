/**
 * The offline evidence engine through the whole loop on the shop fixture (no model at
 * all): a diagnostic question is answered from the error site with verified
 * citations and gaps that the next pass resolves; exploratory and analytical
 * questions come with their call-flow and dependency diagrams.
 */
import remarkParse from "remark-parse";
import { unified } from "unified";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { symbolsByName } from "../db/code-graph.ts";
import { askQuestion } from "../qa/ask.ts";
import { reasonNote } from "./evidence-engine.ts";
import type { RequestOverrides } from "../settings/config.ts";
import type { DiagramPart, PassPart } from "../qa/types.ts";
import { indexFixture, setupQaHome, type IndexedFixture } from "../../test-support/qa-env.ts";
import { PartLog } from "../../test-support/qa-model.ts";

let fx: IndexedFixture;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-evidence-"));
  fx = await indexFixture();
});
afterAll(() => cleanup());

async function askOffline(question: string, overrides?: RequestOverrides) {
  const log = new PartLog();
  const result = await askQuestion({ repository: fx.repositoryId, question, overrides }, log, {
    model: null,
  });
  const passes = new Map<number, PassPart>();
  for (const p of log.data<PassPart>("data-pass")) passes.set(p.data.pass, p.data);
  return { result, log, passes, diagrams: log.data<DiagramPart>("data-diagram").map((d) => d.data) };
}

describe("diagnostic", () => {
  it("opens with the raise site and its caller, cited, and stops after one pass when that suffices", async () => {
    const [charge] = await symbolsByName(fx.generationId, "charge_card");
    const [place] = await symbolsByName(fx.generationId, "place_order");
    const range = (s: typeof charge) => `${s?.path}:${s?.startLine}-${s?.endLine}`;
    const { result, passes, log } = await askOffline(
      "Why does create_order return 402 with PaymentDeclined?",
      { mode: "diagnostic" },
    );

    expect(result.classification).toMatchObject({ mode: "diagnostic", forced: true, source: "forced" });
    expect(result.metadata).toMatchObject({ engine: "evidence", fallback: null });
    const [first] = result.loop.answer.split("\n");
    expect(first).toBe(
      `\`PaymentDeclined("card declined by gateway")\` is raised by \`charge_card\` (${range(charge)}) when ` +
        `\`customer in _declined_cards or amount > 10_000\`. It is called from \`OrderService.place_order\` (${range(place)}).`,
    );
    expect(log.text("answer-1")).toContain(range(charge));
    // Everything the question needs is in context: no gap, one pass, stopped as sufficient.
    expect(passes.get(1)?.gapsIdentified).toEqual([]);
    expect(result.metadata).toMatchObject({ passesUsed: 1, stopReason: "sufficient" });
    expect(result.citations.filter((c) => !c.verified).map((c) => [c.raw, c.reason])).toEqual([]);
    expect(result.citations.some((c) => `${c.path}:${c.startLine}-${c.endLine}` === range(charge))).toBe(
      true,
    );
    // No evidence line is repeated.
    const bullets = result.loop.answer.split("\n").filter((l) => l.trim().startsWith("- "));
    expect(new Set(bullets).size).toBe(bullets.length);
    // Each kind of reason is said once in "Relevant code", however many items share it.
    const section = result.loop.answer.split("**Relevant code**")[1]?.split("\n\n")[0] ?? "";
    const notes = [...section.matchAll(/\*\(([^)]*)\)\*/g)].map((m) => m[1]);
    expect(section.split("\n").filter((l) => l.includes("— ")).length).toBeGreaterThan(notes.length);
    expect(new Set(notes).size).toBe(notes.length);
  });

  it("names a function the question asks about that is not in context, and the next pass looks it up", async () => {
    const { result, passes } = await askOffline(
      "Why does create_order return 402 with PaymentDeclined? Is block_card involved, or fraud_screen?",
      { mode: "diagnostic", quality: "thorough" },
    );
    const named = passes.get(1)?.gapsIdentified ?? [];
    expect(named).toContain("fraud_screen()");
    // Only what the question names: never the callees of the context that do not bear on it.
    expect(named.every((g) => /fraud_screen|block_card/.test(g))).toBe(true);
    const report = passes.get(2)?.gaps.find((g) => g.gap === "fraud_screen()");
    expect(report).toMatchObject({ status: "unresolved" });
    expect(result.metadata.gapsUnresolved).toContain("fraud_screen()");
  });
});

describe("diagrams", () => {
  it("traces a call flow for an exploratory question", async () => {
    const { result, diagrams } = await askOffline("Trace what happens when create_order is called");
    expect(result.classification.mode).toBe("exploratory");
    const flow = diagrams.find((d) => d.kind === "call-flow");
    expect(flow).toBeDefined();
    expect(flow?.mermaid).toMatch(/^(?:flowchart|graph)\b/m);
    const byLabel = new Map(flow?.nodes.map((n) => [n.label, n]));
    expect([...byLabel.keys()].join(" ")).toMatch(
      /create_order[\s\S]*place_order|place_order[\s\S]*create_order/,
    );
    for (const node of flow?.nodes ?? []) {
      expect(node.path, node.label).toMatch(/^shop\/\w+\.py$/);
      expect(node.startLine).toBeGreaterThan(0);
    }
    expect(flow?.nodes.find((n) => n.label.includes("create_order"))?.path).toBe("shop/api.py");
  });

  it("answers 'what calls X' with the callers, two hops up, cited and in the diagram", async () => {
    const [charge] = await symbolsByName(fx.generationId, "charge_card");
    const [place] = await symbolsByName(fx.generationId, "place_order");
    const [create] = await symbolsByName(fx.generationId, "create_order");
    // Asked in exploratory mode: the flow's answer carries the callers as a tree.
    const { result, diagrams } = await askOffline("What calls charge_card?", { mode: "exploratory" });
    expect(result.classification.mode).toBe("exploratory");
    const answer = result.loop.answer;
    const calledBy = answer.slice(answer.indexOf("**Called by**"), answer.indexOf("**Call flow**"));
    expect(calledBy).toContain("**Called by**");
    const range = (s: typeof charge) => `${s?.path}:${s?.startLine}-${s?.endLine}`;
    // charge_card, then its caller place_order one level in, then create_order below that.
    const at = (s: typeof charge) => calledBy.split("\n").find((l) => l.includes(range(s))) ?? "";
    expect(at(charge)).toMatch(/^- `charge_card`/);
    expect(at(place)).toMatch(/^ {2}- `OrderService\.place_order`/);
    expect(at(create)).toMatch(/^ {4}- `create_order`/);
    expect(result.citations.filter((c) => !c.verified).map((c) => c.raw)).toEqual([]);
    const flow = diagrams.find((d) => d.kind === "call-flow");
    const id = (label: string) => flow?.nodes.find((n) => n.label === label)?.id;
    expect(flow?.mermaid).toContain(`${id("OrderService.place_order")} --> ${id("charge_card")}`);
    expect(flow?.mermaid).toContain(`${id("create_order")} --> ${id("OrderService.place_order")}`);
    expect(flow?.title).toBe("Callers and call flow of the entry point");
  });

  it("routes 'what calls X' to the callers' census, with the flow retrieved beside it", async () => {
    const { result } = await askOffline("What calls charge_card?");
    expect(result.classification.mode).toBe("analytical");
    expect(result.classification.secondaryMode).toBe("exploratory");
    expect(result.loop.answer).toMatch(/calls? `charge_card`/);
    expect(result.loop.answer).toContain("place_order");
  });

  it("leaves callers out when the question does not ask for them", async () => {
    const { result, diagrams } = await askOffline("Trace what happens when create_order is called");
    expect(result.loop.answer).not.toContain("**Called by**");
    expect(diagrams.find((d) => d.kind === "call-flow")?.title).toBe("Call flow from the entry point");
  });

  it("draws module dependencies for an analytical question", async () => {
    const { result, diagrams } = await askOffline(
      "Assess the architecture of the shop package: how coupled are its modules?",
    );
    expect(result.classification.mode).toBe("analytical");
    const deps = diagrams.find((d) => d.kind === "dependencies");
    expect(deps).toBeDefined();
    // The single-package fixture: the shop folder framed, its files inside, each located.
    expect(deps?.mermaid).toMatch(/^graph LR\n {2}subgraph here\["shop"\]/);
    expect(deps?.nodes.length).toBeGreaterThan(0);
    expect(deps?.nodes.every((n) => n.path?.startsWith("shop/"))).toBe(true);
  });
});

describe("a relevant-code line's reason", () => {
  it.each([
    "in src/_pytest/main.py, named in the question (wrap_session); see my_module",
    "named in the question (__init__, *args, **kwargs)",
  ])("stays one italic run with the underscores of the paths and names it holds: %s", (reason) => {
    type Node = { type: string; value?: string; children?: Node[] };
    const emphasis: string[] = [];
    const textOf = (node: Node): string => {
      const text = node.value ?? (node.children ?? []).map(textOf).join("");
      if (node.type === "emphasis") emphasis.push(text);
      return text;
    };
    const paragraph = textOf(
      unified()
        .use(remarkParse)
        .parse(`x ${reasonNote(reason)} y`) as Node,
    );
    expect(emphasis).toEqual([`(${reason})`]);
    expect(paragraph).toBe(`x (${reason}) y`);
  });
});
