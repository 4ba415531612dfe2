/**
 * Training and evaluating the learned symbol ranker (symbol-ranker.ts): a linear model
 * fitted pairwise — within a question, each expected candidate's score against each other
 * candidate's, by logistic loss — with a weight vector shared by every mode plus one
 * per mode, each held near zero by its own L2 penalty (the per-mode ones harder, so a mode
 * moves away from the others only where its data agrees). Full-batch gradient descent
 * from zero weights in a fixed order: the same data gives the same weights. Pure; the
 * command that reads the dump and writes the weights is training/symbols/train.ts.
 */
import { baseQualifiedId } from "../../db/symbol-ids.ts";
import type { QueryMode } from "../types.ts";
import { FEATURE_NAMES } from "./symbol-features.ts";
import { modelOrder, type RankerModel } from "./symbol-ranker.ts";

export type ExpectedEntry = string | string[];

/** One question's candidates, as the dump writes them. */
export interface RankingExample {
  id: string;
  corpus: string;
  expectedMode: QueryMode;
  mode: QueryMode;
  expected: ExpectedEntry[];
  candidates: { id: string; label: 0 | 1; features: number[] }[];
}

export interface RankerTrainOptions {
  topN: number;
  iterations: number;
  learningRate: number;
  sharedL2: number;
  modeL2: number;
}

export const DEFAULT_RANKER_OPTIONS: RankerTrainOptions = {
  topN: 30,
  iterations: 400,
  learningRate: 0.5,
  sharedL2: 0.01,
  modeL2: 0.1,
};

const MODES: QueryMode[] = ["conceptual", "diagnostic", "exploratory", "analytical"];

/** Fits the model on the examples (those with no expected candidate among the first topN teach nothing). */
export function trainRanker(examples: RankingExample[], options = DEFAULT_RANKER_OPTIONS): RankerModel {
  const width = FEATURE_NAMES.length;
  const shared = new Array<number>(width).fill(0);
  const perMode = Object.fromEntries(MODES.map((m) => [m, new Array<number>(width).fill(0)])) as Record<
    QueryMode,
    number[]
  >;
  const usable = examples
    .map((e) => ({ ...e, candidates: e.candidates.slice(0, options.topN) }))
    .filter((e) => e.candidates.some((c) => c.label === 1));
  const n = Math.max(1, usable.length);
  for (let it = 0; it < options.iterations; it++) {
    const gShared = new Array<number>(width).fill(0);
    const gMode = Object.fromEntries(MODES.map((m) => [m, new Array<number>(width).fill(0)])) as Record<
      QueryMode,
      number[]
    >;
    for (const e of usable) {
      const g = pairGradient(e, shared, perMode[e.mode], n);
      g.forEach((x, i) => {
        gShared[i]! += x;
        gMode[e.mode][i]! += x;
      });
    }
    for (let i = 0; i < width; i++) {
      shared[i]! -= options.learningRate * (gShared[i]! + options.sharedL2 * shared[i]!);
      for (const m of MODES)
        perMode[m][i]! -= options.learningRate * (gMode[m][i]! + options.modeL2 * perMode[m][i]!);
    }
  }
  const round = (v: number[]) => v.map((x) => Math.round(x * 1e6) / 1e6);
  return {
    version: 1,
    features: [...FEATURE_NAMES],
    topN: options.topN,
    shared: round(shared),
    perMode: Object.fromEntries(MODES.map((m) => [m, round(perMode[m])])),
    trained: { questions: examples.length, usable: usable.length, options },
  };
}

/**
 * The gradient of one question's pairwise logistic loss: every expected candidate against
 * every other, each pair weighing 1 / (pairs × questions), so each question counts once.
 */
function pairGradient(e: RankingExample, shared: number[], own: number[], questions: number): number[] {
  const g = new Array<number>(shared.length).fill(0);
  const scores = e.candidates.map((c) => c.features.reduce((s, x, i) => s + x * (shared[i]! + own[i]!), 0));
  const pos = e.candidates.flatMap((c, k) => (c.label === 1 ? [k] : []));
  const neg = e.candidates.flatMap((c, k) => (c.label === 1 ? [] : [k]));
  const pairs = pos.length * neg.length * questions;
  for (const a of pos) {
    for (const b of neg) {
      // d/ds of log(1 + exp(-(s_a - s_b))): pushes s_a up and s_b down
      const d = -1 / (1 + Math.exp(scores[a]! - scores[b]!)) / pairs;
      const fa = e.candidates[a]!.features;
      const fb = e.candidates[b]!.features;
      for (let i = 0; i < g.length; i++) g[i]! += d * (fa[i]! - fb[i]!);
    }
  }
  return g;
}

/** A question's candidate ids in the model's order (the current order without a model). */
export function rankedIds(example: RankingExample, model: RankerModel | null): string[] {
  const ids = example.candidates.map((c) => c.id);
  if (!model) return ids;
  const head = example.candidates.slice(0, model.topN);
  const order = modelOrder(
    model,
    example.mode,
    head.map((c) => c.id),
    head.map((c) => c.features),
  );
  return [...order, ...ids.slice(head.length)];
}

export interface RankingFigures {
  questions: number;
  /** every expected entry in the first five */
  hit5: number;
  /** each expected entry counted on its own */
  each5: number;
  hit1: number;
}

/** hit@5, each-entry@5 and hit@1 (percentages, one decimal) of ranked id lists against their expectations. */
export function rankingFigures(rows: { ranked: string[]; expected: ExpectedEntry[] }[]): RankingFigures {
  const found = (ranked: string[], e: ExpectedEntry, k: number) => {
    const top = ranked.slice(0, k).map(baseQualifiedId);
    return Array.isArray(e) ? e.some((x) => top.includes(x)) : top.includes(e);
  };
  const pct = (a: number, b: number) => (b ? Math.round((1000 * a) / b) / 10 : 0);
  const entries = rows.reduce((s, r) => s + r.expected.length, 0);
  return {
    questions: rows.length,
    hit5: pct(rows.filter((r) => r.expected.every((e) => found(r.ranked, e, 5))).length, rows.length),
    each5: pct(
      rows.reduce((s, r) => s + r.expected.filter((e) => found(r.ranked, e, 5)).length, 0),
      entries,
    ),
    hit1: pct(rows.filter((r) => r.expected.every((e) => found(r.ranked, e, 1))).length, rows.length),
  };
}

/**
 * Leave-one-repository-out: each repository's questions ranked by a model trained on the
 * others, beside their current order, per expected mode and overall.
 */
export function crossValidate(
  examples: RankingExample[],
  options = DEFAULT_RANKER_OPTIONS,
): Record<string, { current: RankingFigures; model: RankingFigures }> {
  const corpora = [...new Set(examples.map((e) => e.corpus))].sort();
  const ranked = new Map<string, string[]>();
  for (const corpus of corpora) {
    const model = trainRanker(
      examples.filter((e) => e.corpus !== corpus),
      options,
    );
    for (const e of examples.filter((x) => x.corpus === corpus)) ranked.set(e.id, rankedIds(e, model));
  }
  const out: Record<string, { current: RankingFigures; model: RankingFigures }> = {};
  for (const mode of [...MODES, "all"]) {
    const list = examples.filter((e) => mode === "all" || e.expectedMode === mode);
    out[mode] = {
      current: rankingFigures(list.map((e) => ({ ranked: rankedIds(e, null), expected: e.expected }))),
      model: rankingFigures(list.map((e) => ({ ranked: ranked.get(e.id) ?? [], expected: e.expected }))),
    };
  }
  return out;
}
