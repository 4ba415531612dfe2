// Token budgets. Context is counted with a real BPE tokenizer (o200k, via gpt-tokenizer) so
// budgets mean the same thing the model's context window does, long sources are cut to
// their signature, docstring and first lines, and a tracker enforces total and per-pass
// limits across the CGRAG loop. This runs on every retrieved snippet, so the hot paths stop
// tokenizing as soon as a limit is known to be crossed.

import { decode, encodeGenerator, isWithinTokenLimit, countTokens as tokenizerCount } from "gpt-tokenizer";

// Source code can legitimately contain "<|endoftext|>"; it must be counted as text, not
// rejected as a special token.
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Number of tokens in `text`. */
export function countTokens(text: string): number {
  if (text === "") return 0;
  return tokenizerCount(text, AS_PLAIN_TEXT);
}

/** True when `text` has at most `max` tokens; stops tokenizing once the limit is passed. */
export function fitsInTokens(text: string, max: number): boolean {
  if (max < 0) return false;
  if (text === "") return true;
  return isWithinTokenLimit(text, max, AS_PLAIN_TEXT) !== false;
}

/** The longest prefix of `text` with at most `max` tokens. */
export function truncateToTokens(text: string, max: number): string {
  if (max <= 0) return "";
  if (fitsInTokens(text, max)) return text;
  const kept: number[] = [];
  for (const chunk of encodeGenerator(text, AS_PLAIN_TEXT)) {
    for (const token of chunk) {
      if (kept.length >= max) break;
      kept.push(token);
    }
    if (kept.length >= max) break;
  }
  // A cut inside a multi-byte character decodes to U+FFFD (sometimes before the last
  // token's text); keeping only the part that matches the source drops the broken bytes.
  const decoded = decode(kept);
  let same = 0;
  while (same < decoded.length && decoded[same] === text[same]) same += 1;
  return text.slice(0, same);
}

export interface TruncateSourceOptions {
  source: string;
  /** Maximum tokens for the result, marker included. */
  budget: number;
  /** Lines that make up the signature; detected from the source when omitted. */
  signatureLines?: number;
  /** The symbol's docstring as indexed; used to find where the doc block ends. */
  docstring?: string | null;
  /** Language name or file extension, for the marker's comment syntax. */
  language?: string | null;
}

/**
 * Cuts a long symbol's source to fit `budget` tokens, keeping the signature, the docstring
 * and as much of the body's head as fits, followed by a comment line saying how many lines
 * were dropped. The result is always a prefix of the source's lines (callers map shown
 * lines back to file lines), so when even the signature and docstring do not fit whole,
 * the last of their lines is cut mid-line rather than dropped.
 */
export function truncateSource(options: TruncateSourceOptions): string {
  const { source, budget } = options;
  if (fitsInTokens(source, budget)) return source;
  const lines = source.split("\n");
  const marker = (dropped: number, indent: string) =>
    commentLine(`… truncated (${dropped} more lines)`, options.language, indent);
  const markerCost = countTokens(marker(lines.length, "        ")) + 1;
  // Too small to say what was cut: show what fits of the first line.
  if (budget <= markerCost) return truncateToTokens(lines[0] ?? "", budget);

  const essential = Math.max(
    options.signatureLines ?? detectSignatureEnd(lines, options.language),
    docstringEnd(lines, options.docstring),
  );
  let remaining = budget - markerCost;
  const head: string[] = [];
  for (const line of lines) {
    const cost = countTokens(line) + 1;
    if (cost > remaining) {
      if (head.length < essential) {
        const partial = truncateToTokens(line, remaining - 1);
        if (partial.trim() !== "") head.push(partial);
      }
      break;
    }
    remaining -= cost;
    head.push(line);
  }
  // Per-line counts can differ slightly from the count of the joined text; shrink until
  // the real count fits.
  let result = withMarker(head, lines, marker);
  while (head.length > 1 && !fitsInTokens(result, budget)) {
    head.pop();
    result = withMarker(head, lines, marker);
  }
  return result;
}

function withMarker(
  head: string[],
  lines: string[],
  marker: (dropped: number, indent: string) => string,
): string {
  const kept = head.length;
  // A line cut mid-way still counts as shown; the lines after it are the dropped ones.
  const dropped = lines.length - kept;
  const indent = leadingSpace(lines[kept] ?? lines[kept - 1] ?? "");
  const body = head.join("\n");
  return body === "" ? marker(dropped, indent) : `${body}\n${marker(dropped, indent)}`;
}

function leadingSpace(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? "";
}

// Index just past the signature: decorators and doc comments above it, then lines until
// brackets balance and the header ends (":" in Python, "{" or "=>" elsewhere).
function detectSignatureEnd(lines: string[], language: string | null | undefined): number {
  const python = /^(?:python|py|pyi)$/i.test(language ?? "");
  let i = 0;
  while (i < lines.length && /^\s*(?:@|\/\/|\/\*|\*|#\[|\/\/\/)/.test(lines[i] ?? "")) i += 1;
  let depth = 0;
  for (let j = i; j < Math.min(lines.length, i + 15); j++) {
    const line = lines[j] ?? "";
    for (const ch of line) {
      if ("([{".includes(ch)) depth += 1;
      else if (")]}".includes(ch)) depth -= 1;
    }
    const ended = python
      ? /:\s*(?:#.*)?$/.test(line) && depth <= 0
      : /[{]\s*$|=>\s*$|;\s*$/.test(line) || depth <= 0;
    if (ended) return j + 1;
  }
  return Math.min(lines.length, i + 1);
}

// The line where the indexed docstring's text ends, so the prefix covers all of it.
function docstringEnd(lines: string[], docstring: string | null | undefined): number {
  const words = (docstring ?? "").trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 0;
  const tail = words.slice(-3).join(" ");
  const index = lines.findIndex((l) => l.replace(/\s+/g, " ").includes(tail));
  return index === -1 ? 0 : index + 1;
}

type CommentStyle = "#" | "//" | "--" | "<!--" | "/*";

// prettier-ignore
const COMMENT_STYLES: Record<string, CommentStyle> = {
  python: "#", py: "#", ruby: "#", rb: "#", shell: "#", bash: "#", sh: "#", yaml: "#", yml: "#", toml: "#",
  r: "#", perl: "#", elixir: "#", ex: "#", dockerfile: "#", makefile: "#",
  typescript: "//", ts: "//", tsx: "//", javascript: "//", js: "//", jsx: "//", mjs: "//", cjs: "//",
  java: "//", kotlin: "//", kt: "//", go: "//", rust: "//", rs: "//", c: "//", cpp: "//", "c++": "//",
  csharp: "//", cs: "//", swift: "//", scala: "//", php: "//", dart: "//", groovy: "//",
  sql: "--", lua: "--", haskell: "--", hs: "--",
  markdown: "<!--", md: "<!--", html: "<!--", xml: "<!--", vue: "<!--", svelte: "<!--",
  css: "/*", scss: "/*",
};

function commentStyle(language: string | null | undefined): CommentStyle {
  return COMMENT_STYLES[(language ?? "").toLowerCase().replace(/^\./, "")] ?? "//";
}

/** A one-line comment in the language's syntax (defaults to `//`). */
export function commentLine(text: string, language: string | null | undefined, indent = ""): string {
  const style = commentStyle(language);
  if (style === "<!--") return `${indent}<!-- ${text} -->`;
  if (style === "/*") return `${indent}/* ${text} */`;
  return `${indent}${style} ${text}`;
}

export interface BudgetTrackerOptions {
  /** Total tokens allowed across all passes. */
  total: number;
  /**
   * Per-pass limits: one number for every pass, or a list where entry k is pass k+1's limit
   * and the last entry applies to all later passes (generous first pass, tighter later).
   */
  passLimits?: number | readonly number[];
}

export interface PassUsage {
  pass: number;
  used: number;
  limit: number | null;
}

/** Accounts tokens against a total limit and optional per-pass limits. */
export class BudgetTracker {
  readonly total: number;
  private readonly passLimits: number | readonly number[] | undefined;
  private readonly usedByPass = new Map<number, number>();
  private usedTotal = 0;

  constructor(options: BudgetTrackerOptions) {
    if (!Number.isFinite(options.total) || options.total < 0)
      throw new RangeError("total must be a non-negative number");
    this.total = options.total;
    this.passLimits = options.passLimits;
  }

  /** Tokens spent so far across all passes. */
  get used(): number {
    return this.usedTotal;
  }

  /** Tokens still available under the total limit. */
  get remaining(): number {
    return Math.max(0, this.total - this.usedTotal);
  }

  /** True once nothing more can be added under the total limit. */
  get exhausted(): boolean {
    return this.remaining <= 0;
  }

  /** Usage per pass, in pass order, with each pass's limit (null when unlimited). */
  get perPass(): PassUsage[] {
    return [...this.usedByPass.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([pass, used]) => ({ pass, used, limit: this.limitFor(pass) }));
  }

  /** The limit for a pass, or null when only the total applies. */
  limitFor(pass: number): number | null {
    const limits = this.passLimits;
    if (limits === undefined) return null;
    if (typeof limits === "number") return limits;
    if (limits.length === 0) return null;
    return limits[Math.min(Math.max(pass, 1), limits.length) - 1] ?? null;
  }

  /** Tokens still available in a pass (bounded by the total as well). */
  remainingInPass(pass: number): number {
    const limit = this.limitFor(pass);
    const passLeft = limit === null ? Infinity : Math.max(0, limit - (this.usedByPass.get(pass) ?? 0));
    return Math.min(this.remaining, passLeft);
  }

  /** Whether `tokens` would fit in `pass` without changing anything. */
  fits(tokens: number, pass: number): boolean {
    assertTokenCount(tokens);
    return tokens <= this.remainingInPass(pass);
  }

  /** Records `tokens` against `pass` if they fit both limits; returns whether they were added. */
  tryAdd(tokens: number, pass: number): boolean {
    if (!this.fits(tokens, pass)) return false;
    this.usedTotal += tokens;
    this.usedByPass.set(pass, (this.usedByPass.get(pass) ?? 0) + tokens);
    return true;
  }
}

function assertTokenCount(tokens: number): void {
  if (!Number.isFinite(tokens) || tokens < 0 || !Number.isInteger(tokens)) {
    throw new RangeError(`token count must be a non-negative integer, got ${tokens}`);
  }
}
