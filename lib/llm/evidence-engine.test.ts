/**
 * The offline evidence engine through the whole loop on the shop fixture (no model at
 * all): a diagnostic question is answered from the error site with verified
 * citations and gaps that the next pass resolves; exploratory and analytical
 * questions come with their call-flow and dependency diagrams.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { symbolsByName } from "../db/code-graph.ts";
import { askQuestion } from "../qa/ask.ts";
import type { RequestOverrides } from "../qa/config.ts";
import type { DiagramPart, PassPart } from "../qa/types.ts";
import { indexFixture, setupQaHome, type IndexedFixture } from "../test-support/qa-env.ts";
import { PartLog } from "../test-support/qa-model.ts";

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
  it("cites the error site, names gaps, resolves them in pass 2 and verifies every citation", async () => {
    const [charge] = await symbolsByName(fx.generationId, "charge_card");
    const chargeRange = `${charge?.path}:${charge?.startLine}-${charge?.endLine}`;
    const { result, passes, log } = await askOffline(
      "Why does create_order return 402 with PaymentDeclined?",
      { mode: "diagnostic" },
    );

    expect(result.classification).toMatchObject({ mode: "diagnostic", forced: true, source: "forced" });
    expect(result.metadata).toMatchObject({ engine: "evidence", fallback: null });
    // charge_card raises PaymentDeclined: the answer names it with its exact lines.
    expect(result.loop.answer).toMatch(
      new RegExp(`charge_card.*PaymentDeclined.*${chargeRange.replace(/[.]/g, "\\.")}`),
    );
    expect(log.text("answer-1")).toContain(chargeRange);

    const named = passes.get(1)?.gapsIdentified ?? [];
    expect(named.length).toBeGreaterThan(0);
    const reports = passes.get(2)?.gaps ?? [];
    expect(reports.map((r) => r.gap)).toEqual(named);
    expect(reports.every((r) => r.status === "resolved" && r.found.length > 0)).toBe(true);
    // The second pass's answer uses what was found.
    const found = reports.flatMap((r) => r.found);
    expect(found.some((f) => log.text("answer-2").includes(f))).toBe(true);

    expect(result.citations.length).toBeGreaterThan(3);
    expect(result.citations.filter((c) => !c.verified).map((c) => [c.raw, c.reason])).toEqual([]);
    expect(result.citations.some((c) => `${c.path}:${c.startLine}-${c.endLine}` === chargeRange)).toBe(true);
    expect(result.metadata.gapsResolved).toEqual(expect.arrayContaining(named));
    expect(result.metadata.passesUsed).toBeGreaterThanOrEqual(2);
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
    const { result, diagrams } = await askOffline("What calls charge_card?");
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
    // Folder-level modules: the single-package fixture yields its one module, located.
    expect(deps?.nodes.length).toBeGreaterThan(0);
    expect(deps?.nodes.some((n) => n.label === "shop" && n.path?.startsWith("shop/"))).toBe(true);
    expect(deps?.mermaid).toMatch(/^(?:flowchart|graph)\b/m);
  });
});
