/**
 * The functions that answer, inside the files retrieval ranks best: each symbol of those
 * files scored on its own body against the question (lib/qa/focus.ts), so the function
 * that computes, checks or reports what is asked leads, not whichever symbol of the file
 * the lexical index happened to rank. Also narrows a whole-file candidate (a file
 * summary) to that function, or to the matching lines of a file without symbols.
 */
import "server-only";
import { symbolsWithinSpans, type ChunkHit, type SymbolRecord } from "../../db/code-graph.ts";
import { scoreSpans, matchedWindow, type FocusQuery } from "../focus.ts";
import type { SourceReader } from "../context.ts";
import { symbolCandidate, type Candidate } from "./shared.ts";

const WHOLE_FILE = 2_147_483_647;

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
    symbolsWithinSpans(
      generationId,
      files.map((path) => ({ path, startLine: 1, endLine: WHOLE_FILE })),
    ),
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
    .map((s) => symbolCandidate(s.symbol, "its body matches the question"));
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
