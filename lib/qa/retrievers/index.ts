/**
 * Routes a classified question to its mode's retriever. With mode routing switched
 * off every question takes the conceptual path (docs-first hybrid search). When the
 * classifier names a close runner-up, both retrievers run and their results are fused:
 * ranked files and symbols by weighted reciprocal rank (the mode's lists count more),
 * context items taken from both in turn (synthetic items — a traced flow, a structure
 * report — first), within the initial retrieval budget.
 */
import "server-only";
import type { ContextItem } from "../../answerers/contract.ts";
import type { QueryMode } from "../types.ts";
import { retrieveAnalytical } from "./analytical.ts";
import { retrieveConceptual } from "./conceptual.ts";
import { retrieveDiagnostic } from "./diagnostic.ts";
import { retrieveExploratory } from "./exploratory.ts";
import type { RetrievalInput, RetrievalOutput } from "./shared.ts";
import { rankSymbols } from "./symbol-ranker.ts";

export type { RetrievalInput, RetrievalOutput } from "./shared.ts";

export async function retrieveForMode(
  input: RetrievalInput,
  secondaryMode: QueryMode | null = null,
): Promise<RetrievalOutput> {
  if (!input.config.features.useModeRouting) return retrieveConceptual(input);
  const primary = await retrieveOne(input, input.mode);
  if (!secondaryMode || secondaryMode === input.mode) return rankSymbols(input, primary);
  const secondary = await retrieveOne({ ...input, mode: secondaryMode }, secondaryMode);
  return rankSymbols(input, fuseRetrievals(primary, secondary, input.config.initialRetrievalBudget));
}

function retrieveOne(input: RetrievalInput, mode: QueryMode): Promise<RetrievalOutput> {
  switch (mode) {
    case "diagnostic":
      return retrieveDiagnostic(input);
    case "exploratory":
      return retrieveExploratory(input);
    case "analytical":
      return retrieveAnalytical(input);
    case "conceptual":
      return retrieveConceptual(input);
  }
}

const SECONDARY_WEIGHT = 0.7;
const RANK_K = 5;

/** Two retrievals as one: the primary's evidence leads, the secondary's fills in. */
export function fuseRetrievals(
  primary: RetrievalOutput,
  secondary: RetrievalOutput,
  budget: number,
): RetrievalOutput {
  return {
    items: interleave(primary.items, secondary.items, budget),
    diagram: primary.diagram ?? secondary.diagram,
    rankedFiles: fuseRanks(primary.rankedFiles, secondary.rankedFiles),
    rankedSymbols: fuseRanks(primary.rankedSymbols, secondary.rankedSymbols),
    ...(primary.signals || secondary.signals
      ? { signals: { ...secondary.signals, ...primary.signals } }
      : {}),
  };
}

function fuseRanks(primary: string[], secondary: string[]): string[] {
  const score = new Map<string, number>();
  primary.forEach((x, i) => score.set(x, (score.get(x) ?? 0) + 1 / (RANK_K + i + 1)));
  secondary.forEach((x, i) => score.set(x, (score.get(x) ?? 0) + SECONDARY_WEIGHT / (RANK_K + i + 1)));
  return [...score.entries()].sort((a, b) => b[1] - a[1]).map(([x]) => x);
}

function interleave(primary: ContextItem[], secondary: ContextItem[], budget: number): ContextItem[] {
  const synthetic = (i: ContextItem) => i.kind === "flow" || i.kind === "structure";
  const order = [
    ...primary.filter(synthetic),
    ...secondary.filter(synthetic),
    ...alternate(
      primary.filter((i) => !synthetic(i)),
      secondary.filter((i) => !synthetic(i)),
    ),
  ];
  const out: ContextItem[] = [];
  let used = 0;
  for (const item of order) {
    if (out.some((o) => o.key === item.key)) continue;
    if (used + item.tokens > budget && out.length > 0) continue;
    out.push(item);
    used += item.tokens;
  }
  return out;
}

/** Two of the primary's items for each of the secondary's, in their own orders. */
function alternate<T>(a: T[], b: T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < Math.max(Math.ceil(a.length / 2), b.length); i++) {
    out.push(...a.slice(2 * i, 2 * i + 2));
    if (i < b.length) out.push(b[i] as T);
  }
  return out;
}
