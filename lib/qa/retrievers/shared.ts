/**
 * What every mode retriever shares: its input and output shapes, weighted
 * candidate fusion (RRF over signal lists), and packing the best candidates into
 * context items within a token budget.
 */
import "server-only";
import type { ChunkHit, SymbolRecord } from "../../db/code-graph.ts";
import { lexicalSearch } from "../../search/hybrid.ts";
import type { CgragConfig } from "../config.ts";
import { symbolItem, textItem, type ContextItem, type SourceReader } from "../context.ts";
import type { DiagramPart, QueryMode } from "../types.ts";
import type { Anchors } from "../anchors.ts";

export interface RetrievalInput {
  repositoryId: string;
  generationId: string;
  question: string;
  mode: QueryMode;
  scope: string | null;
  anchors: Anchors;
  config: CgragConfig;
  reader: SourceReader;
  pass: number;
}

export interface RetrievalOutput {
  items: ContextItem[];
  diagram: DiagramPart | null;
  /** Ranked beyond what fit the budget: for benchmarks and the timeline. */
  rankedFiles: string[];
  rankedSymbols: string[];
  /** Per-signal file rankings (diagnostic mode), for benchmarks and tuning. */
  signals?: Record<string, string[]>;
}

export interface Candidate {
  key: string;
  symbol: SymbolRecord | null;
  chunk: ChunkHit | null;
  reason: string;
}

/** One ranked signal (e.g. "raises the exception", "BM25 over code") with a weight. */
export interface SignalList {
  name: string;
  weight: number;
  candidates: Candidate[];
}

export interface Ranked {
  candidate: Candidate;
  score: number;
  reasons: string[];
}

const RRF_K = 20;

/** Weighted reciprocal-rank fusion of signal lists, deduplicated by candidate key. */
export function fuseSignals(lists: SignalList[]): Ranked[] {
  const byKey = new Map<string, Ranked>();
  for (const list of lists) {
    list.candidates.forEach((candidate, rank) => {
      const contribution = list.weight / (RRF_K + rank + 1);
      const existing = byKey.get(candidate.key);
      if (existing) {
        existing.score += contribution;
        if (!existing.reasons.includes(candidate.reason)) existing.reasons.push(candidate.reason);
        if (!existing.candidate.symbol && candidate.symbol)
          existing.candidate = { ...existing.candidate, symbol: candidate.symbol };
      } else {
        byKey.set(candidate.key, { candidate, score: contribution, reasons: [candidate.reason] });
      }
    });
  }
  return [...byKey.values()].sort((a, b) => b.score - a.score);
}

/** Files ranked by their best candidates (a file's score: best + a little for each further hit). */
export function rankFiles(ranked: Ranked[]): string[] {
  const scores = new Map<string, number>();
  for (const r of ranked) {
    const path = r.candidate.symbol?.path ?? r.candidate.chunk?.path;
    if (!path) continue;
    const current = scores.get(path);
    scores.set(path, current === undefined ? r.score : current + r.score * 0.25);
  }
  return [...scores.entries()].sort((a, b) => b[1] - a[1]).map(([p]) => p);
}

export function symbolCandidate(symbol: SymbolRecord, reason: string): Candidate {
  return { key: symbol.qualifiedId, symbol, chunk: null, reason };
}

export function chunkCandidate(chunk: ChunkHit, reason: string): Candidate {
  return {
    key: chunk.symbolId ?? `${chunk.path}:${chunk.startLine}-${chunk.endLine}`,
    symbol: null,
    chunk,
    reason,
  };
}

/**
 * Packs ranked candidates into context items until the budget is spent. Symbols
 * get their source (truncated per config); chunks are used as they are.
 */
export async function packCandidates(
  input: RetrievalInput,
  ranked: Ranked[],
  budget: number,
  options: { maxItems?: number; perItemTokens?: number; origin?: ContextItem["origin"] } = {},
): Promise<ContextItem[]> {
  const items: ContextItem[] = [];
  let used = 0;
  const perItem = Math.min(options.perItemTokens ?? Math.max(250, Math.floor(budget / 3)), budget);
  const maxItems = options.maxItems ?? 12;
  const top = ranked[0]?.score ?? 1;
  for (const r of ranked) {
    if (items.length >= maxItems || used >= budget) break;
    const remaining = budget - used;
    if (remaining < 60) break;
    const meta = {
      reason: r.reasons.slice(0, 3).join("; "),
      score: round(r.score / top),
      origin: options.origin ?? ("initial" as const),
      pass: input.pass,
    };
    let item: ContextItem | null = null;
    const symbol = r.candidate.symbol;
    if (symbol && input.config.features.useSourceFetching) {
      item = await symbolItem(input.reader, symbol, meta, {
        maxLines: input.config.maxSourceLinesPerFunction,
        maxTokens: Math.min(perItem, remaining),
        truncate: input.config.truncateLongFunctions,
      });
    } else if (r.candidate.chunk) {
      item = textItem(r.candidate.chunk, { ...meta, maxTokens: Math.min(perItem, remaining) });
    } else if (symbol) {
      item = textItem(
        {
          path: symbol.path,
          startLine: symbol.startLine,
          endLine: symbol.startLine,
          title: symbol.qualifiedName,
          text: [symbol.signature, symbol.docstring].filter(Boolean).join("\n"),
          kind: "code",
        },
        { ...meta, maxTokens: Math.min(perItem, remaining) },
      );
    }
    if (!item || item.tokens > remaining) continue;
    // Docstrings feed the evidence engine and the prompt's graph; keep them to the configured length.
    if (item.facts && item.facts.docstring.length > input.config.docstringMaxLength) {
      item.facts = {
        ...item.facts,
        docstring: item.facts.docstring.slice(0, input.config.docstringMaxLength),
      };
    }
    if (items.some((i) => i.key === item.key)) continue;
    items.push(item);
    used += item.tokens;
  }
  return items;
}

export function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/**
 * Documentation chunks (repository docs and wiki pages) for a query, packed into
 * what the docs budget and the initial budget still allow.
 */
export async function docsItems(
  input: RetrievalInput,
  query: string,
  options: { budget: number; used: number; limit?: number; reason?: string },
): Promise<ContextItem[]> {
  const room = Math.min(options.budget, input.config.initialRetrievalBudget - options.used);
  if (room <= 0) return [];
  const docs = await lexicalSearch(input.generationId, query, {
    limit: options.limit ?? 3,
    kinds: ["doc", "wiki"],
  });
  const reason = options.reason ?? "documentation on the topic";
  return packCandidates(
    input,
    fuseSignals([{ name: "docs", weight: 1, candidates: docs.map((d) => chunkCandidate(d, reason)) }]),
    room,
    { maxItems: 2 },
  );
}

/** Identifiers worth looking up as symbol names (code-like, not too short or generic). */
export function lookupNames(anchors: Anchors, max = 12): string[] {
  const out: string[] = [];
  for (const id of anchors.identifiers) {
    const parts = id.replace(/\(\)$/, "").split(/[.:]+/).filter(Boolean);
    for (const name of [parts[parts.length - 1], parts.length > 1 ? parts.slice(-2).join(".") : null]) {
      if (name && name.length >= 3 && !out.includes(name)) out.push(name);
    }
    if (out.length >= max) break;
  }
  return out.slice(0, max);
}

/** Path prefix for a scope like "frontend" or "src/auth/" (null when the scope is not a path). */
export function scopePrefix(scope: string | null): string | undefined {
  if (!scope) return undefined;
  const cleaned = scope.replace(/^\.\//, "").replace(/\*+$/, "");
  return cleaned.length ? cleaned : undefined;
}

const TEST_PATH =
  /(^|\/)(tests?|testing|__tests__|spec)\/|(^|\/)test_[^/]*$|(^|\/)conftest\.py$|_test\.(py|go|c|cc|cpp)$|_(test|spec)\.rb$|\.(test|spec)\.[cm]?[jt]sx?$|Tests?\.(java|cs|php)$/;
// Docs, examples, benchmarks, scripts, and third-party code vendored inside a package.
const AUXILIARY_PATH =
  /(^|\/)(docs?|examples?|benchmarks?|asv_bench|scripts?|tools)\/|\/(packages|_vendor|vendored|extern|externals)\//;

/** Whether a path holds tests (fixes for reported bugs rarely live there). */
export function isTestPath(path: string): boolean {
  return TEST_PATH.test(path);
}

/**
 * Diagnostic ranking prefers library source: a failure shows up in tests, docs and
 * examples but is caused (and fixed) in the code they exercise. Unless the question
 * itself points at such files, their candidates are demoted, not dropped.
 */
export function demoteAuxiliary(ranked: Ranked[], namedPaths: string[]): Ranked[] {
  // namedPaths are repository files the question points at (resolved, not as written).
  const aboutTests = namedPaths.some((p) => TEST_PATH.test(p));
  const aboutDocs = namedPaths.some((p) => AUXILIARY_PATH.test(p));
  const out = ranked.map((r) => {
    const path = r.candidate.symbol?.path ?? r.candidate.chunk?.path ?? "";
    let factor = 1;
    if (!aboutTests && TEST_PATH.test(path)) factor = 0.35;
    else if (!aboutDocs && AUXILIARY_PATH.test(path)) factor = 0.5;
    return factor === 1 ? r : { ...r, score: r.score * factor };
  });
  return out.sort((a, b) => b.score - a.score);
}

/** The files each signal list ranks, in order (deduplicated). */
export function signalFiles(lists: SignalList[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const list of lists) {
    const files: string[] = [];
    for (const c of list.candidates) {
      const path = c.symbol?.path ?? c.chunk?.path;
      if (path && !files.includes(path)) files.push(path);
    }
    out[list.name] = files.slice(0, 20);
  }
  return out;
}

/**
 * Files ranked by fusing each signal's own file ranking (weighted RRF per file), with
 * tests, docs and vendored code demoted as in demoteAuxiliary. Evidence about a file
 * adds up across signals even when it comes from different chunks of it, which
 * localizes better than ranking files by their single best chunk.
 */
export function fuseFiles(lists: SignalList[], namedPaths: string[], limit = 30): string[] {
  const aboutTests = namedPaths.some((p) => TEST_PATH.test(p));
  const aboutDocs = namedPaths.some((p) => AUXILIARY_PATH.test(p));
  const scores = new Map<string, number>();
  for (const [name, files] of Object.entries(signalFiles(lists))) {
    const weight = lists.find((l) => l.name === name)?.weight ?? 0;
    files.forEach((file, rank) => scores.set(file, (scores.get(file) ?? 0) + weight / (RRF_K + rank + 1)));
  }
  for (const [file, score] of scores) {
    if (!aboutTests && TEST_PATH.test(file)) scores.set(file, score * 0.35);
    else if (!aboutDocs && AUXILIARY_PATH.test(file)) scores.set(file, score * 0.5);
  }
  return [...scores.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([file]) => file);
}
