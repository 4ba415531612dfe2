/**
 * The CGRAG loop end to end over a real index of the shop fixture, with only the
 * language model scripted: how many passes run, what gap resolution adds to the next
 * pass's prompt, every stop condition, the session's cache and not-found set across
 * questions (and their expiry), and the pass limits set by overrides and presets.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { symbolsByName } from "../db/code-graph.ts";
import { db } from "../db/client.ts";
import { EvidenceEngine } from "../answerers/evidence-engine.ts";
import { ModelAnswerer } from "../answerers/model-answerer.ts";
import { indexFixture, setupQaHome, type IndexedFixture } from "../../test-support/qa-env.ts";
import { realLoop } from "../../test-support/qa-loop.ts";
import { PartLog, scriptedModel, tagged, type Reply } from "../../test-support/qa-model.ts";
import { askQuestion, type AskRequest } from "./ask.ts";
import { effectiveConfig, type RequestOverrides } from "../settings/config.ts";
import { normalizeGap } from "../answerers/gap-format.ts";
import { runLoop } from "./loop.ts";
import type { GapReport, PassPart } from "./types.ts";

let fx: IndexedFixture;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-loop-"));
  fx = await indexFixture();
});
afterAll(() => cleanup());

// Diagnostic retrieval for this question brings create_order, place_order, charge_card and
// PaymentDeclined, but nothing from shop/pricing.py: those are what later passes can add.
const QUESTION = "Why does create_order return 402 with PaymentDeclined?";
const MISSING_GAP = "frobnicate_ledger in shop/ledger.py";

async function where(name: string): Promise<string> {
  const [symbol] = await symbolsByName(fx.generationId, name);
  if (!symbol) throw new Error(`fixture has no symbol ${name}`);
  return `${symbol.path}:${symbol.startLine}-${symbol.endLine}`;
}

async function ask(
  replies: Reply[],
  options: { question?: string; sessionId?: string; overrides?: RequestOverrides; settings?: unknown } = {},
) {
  const scripted = scriptedModel(replies);
  const log = new PartLog();
  const request: AskRequest = {
    repository: fx.repositoryId,
    question: options.question ?? QUESTION,
    sessionId: options.sessionId,
    overrides: { mode: "diagnostic", ...options.overrides },
  };
  const result = await askQuestion(request, log, {
    model: null,
    answerer: new ModelAnswerer(scripted.model, "mock:test", 5000),
    settings: options.settings,
  });
  // The last state of each pass part, as the client ends up showing it.
  const passes = new Map<string, PassPart>();
  for (const p of log.data<PassPart>("data-pass")) passes.set(p.id ?? "", p.data);
  return { result, log, scripted, passes };
}

const gapReport = (pass: PassPart | undefined, gap: string): GapReport | undefined =>
  pass?.gaps.find((g) => g.gap === gap);

describe("passes", () => {
  it("answers in one pass when the model names no gaps (it judged the context sufficient)", async () => {
    const { result, scripted, passes, log } = await ask([
      tagged("`charge_card` raises it (shop/payments.py:12-19).", "NONE"),
    ]);
    expect(scripted.streamCalls).toBe(1);
    expect(result.metadata.passesUsed).toBe(1);
    expect(result.metadata.stopReason).toBe("sufficient");
    expect([...passes.keys()]).toEqual(["pass-1"]);
    expect(passes.get("pass-1")?.stopReason).toBe("sufficient");
    expect(log.ofType("text-start").map((p) => p.id)).toEqual(["answer-1"]);
    expect(result.metadata.engine).toBe("mock:test");
  });

  it("resolves named gaps and answers again with their definitions in context", async () => {
    const lookupRate = await where("lookup_rate");
    const computeTotal = await where("compute_total");
    const { result, scripted, passes, log } = await ask([
      tagged("Pricing may fail before the charge.", ["lookup_rate in shop/pricing.py", "compute_total()"]),
      tagged("`lookup_rate` raises KeyError (shop/pricing.py:22-25).", "NONE"),
    ]);
    expect(scripted.streamCalls).toBe(2);
    expect(result.metadata.passesUsed).toBe(2);
    expect(result.metadata.stopReason).toBe("sufficient");

    const [first, second] = scripted.prompts();
    expect(first).not.toContain("def lookup_rate");
    // The second pass's prompt carries the resolved definitions, under their locations.
    expect(second).toContain("def lookup_rate(code: str) -> float:");
    expect(second).toContain(lookupRate);
    expect(second).toContain("def compute_total(items: list) -> float:");

    const pass2 = passes.get("pass-2");
    expect(gapReport(pass2, "lookup_rate in shop/pricing.py")).toMatchObject({
      status: "resolved",
      via: "direct",
      found: [lookupRate],
    });
    expect(gapReport(pass2, "compute_total()")).toMatchObject({
      status: "resolved",
      via: "function",
      found: [computeTotal],
    });
    expect(pass2?.added.map((a) => `${a.path}:${a.startLine}-${a.endLine}`)).toEqual(
      expect.arrayContaining([lookupRate, computeTotal]),
    );
    expect(result.metadata.gapsResolved).toEqual(
      expect.arrayContaining(["lookup_rate in shop/pricing.py", "compute_total()"]),
    );
    expect(result.metadata.gapsUnresolved).toEqual([]);
    // Each pass streams its own text part; the stored message keeps only the final one.
    expect(log.ofType("text-start").map((p) => p.id)).toEqual(["answer-1", "answer-2"]);
    expect(result.message.parts.filter((p) => p.type === "text")).toHaveLength(1);
    // The user sees each pass's answer without the markup or the gap list.
    expect(log.text("answer-1").trim()).toBe("Pricing may fail before the charge.");
    expect(log.text("answer-2").trim()).toBe("`lookup_rate` raises KeyError (shop/pricing.py:22-25).");
    for (const d of log.ofType("text-delta"))
      expect(d.delta).not.toMatch(/<\/?(?:answer|missing|reasoning)|lookup_rate in shop/);
  });

  it("stops at the pass limit while gaps keep coming", async () => {
    const { result, scripted, passes } = await ask([
      tagged("a", ["compute_total in shop/pricing.py"]),
      tagged("b", ["apply_coupon in shop/pricing.py"]),
      tagged("c", ["lookup_rate in shop/pricing.py"]),
    ]);
    expect(result.metadata.maxPasses).toBe(3);
    expect(scripted.streamCalls).toBe(3);
    expect(result.metadata.passesUsed).toBe(3);
    expect(result.metadata.stopReason).toBe("max-passes");
    expect(passes.get("pass-3")?.stopReason).toBe("max-passes");
    expect(passes.has("pass-4")).toBe(false);
    // Named in the last pass and never fetched: reported, not silently dropped.
    expect(result.metadata.gapsUnresolved).toContain("lookup_rate in shop/pricing.py");
  });

  it("stops with no-new-context when gaps only point at what is already in context", async () => {
    const chargeCard = await where("charge_card");
    const { result, scripted, passes } = await ask([
      tagged("It is charge_card.", ["charge_card in shop/payments.py"]),
    ]);
    // The loop does not ask the model again for an unchanged context.
    expect(scripted.streamCalls).toBe(1);
    expect(result.metadata.stopReason).toBe("no-new-context");
    const pass2 = passes.get("pass-2");
    expect(pass2?.stopReason).toBe("no-new-context");
    expect(pass2?.added).toEqual([]);
    expect(gapReport(pass2, "charge_card in shop/payments.py")).toMatchObject({
      status: "resolved",
      via: "cache",
      found: [chargeCard],
    });
    expect(result.metadata.passesUsed).toBe(1);
  });
});

describe("budget", () => {
  it("stops after pass 1 when there is no gap budget at all", async () => {
    const { result, scripted, passes } = await ask([tagged("a", ["lookup_rate in shop/pricing.py"])], {
      settings: { gapResolutionBudget: 0 },
    });
    expect(scripted.streamCalls).toBe(1);
    expect(result.metadata.stopReason).toBe("budget-exhausted");
    expect(passes.has("pass-2")).toBe(false);
    expect(result.metadata.budget).toMatchObject({ gapBudget: 0, gapUsed: 0 });
  });

  it("stops once the gap budget is too small for another gap", async () => {
    const settings = { gapResolutionBudget: 100, perGapBudget: 100, perPassGapBudget: [100] };
    const { result, scripted, passes } = await ask(
      [
        tagged("a", ["compute_total in shop/pricing.py", "lookup_rate in shop/pricing.py"]),
        tagged("b", ["apply_coupon in shop/pricing.py"]),
      ],
      { settings },
    );
    expect(scripted.streamCalls).toBe(2);
    expect(result.metadata.stopReason).toBe("budget-exhausted");
    expect(passes.get("pass-2")?.stopReason).toBe("budget-exhausted");
    const { budget } = result.metadata;
    expect(budget.gapUsed).toBeGreaterThan(100 - 60);
    expect(budget.gapUsed).toBeLessThanOrEqual(100);
    expect(budget.perPass).toEqual([budget.initial, budget.gapUsed]);
    expect(budget.used).toBe(budget.initial + budget.gapUsed);
  });
});

describe("a close call between two modes", () => {
  it("retrieves for both, says so in the timeline, and answers in the first mode", async () => {
    const question = "Where is the order total computed?";
    const both = realLoop(fx, {
      question,
      mode: "exploratory",
      secondaryMode: "conceptual",
      answerer: new EvidenceEngine(),
    });
    const one = realLoop(fx, { question, mode: "exploratory", answerer: new EvidenceEngine() });
    const labels: string[] = [];
    const fused = await runLoop(both.input, both.deps, { onPass: (p) => labels.push(p.label) });
    const single = await runLoop(one.input, one.deps);
    expect(labels[0]).toBe("Retrieving exploratory or conceptual: retrieved for both…");
    expect(fused.passes[0]?.part.label).toBe(
      "Answered from the initial retrieval (exploratory or conceptual: retrieved for both)",
    );
    // The conceptual side brings what the exploratory walk alone does not.
    const keys = (items: { key: string }[]) => new Set(items.map((i) => i.key));
    expect([...keys(fused.retrieval.items)].some((k) => !keys(single.retrieval.items).has(k))).toBe(true);
    expect(fused.retrieval.rankedFiles).toContain("shop/pricing.py");
  });
});

describe("unresolvable gaps", () => {
  it("stops when every gap is already known to be unresolvable, without retrying it", async () => {
    const scripted = scriptedModel([
      tagged("a", [MISSING_GAP, "lookup_rate in shop/pricing.py"]),
      tagged("b", [MISSING_GAP]),
      tagged("c", "NONE"),
    ]);
    const loop = realLoop(fx, {
      question: QUESTION,
      mode: "diagnostic",
      answerer: new ModelAnswerer(scripted.model, "mock:test", 5000),
    });
    const result = await runLoop(loop.input, loop.deps);

    expect(result.stopReason).toBe("all-gaps-unresolvable");
    expect(result.passesUsed).toBe(2);
    // The resolver saw the missing name once (pass 2) and was not called for pass 3.
    expect(loop.resolverCalls).toEqual([[MISSING_GAP, "lookup_rate in shop/pricing.py"]]);
    expect(loop.input.notFound.has(normalizeGap(MISSING_GAP))).toBe(true);
    const report = result.passes[1]?.part.gaps.find((g) => g.gap === MISSING_GAP);
    expect(report?.status).toBe("unresolved");
    expect(report?.searched.length).toBeGreaterThan(0);
    expect(result.gapsUnresolved).toEqual([MISSING_GAP]);
    expect(result.gapsResolved).toEqual(["lookup_rate in shop/pricing.py"]);
    // The model is told not to ask again.
    expect(scripted.prompts()[1]).toContain("Known to be unavailable");
  });

  it("leaves a named function that does not exist unresolved, though code shares its words", async () => {
    // No apply_discount in the shop; apply_coupon and pricing.py's "Totals and discounts." share its words.
    const { result, passes } = await ask([tagged("a", ["apply_discount()"]), tagged("b", "NONE")]);
    const report = gapReport(passes.get("pass-2"), "apply_discount()");
    expect(report).toMatchObject({ status: "unresolved", found: [] });
    expect(report?.searched.some((s) => s.startsWith("semantic search"))).toBe(true);
    expect(result.metadata.gapsUnresolved).toEqual(["apply_discount()"]);
    expect(result.metadata.gapsResolved).toEqual([]);
  });

  it("skips gaps the session already knows are unresolvable in a follow-up question", async () => {
    const sessionId = "session-notfound-01";
    const first = await ask([tagged("a", [MISSING_GAP]), tagged("b", "NONE")], { sessionId });
    expect(first.passes.get("pass-2")?.gaps[0]).toMatchObject({ gap: MISSING_GAP, status: "unresolved" });

    const second = await ask([tagged("c", [MISSING_GAP])], {
      sessionId,
      question: "Where is PaymentDeclined raised?",
    });
    expect(second.result.sessionId).toBe(sessionId);
    expect(second.scripted.streamCalls).toBe(1);
    expect(second.result.metadata.stopReason).toBe("all-gaps-unresolvable");
    // No second pass: the resolver was never asked for it again.
    expect(second.passes.has("pass-2")).toBe(false);
    expect(second.result.metadata.gapsUnresolved).toEqual([MISSING_GAP]);
    expect(second.scripted.prompts()[0]).toMatch(/Known to be unavailable[\s\S]*frobnicate_ledger/);
  });
});

describe("sessions", () => {
  it("reuses cached context and the conversation in a follow-up", async () => {
    const sessionId = "session-reuse-0001";
    const first = await ask([tagged("`charge_card` raises it.", "NONE")], {
      sessionId,
      question: "Why does charge_card raise PaymentDeclined?",
    });
    expect(first.result.metadata.contextFromCache).toBe(false);

    const second = await ask([tagged("It is called by place_order.", "NONE")], {
      sessionId,
      question: "Who calls it?",
      overrides: { mode: "exploratory" },
    });
    expect(second.result.sessionId).toBe(sessionId);
    // "it" is rewritten from the previous turn before retrieval.
    expect(second.result.classification.rewrittenQuestion).toContain("charge_card");
    expect(second.result.metadata.contextFromCache).toBe(true);
    // The earlier answer's source for charge_card comes back from the session cache.
    const [charge] = await symbolsByName(fx.generationId, "charge_card");
    const cached = second.result.loop.context.filter((i) => i.origin === "cache");
    expect(
      cached.some(
        (i) =>
          i.path === charge?.path &&
          i.startLine <= (charge?.startLine ?? 0) &&
          i.endLine >= (charge?.endLine ?? 0),
      ),
    ).toBe(true);
    const prompt = second.scripted.prompts()[0] ?? "";
    expect(prompt).toContain("Earlier in this conversation");
    expect(prompt).toContain("Why does charge_card raise PaymentDeclined?");
    expect(second.log.data("data-notice")).toEqual([]);
  });

  it("drops the cache and the not-found set of an expired session, with a notice", async () => {
    const sessionId = "session-expiry-001";
    await ask([tagged("a", [MISSING_GAP]), tagged("b", "NONE")], {
      sessionId,
      question: "Why does charge_card raise PaymentDeclined?",
    });
    const client = await db();
    await client.session.update({
      where: { id: sessionId },
      data: { lastAccessedAt: new Date(Date.now() - 2 * 60 * 60_000) },
    });

    const second = await ask([tagged("c", [MISSING_GAP]), tagged("d", "NONE")], {
      sessionId,
      question: "Why does charge_card raise PaymentDeclined?",
    });
    const notices = second.log.data<{ code: string }>("data-notice").map((n) => n.data.code);
    expect(notices).toContain("session_refreshed");
    expect(second.result.metadata.contextFromCache).toBe(false);
    expect(second.result.loop.context.some((i) => i.origin === "cache")).toBe(false);
    // A fresh not-found set: the gap is looked up again instead of being skipped.
    expect(second.passes.get("pass-2")?.gaps[0]).toMatchObject({ gap: MISSING_GAP, status: "unresolved" });
    expect(second.scripted.prompts()[0]).not.toContain("Known to be unavailable");
  });
});

describe("pass limits from the request", () => {
  const resolvable = [
    tagged("a", ["compute_total in shop/pricing.py"]),
    tagged("b", ["apply_coupon in shop/pricing.py"]),
    tagged("c", ["lookup_rate in shop/pricing.py"]),
    tagged("d", ["block_card in shop/payments.py"]),
    tagged("e", ["get_order in shop/api.py"]),
  ];

  it("gives a single pass when overrides lower maxPasses to 1", async () => {
    const { result, scripted, passes } = await ask(resolvable, { overrides: { maxPasses: 1 } });
    expect(scripted.streamCalls).toBe(1);
    expect(result.metadata.maxPasses).toBe(1);
    expect(result.metadata.stopReason).toBe("max-passes");
    expect([...passes.keys()]).toEqual(["pass-1"]);
  });

  it("quick runs one pass, thorough at least four", async () => {
    expect(effectiveConfig({ overrides: { quality: "quick" } }).maxPasses).toBe(1);
    expect(effectiveConfig({ overrides: { quality: "thorough" } }).maxPasses).toBeGreaterThanOrEqual(4);

    const quick = await ask(resolvable, { overrides: { quality: "quick" } });
    expect(quick.result.metadata).toMatchObject({ quality: "quick", maxPasses: 1, passesUsed: 1 });

    const thorough = await ask(resolvable, { overrides: { quality: "thorough" } });
    expect(thorough.result.metadata.maxPasses).toBeGreaterThanOrEqual(4);
    expect(thorough.result.metadata.passesUsed).toBe(thorough.result.metadata.maxPasses);
    expect(thorough.scripted.streamCalls).toBe(thorough.result.metadata.maxPasses);
  });
});
