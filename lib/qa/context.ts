/**
 * The context a question accumulates across passes: items of source, docs and
 * structure with the evidence behind them, deduplicated and kept within token
 * budgets. Source comes from the generation's stored file text, truncated to
 * signature + docstring + head when a function is long.
 */
import "server-only";
import { getFileContent } from "../db/index-reads.ts";
import type { SymbolRecord } from "../db/code-graph.ts";
import type { ContextItem, ContextKind, SymbolFacts } from "../answerers/contract.ts";
import { countTokens, truncateSource, truncateToTokens } from "./budget.ts";

export function parseJsonList(text: string): string[] {
  try {
    const value = JSON.parse(text) as unknown;
    if (!Array.isArray(value)) return [];
    return value.map((v) =>
      typeof v === "string" ? v : typeof v === "object" && v && "raw" in v ? String(v.raw) : String(v),
    );
  } catch {
    return [];
  }
}

export function factsOf(symbol: SymbolRecord): SymbolFacts {
  return {
    qualifiedId: symbol.qualifiedId,
    qualifiedName: symbol.qualifiedName,
    kind: symbol.kind,
    signature: symbol.signature,
    docstring: symbol.docstring,
    raises: parseJsonList(symbol.raises),
    mutates: parseJsonList(symbol.mutates),
    errorStrings: parseJsonList(symbol.errorStrings),
    calls: [...new Set(parseJsonList(symbol.calls))],
    fanIn: symbol.fanIn,
    fanOut: symbol.fanOut,
  };
}

/** Reads file text of one generation once per question. */
export class SourceReader {
  private readonly files = new Map<string, Promise<string[] | null>>();

  constructor(private readonly generationId: string) {}

  lines(path: string): Promise<string[] | null> {
    let entry = this.files.get(path);
    if (!entry) {
      entry = getFileContent(this.generationId, path).then((c) => (c === null ? null : c.split("\n")));
      this.files.set(path, entry);
    }
    return entry;
  }

  async slice(path: string, start: number, end: number): Promise<string | null> {
    const lines = await this.lines(path);
    if (!lines) return null;
    return lines.slice(Math.max(0, start - 1), Math.min(lines.length, end)).join("\n");
  }
}

export interface SourceOptions {
  maxLines: number;
  maxTokens: number;
  truncate: boolean;
}

/** A symbol's source as a context item, truncated to fit. */
export async function symbolItem(
  reader: SourceReader,
  symbol: SymbolRecord,
  meta: { reason: string; score: number; origin: ContextItem["origin"]; pass: number },
  options: SourceOptions,
): Promise<ContextItem | null> {
  const full = await reader.slice(symbol.path, symbol.startLine, symbol.endLine);
  if (full === null) return null;
  let body = full;
  let truncated = false;
  const lines = full.split("\n");
  if (options.truncate && lines.length > options.maxLines) {
    body = truncateSource({
      source: lines.slice(0, options.maxLines + 40).join("\n"),
      budget: options.maxTokens,
      docstring: symbol.docstring,
      language: symbol.language,
    });
    truncated = true;
  }
  let tokens = countTokens(body);
  if (tokens > options.maxTokens) {
    body = truncateSource({
      source: body,
      budget: options.maxTokens,
      docstring: symbol.docstring,
      language: symbol.language,
    });
    tokens = countTokens(body);
    truncated = true;
  }
  // A truncated body ends with a marker line that is not a line of the file.
  const shownEnd = truncated ? symbol.startLine + body.split("\n").length - 2 : symbol.endLine;
  return {
    key: symbol.qualifiedId,
    kind: "symbol",
    path: symbol.path,
    startLine: symbol.startLine,
    endLine: Math.min(symbol.endLine, Math.max(symbol.startLine, shownEnd)),
    title: symbol.qualifiedName,
    text: body,
    tokens,
    reason: meta.reason,
    score: meta.score,
    origin: meta.origin,
    pass: meta.pass,
    facts: factsOf(symbol),
    truncated,
  };
}

/** A text/doc chunk as a context item. */
export function textItem(
  chunk: { path: string; startLine: number; endLine: number; title: string; text: string; kind: string },
  meta: { reason: string; score: number; origin: ContextItem["origin"]; pass: number; maxTokens: number },
): ContextItem {
  let text = chunk.text;
  let tokens = countTokens(text);
  let truncated = false;
  if (tokens > meta.maxTokens) {
    text = truncateToTokens(text, meta.maxTokens);
    tokens = countTokens(text);
    truncated = true;
  }
  const kind: ContextKind = chunk.kind === "wiki" ? "wiki" : chunk.kind === "file" ? "file" : "doc";
  return {
    key: `${chunk.path}:${chunk.startLine}-${chunk.endLine}`,
    kind,
    path: chunk.path,
    startLine: chunk.startLine,
    // A cut doc cites only the lines it kept; a wiki page's lines are not the file's,
    // so a cut page still cites the file range it describes.
    endLine:
      truncated && kind !== "wiki"
        ? Math.min(chunk.endLine, chunk.startLine + text.split("\n").length - 1)
        : chunk.endLine,
    title: chunk.title,
    text,
    tokens,
    reason: meta.reason,
    score: meta.score,
    origin: meta.origin,
    pass: meta.pass,
    facts: null,
    truncated,
  };
}

/** A synthetic item (flow tree, metrics) that has no single source range. */
export function syntheticItem(
  key: string,
  kind: ContextKind,
  title: string,
  text: string,
  meta: { reason: string; score: number; pass: number; maxTokens: number },
): ContextItem {
  const clipped = truncateToTokens(text, meta.maxTokens);
  return {
    key,
    kind,
    path: null,
    startLine: 0,
    endLine: 0,
    title,
    text: clipped,
    tokens: countTokens(clipped),
    reason: meta.reason,
    score: meta.score,
    origin: "initial",
    pass: meta.pass,
    facts: null,
    truncated: clipped.length < text.length,
  };
}

/**
 * Ordered, deduplicated set of context items; overlapping ranges of one file collapse, except
 * that a function or method stays beside the class or function item holding its lines.
 */
export class ContextSet {
  private readonly items = new Map<string, ContextItem>();

  constructor(initial: ContextItem[] = []) {
    for (const item of initial) this.items.set(item.key, item);
  }

  has(key: string): boolean {
    return this.items.has(key);
  }

  /**
   * True when an item already holds these lines of a file. A file summary or a wiki page
   * describes a file without holding its lines, so it covers none of them.
   */
  covers(path: string, start: number, end: number, member = false): boolean {
    for (const item of this.items.values()) {
      if (item.kind === "file" || item.kind === "wiki") continue;
      // A class holds its methods' lines and a function the functions it defines (a decorator's
      // wrapper), but one ranked on its own is evidence of its own.
      if (member && item.facts) continue;
      if (item.path === path && item.startLine <= start && item.endLine >= end) return true;
    }
    return false;
  }

  add(item: ContextItem): boolean {
    if (this.items.has(item.key)) return false;
    const member = item.facts?.kind === "function" || item.facts?.kind === "method";
    if (item.path && item.kind !== "file" && this.covers(item.path, item.startLine, item.endLine, member))
      return false;
    this.items.set(item.key, item);
    return true;
  }

  /**
   * Puts an item in whatever is there: what a user provided stands as theirs (and is
   * answered from as such) even when the loop had already gathered the same lines.
   */
  put(item: ContextItem): void {
    this.items.set(item.key, item);
  }

  get size(): number {
    return this.items.size;
  }

  get tokens(): number {
    let n = 0;
    for (const item of this.items.values()) n += item.tokens;
    return n;
  }

  list(): ContextItem[] {
    return [...this.items.values()];
  }

  symbolIds(): Set<string> {
    return new Set(this.list().flatMap((i) => (i.facts ? [i.facts.qualifiedId] : [])));
  }
}
