/**
 * The functions that answer, inside the files retrieval ranks best: each symbol of those
 * files scored on its own body against the question (lib/qa/focus.ts), so the function
 * that computes, checks or reports what is asked leads, not whichever symbol of the file
 * the lexical index happened to rank. Also narrows a whole-file candidate (a file
 * summary) to that function, or to the matching lines of a file without symbols.
 */
import "server-only";
import { symbolsWithinSpans, type ChunkHit, type SymbolRecord } from "../../db/code-graph.ts";
import type { ContextItem } from "../../answerers/contract.ts";
import { focusQuery, scoreSpans, matchedWindow, wordStems, type FocusQuery } from "../focus.ts";
import type { Anchors } from "../../search/anchors.ts";
import type { SourceReader } from "../context.ts";
import type { Candidate } from "./candidate.ts";

const WHOLE_FILE = 2_147_483_647;

// One query per question (its reader): ranking, packing and citing read a file's lines
// against the same query, so each line is matched once (lib/qa/focus.ts).
const queries = new WeakMap<SourceReader, FocusQuery>();

/** What the question looks for in code, made once per question. */
export function questionFocus(reader: SourceReader, question: string, anchors: Anchors): FocusQuery {
  let query = queries.get(reader);
  if (!query) {
    query = focusQuery(question, anchors);
    queries.set(reader, query);
  }
  return query;
}

// The symbols of a file never change within a generation; the files questions rank first
// are read again and again.
const SYMBOL_CACHE = 64;
const symbolCache = new Map<string, Promise<SymbolRecord[]>>();

/** The symbols of some files of a generation, in line order, from a small shared cache. */
export async function fileSymbols(
  generationId: string,
  files: string[],
): Promise<Map<string, SymbolRecord[]>> {
  const key = (path: string) => `${generationId}\n${path}`;
  const missing = files.filter((f) => !symbolCache.has(key(f)));
  if (missing.length > 0) {
    const loading = symbolsWithinSpans(
      generationId,
      missing.map((path) => ({ path, startLine: 1, endLine: WHOLE_FILE })),
    );
    for (const path of missing) {
      const one = loading.then((m) => m.get(path) ?? []);
      one.catch(() => symbolCache.delete(key(path)));
      symbolCache.set(key(path), one);
    }
    while (symbolCache.size > SYMBOL_CACHE) symbolCache.delete(symbolCache.keys().next().value as string);
  }
  const entries = await Promise.all(
    files.map(async (f) => [f, (await symbolCache.get(key(f))) ?? []] as const),
  );
  return new Map(entries);
}

/** Kinds that hold the lines that do the work. */
function isBodyKind(kind: string): boolean {
  return kind === "function" || kind === "method";
}

/** Symbols that contain other symbols of the same file (a class and its methods). */
function containers(symbols: SymbolRecord[]): Set<string> {
  return new Set(symbols.flatMap((s) => (s.parentId ? [`${s.path}::${s.parentId}`] : [])));
}

export interface ScoredSymbol {
  symbol: SymbolRecord;
  score: number;
  matched: number[];
}

/**
 * The symbols of the given files scored on their own lines, best first (only those
 * matching something). Functions and methods are scored; a type without members (a
 * struct, an enum, a Go type) is too, as its body is its definition.
 */
export async function scoreFileSymbols(
  generationId: string,
  reader: SourceReader,
  files: string[],
  query: FocusQuery,
): Promise<ScoredSymbol[]> {
  if (files.length === 0) return [];
  const [byFile, texts] = await Promise.all([
    fileSymbols(generationId, files),
    Promise.all(files.map((f) => reader.lines(f))),
  ]);
  const entries: { span: SymbolRecord & { name: string }; lines: readonly string[] }[] = [];
  files.forEach((path, i) => {
    const lines = texts[i];
    if (!lines) return;
    const symbols = byFile.get(path) ?? [];
    const parents = containers(symbols);
    for (const s of symbols) {
      if (isBodyKind(s.kind) || !parents.has(s.qualifiedId)) entries.push({ span: s, lines });
    }
  });
  return scoreSpans(entries, query)
    .filter((s) => s.score > 0)
    .map((s) => ({ symbol: s.span, score: s.score, matched: s.matched }));
}

/**
 * Candidates for the best-answering symbols of the leading files: each file's symbols
 * scored together, a symbol in a better-ranked file counting more.
 */
export async function answeringCandidates(
  generationId: string,
  reader: SourceReader,
  rankedFiles: string[],
  query: FocusQuery,
  options: { files?: number; limit?: number } = {},
): Promise<Candidate[]> {
  const files = rankedFiles.slice(0, options.files ?? 5);
  const rankOf = new Map(files.map((f, i) => [f, i]));
  const scored = await scoreFileSymbols(generationId, reader, files, query);
  return scored
    .map((s) => ({ ...s, weighted: s.score * (1 + 1 / (1 + (rankOf.get(s.symbol.path) ?? files.length))) }))
    .sort((a, b) => b.weighted - a.weighted)
    .slice(0, options.limit ?? 15)
    .map((s) => ({
      key: s.symbol.qualifiedId,
      symbol: s.symbol,
      chunk: null,
      reason: "its body matches the question",
    }));
}

/**
 * A whole-file chunk narrowed to what answers in it: the best-matching symbol of the
 * file, else its densest window of matching lines; null when nothing in it matches.
 */
export async function narrowFileChunk(
  generationId: string,
  reader: SourceReader,
  chunk: ChunkHit,
  query: FocusQuery,
): Promise<{ symbol: SymbolRecord } | { chunk: ChunkHit } | null> {
  const [best] = await scoreFileSymbols(generationId, reader, [chunk.path], query);
  if (best) return { symbol: best.symbol };
  const lines = await reader.lines(chunk.path);
  const window = lines ? matchedWindow(lines, query) : null;
  if (!lines || !window) return null;
  return {
    chunk: {
      ...chunk,
      kind: "code",
      startLine: window.startLine,
      endLine: window.endLine,
      text: lines.slice(window.startLine - 1, window.endLine).join("\n"),
    },
  };
}

/**
 * Whether the question names a type: written as code (`OrderService`), or spelled out in
 * words when its name has two or more ("the order service" names OrderService; "the
 * config" alone does not name Config, whose methods may be what answers).
 */
function namedByQuestion(name: string, query: FocusQuery): boolean {
  if (query.names.has(name.toLowerCase())) return true;
  const parts = wordStems(name);
  return parts.length >= 2 && parts.every((p) => query.terms.has(p));
}

/** Items longer than this get a focus: a snippet shows about this many lines. */
const FOCUS_OVER_LINES = 40;
const FOCUS_LINES = 25;

/**
 * A candidate narrowed to what answers in it: a file summary to the function (or the
 * matching lines) of the file that answers; a class whose name the question does not
 * use to its best-answering member. Anything else is kept.
 */
export async function narrowCandidate(
  generationId: string,
  reader: SourceReader,
  candidate: Candidate,
  query: FocusQuery,
): Promise<Candidate> {
  const chunk = candidate.chunk;
  if (!candidate.symbol && chunk?.kind === "file") {
    const narrowed = await narrowFileChunk(generationId, reader, chunk, query);
    if (!narrowed) return candidate;
    return "symbol" in narrowed
      ? { ...candidate, key: narrowed.symbol.qualifiedId, symbol: narrowed.symbol, chunk: null }
      : {
          ...candidate,
          key: `${chunk.path}:${narrowed.chunk.startLine}-${narrowed.chunk.endLine}`,
          chunk: narrowed.chunk,
        };
  }
  const symbol = candidate.symbol;
  if (!symbol || isBodyKind(symbol.kind) || namedByQuestion(symbol.name, query)) return candidate;
  const members = (await fileSymbols(generationId, [symbol.path]))
    .get(symbol.path)
    ?.filter(
      (s) =>
        s.startLine >= symbol.startLine &&
        s.endLine <= symbol.endLine &&
        s.parentId !== null &&
        s.qualifiedId !== symbol.qualifiedId &&
        isBodyKind(s.kind),
    );
  if (!members?.length) return candidate;
  const lines = await reader.lines(symbol.path);
  if (!lines) return candidate;
  const [best] = scoreSpans(
    members.map((span) => ({ span, lines })),
    query,
  );
  if (!best || best.score <= 0) return candidate;
  return { ...candidate, key: best.span.qualifiedId, symbol: best.span, chunk: null };
}

/**
 * The lines of a long item that answer (its densest window of matching lines), or of a
 * wiki page's file (its best-answering function, else matching lines): what a citation
 * of the item shows. Null when the item is short enough to show whole or nothing in it
 * matches.
 */
export async function itemFocus(
  generationId: string,
  reader: SourceReader,
  item: ContextItem,
  query: FocusQuery,
): Promise<{ startLine: number; endLine: number } | null> {
  if (!item.path) return null;
  if (item.kind === "wiki") {
    const [best] = await scoreFileSymbols(generationId, reader, [item.path], query);
    if (best) return { startLine: best.symbol.startLine, endLine: best.symbol.endLine };
    const lines = await reader.lines(item.path);
    return lines ? matchedWindow(lines, query, FOCUS_LINES) : null;
  }
  if (item.endLine - item.startLine + 1 <= FOCUS_OVER_LINES) return null;
  const lines = await reader.lines(item.path);
  if (!lines) return null;
  const window = matchedWindow(lines.slice(item.startLine - 1, item.endLine), query, FOCUS_LINES);
  return window
    ? { startLine: item.startLine + window.startLine - 1, endLine: item.startLine + window.endLine - 1 }
    : null;
}
