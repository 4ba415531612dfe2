/**
 * The learned symbol ranker: reorders the first candidates of a retrieval's ranked
 * symbols by a linear score over symbol-features.ts, weights shipped in
 * symbol-ranker-weights.json (written by `npm run train:symbols`, see training/symbols).
 * The current rank is itself a feature, so the model moves only what its features give it
 * reason to. A score is a shared weight vector plus the routed mode's own, so a mode with
 * little data leans on the others. The leading symbols the retriever's context left out are
 * packed after its items, so what the ranking puts first is what the answer can cite.
 * Without weights (an empty model), or with the `features.useSymbolRanker` setting off,
 * nothing moves.
 */
import "server-only";
import { symbolsByQualifiedIds } from "../../db/code-graph.ts";
import type { ContextItem } from "../../answerers/contract.ts";
import type { QueryMode } from "../types.ts";
import shipped from "./symbol-ranker-weights.json";
import { candidateFeatures, FEATURE_NAMES, type RankingContext } from "./symbol-features.ts";
import { packCandidates, symbolCandidate, type RetrievalInput, type RetrievalOutput } from "./shared.ts";

export interface RankerModel {
  version: 1;
  /** the column order of every weight vector (must equal FEATURE_NAMES) */
  features: string[];
  /** how many leading candidates are reordered */
  topN: number;
  shared: number[];
  perMode: Partial<Record<QueryMode, number[]>>;
  /** what it was trained on and how (for the report; never read when ranking) */
  trained: Record<string, unknown>;
}

/** What a training dump receives: the features of one retrieval's candidates, before any reordering. */
export type RankingObserver = (ctx: RankingContext, features: number[][]) => void;

let observer: RankingObserver | null = null;

/**
 * Lets the training dump see every retrieval's candidates and their features; while one
 * is set the ranker records instead of reordering, so the dump sees the retrievers' own order.
 */
export function observeRanking(fn: RankingObserver | null): void {
  observer = fn;
}

/**
 * The modes whose ranking the model reorders. Analytical questions keep the retriever's
 * order: with them reordered too, the question bench's held-out analytical line fell (one
 * question of 18 with symbols) while the three other modes' rose, so that part was reverted.
 * Their dev questions are still in the training data and the figures.
 */
const RANKED_MODES: ReadonlySet<QueryMode> = new Set(["conceptual", "diagnostic", "exploratory"]);

/** Whether the model reorders this mode's ranking. */
export function ranksMode(mode: QueryMode): boolean {
  return RANKED_MODES.has(mode);
}

/** Lines of a candidate's body read for its terms: enough for a long function, bounded for a class. */
const BODY_LINES = 300;

/** The shipped model, checked against the features this build computes. */
export function shippedRanker(): RankerModel | null {
  const model = shipped as RankerModel;
  if (!model.shared?.length) return null;
  if (model.features.join(",") !== FEATURE_NAMES.join(","))
    throw new Error("symbol-ranker-weights.json was trained on other features (run npm run train:symbols)");
  return model;
}

/** A candidate's score: the shared weights plus its mode's. */
export function scoreCandidate(model: RankerModel, mode: QueryMode, features: number[]): number {
  const own = model.perMode[mode];
  let score = 0;
  features.forEach((x, i) => {
    score += x * ((model.shared[i] ?? 0) + (own?.[i] ?? 0));
  });
  return score;
}

const LEFT_OUT = FEATURE_NAMES.indexOf("left-out-by-default");
const GUARDED_PLACES = 5;

/**
 * The leading ids in the model's order. A candidate left out by default (a test, an example,
 * vendored code the question does not ask about) ranked below the first five stays below
 * them: the dev questions expect none, so the model has seen few and cannot be trusted to
 * keep them down.
 */
export function modelOrder(
  model: RankerModel,
  mode: QueryMode,
  ids: string[],
  features: number[][],
): string[] {
  const scores = features.map((f, i) =>
    i >= GUARDED_PLACES && f[LEFT_OUT] === 1 ? Number.NEGATIVE_INFINITY : scoreCandidate(model, mode, f),
  );
  return reorder(ids, scores);
}

/** Ids reordered by score, ties kept in their current order. */
export function reorder(ids: string[], scores: number[]): string[] {
  return ids
    .map((id, i) => ({ id, i, s: scores[i] ?? 0 }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.id);
}

/**
 * The model's order with a traced chain's first steps (`chainLead` of them lead the retriever's
 * order, at most CHAIN_KEPT kept) in their places: the chain is the answer's A → B → C; the model
 * orders what follows them.
 */
export function chainKept(ids: string[], ordered: string[], chainLead: number): string[] {
  const chain = new Set(ids.slice(0, Math.min(chainLead, CHAIN_KEPT)));
  return [...chain, ...ordered.filter((id) => !chain.has(id))];
}

/** A retrieval with its leading symbols reordered by the model (unchanged without one). */
export async function rankSymbols(
  input: RetrievalInput,
  output: RetrievalOutput,
  model: RankerModel | null = input.config.features.useSymbolRanker && ranksMode(input.mode)
    ? shippedRanker()
    : null,
): Promise<RetrievalOutput> {
  if (!model && !observer) return output;
  const ids = output.rankedSymbols.slice(0, model?.topN ?? 30);
  if (ids.length < 2) return output;
  const ctx = await rankingContext(input, output, ids);
  const features = candidateFeatures(ctx);
  if (observer) {
    observer(ctx, features);
    return output;
  }
  if (!model) return output;
  const head = chainKept(ids, modelOrder(model, input.mode, ids, features), output.chainLead ?? 0);
  const ranked = { ...output, rankedSymbols: [...head, ...output.rankedSymbols.slice(ids.length)] };
  return { ...ranked, items: [...output.items, ...(await leadsMissing(input, ranked, ctx))] };
}

/**
 * How many of a traced chain's first steps keep their places (the entry and the next two): the
 * model still brings a later step or one of the flow's branches up past the chain's tail.
 */
const CHAIN_KEPT = 3;

/** How many of the model's leading symbols the answer's context must hold. */
const LEADS_IN_CONTEXT = 5;
/** At most this many are added, within this share of the initial budget. */
const ADDED_LEADS = 3;
const ADDED_SHARE = 0.15;

/**
 * The model's leading symbols that the retriever's context left out, packed as context items
 * after the retriever's own (which keep their order, so each mode's opening reads what its
 * retriever put first): what the ranking says answers is then cited in the answer, not only
 * reported in the ranked list.
 */
async function leadsMissing(
  input: RetrievalInput,
  output: RetrievalOutput,
  ctx: RankingContext,
): Promise<ContextItem[]> {
  const held = new Set(output.items.flatMap((i) => (i.facts ? [i.facts.qualifiedId] : [])));
  const missing = output.rankedSymbols
    .slice(0, LEADS_IN_CONTEXT)
    .filter((id) => !held.has(id))
    .flatMap((id) => {
      const record = ctx.records.get(id);
      return record ? [record] : [];
    })
    .slice(0, ADDED_LEADS);
  if (missing.length === 0) return [];
  const budget = Math.floor(input.config.initialRetrievalBudget * ADDED_SHARE);
  const packed = await packCandidates(
    input,
    missing.map((s, i) => ({
      candidate: symbolCandidate(s, "ranked among the first by the learned symbol ranker"),
      score: 1 / (i + 1),
      reasons: ["ranked among the first by the learned symbol ranker"],
    })),
    budget,
    { maxItems: ADDED_LEADS, perItemTokens: Math.floor(budget / ADDED_LEADS) },
  );
  const keys = new Set(output.items.map((i) => i.key));
  return packed.filter((i) => !keys.has(i.key));
}

async function rankingContext(
  input: RetrievalInput,
  output: RetrievalOutput,
  ids: string[],
): Promise<RankingContext> {
  const rows = await symbolsByQualifiedIds(input.generationId, ids);
  const records = new Map(rows.map((r) => [r.qualifiedId, r] as const));
  const bodies = new Map<string, string>();
  await Promise.all(
    rows.map(async (r) => {
      const text = await input.reader.slice(
        r.path,
        r.startLine,
        Math.min(r.endLine, r.startLine + BODY_LINES),
      );
      if (text !== null) bodies.set(r.qualifiedId, text);
    }),
  );
  return {
    question: input.question,
    mode: input.mode,
    ids,
    records,
    bodies,
    rankedFiles: output.rankedFiles,
    signals: output.signals ?? {},
  };
}
