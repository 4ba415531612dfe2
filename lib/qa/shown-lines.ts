/**
 * Which lines of a cited span its snippet shows. The span (a function from its doc
 * comment on, a whole file) is what the citation links to and what verification checks;
 * the snippet is a dozen lines of it, and those should be the ones that answer: the lines
 * matching the question or what the answer says where it cites (the deciding condition,
 * the raise site of a quoted message, the call of the next step), else the first lines of
 * the body. Never a leading doc comment or licence header, a signature, a Python
 * docstring or a file's import block: those are what every snippet showed before, and
 * none of them answers. Pure: the lines, the question and the answer's words come in.
 */
import { densestWindow, lineWeight, type FocusQuery } from "./focus.ts";

/** Lines a snippet shows (the chat's citation panel shows about this many without scrolling). */
export const SHOWN_LINES = 12;
/** Lines shown above the first matching one: the condition above a raise, the loop around a call. */
const LEAD_LINES = 2;
/**
 * A line that stands out is at most this deep in the snippet, so it shows without
 * scrolling: a raise site below many lines that each hold a question word is not cut off.
 */
const PEAK_DEPTH = 6;
/** A long span is searched this far for matching lines. */
const MAX_SCAN_LINES = 3000;
/** A code name the answer writes at the citation, found in a line. */
const CUE_NAME_WEIGHT = 3;
/** A quoted message the answer writes at the citation, found verbatim in a line. */
const CUE_PHRASE_WEIGHT = 12;
/** A signature longer than this is not looked for (the body is then shown from the signature). */
const MAX_SIGNATURE_LINES = 10;

/** What the answer says where it cites a span: code names and quoted messages. */
export interface CitationCues {
  /** code names (last segment, as written), never the cited symbol's own */
  names: string[];
  /** quoted messages' literal pieces, lower-cased */
  phrases: string[];
}

export interface ShownLinesInput {
  /** the file's lines */
  lines: readonly string[];
  startLine: number;
  endLine: number;
  /** the span starts where a symbol does: its doc comment, decorators and signature come first */
  symbolStart: boolean;
  query: FocusQuery | null;
  cues: CitationCues;
}

export interface LineRange {
  startLine: number;
  endLine: number;
}

/** The lines of the span its snippet shows: at most SHOWN_LINES, from the body on. */
export function shownLines(input: ShownLinesInput): LineRange {
  const { lines, endLine } = input;
  const from = bodyStart(input);
  const last = Math.min(endLine, lines.length, from + MAX_SCAN_LINES - 1);
  const weights: number[] = [];
  for (let l = from; l <= last; l++) weights.push(weightOf(lines, l, input));
  const hit = shownWindow(weights, SHOWN_LINES);
  let start = from;
  // A body that fits in the snippet is shown whole.
  if (hit && last - from + 1 > SHOWN_LINES) {
    const peak = from + hit.peak;
    const deepest = hit.standsOut ? peak - PEAK_DEPTH + 1 : from;
    start = statementStart(lines, Math.max(from, from + hit.first - LEAD_LINES, deepest), from);
    // Brackets alone, or a blank line, say nothing at the top of a snippet.
    while (start < peak && /^\s*[{}()[\]]*[;,]?\s*$/.test(lines[start - 1] ?? "")) start++;
  }
  return { startLine: start, endLine: Math.min(endLine, start + SHOWN_LINES - 1) };
}

// A line ending in an open bracket, a comma or an operator goes on; one starting with a
// closing bracket, an operator or a method chained on continues the line above. (A line
// ending in `{` or Python's `:` opens a block: what follows starts a statement.)
const CONTINUES = /(?:[([,=?+\-*/.\\]|&&|\|\||\bin|\band|\bor)$/;
const CONTINUATION = /^(?:[)\].?:+\-*/]|->|&&|\|\||and\b|or\b)/;
/** A window is moved up this many lines at most to start where its statement does. */
const MAX_STATEMENT_LINES = 6;

/**
 * The line a statement holding `line` starts on (an argument list, a condition over
 * several lines), not before `floor`: a snippet that starts at `null` inside a call's
 * arguments reads as noise.
 */
function statementStart(lines: readonly string[], line: number, floor: number): number {
  let l = line;
  for (let steps = 0; steps < MAX_STATEMENT_LINES && l > floor; steps++) {
    const previous = (lines[l - 2] ?? "").replace(/\s(?:\/\/|#).*$/, "").trim();
    const current = (lines[l - 1] ?? "").trim();
    if (previous === "" || !(CONTINUES.test(previous) || CONTINUATION.test(current))) break;
    l--;
  }
  return l;
}

function weightOf(lines: readonly string[], line: number, input: ShownLinesInput): number {
  const text = lines[line - 1] ?? "";
  let w = input.query ? lineWeight(lines, input.query, line) : 0;
  if (input.cues.names.length || input.cues.phrases.length) {
    const lower = text.toLowerCase();
    for (const name of input.cues.names) if (holdsName(text, name)) w += CUE_NAME_WEIGHT;
    for (const phrase of input.cues.phrases) if (lower.includes(phrase)) w += CUE_PHRASE_WEIGHT;
  }
  return w;
}

function holdsName(text: string, name: string): boolean {
  let at = text.indexOf(name);
  while (at >= 0) {
    const before = text[at - 1] ?? " ";
    const after = text[at + name.length] ?? " ";
    if (!/[\w$]/.test(before) && !/[\w$]/.test(after)) return true;
    at = text.indexOf(name, at + 1);
  }
  return false;
}

/**
 * In the window of `size` lines that matches most (the earliest on a tie): the index of
 * its first matching line and of its heaviest, and whether that one stands out (at
 * least twice any other line of the window and more by a name the answer gives: a
 * quoted message or that name, not one more question word); null when nothing matches.
 */
function shownWindow(
  weights: number[],
  size: number,
): { first: number; peak: number; standsOut: boolean } | null {
  const window = densestWindow(weights, size);
  if (!window) return null;
  const { from, to: best } = window;
  let first = -1;
  let peak = from;
  for (let i = from; i <= best; i++) {
    const w = weights[i] ?? 0;
    if (w > 0 && first < 0) first = i;
    if (w > (weights[peak] ?? 0)) peak = i;
  }
  let next = 0;
  for (let i = from; i <= best; i++) if (i !== peak) next = Math.max(next, weights[i] ?? 0);
  const top = weights[peak] ?? 0;
  return { first, peak, standsOut: top >= 2 * next && top - next >= CUE_NAME_WEIGHT };
}

/**
 * The first line of a span that is code of its own: past blank lines, comments and
 * attributes; for a span starting at line 1, past the file's preamble (licence, opening
 * tag, package, imports); for a span starting at a symbol, past its signature, a Python
 * docstring and a comment opening the body. A span that is nothing but those (a
 * declaration without a body) shows from its first code line.
 */
export function bodyStart(
  input: Pick<ShownLinesInput, "lines" | "startLine" | "endLine" | "symbolStart">,
): number {
  const { lines, startLine, endLine } = input;
  const last = Math.min(endLine, lines.length);
  const at = (l: number) => lines[l - 1] ?? "";
  let l = skipComments(at, startLine, last);
  if (startLine === 1) l = skipPreamble(at, l, last);
  const code = l;
  if (input.symbolStart) {
    const signatureEnd = signatureEndLine(at, l, last);
    if (signatureEnd !== null && signatureEnd < last) {
      l = skipComments(at, signatureEnd + 1, last);
      l = skipComments(at, skipDocstring(at, l, last), last);
    }
  }
  // A body of nothing but closing brackets (an empty class) is shown with its declaration.
  if (l <= last && !onlyClosing(at, l, last)) return l;
  return code <= last ? code : startLine;
}

function onlyClosing(at: LineAt, from: number, last: number): boolean {
  for (let l = from; l <= last; l++) if (!/^\s*(?:[)\]};,\s]*|end)\s*$/.test(at(l))) return false;
  return true;
}

type LineAt = (line: number) => string;

// `#` starts a comment or a preprocessor line (`#if`, `#endif`, `#region`): neither is
// what a snippet is for. Rust's `#[…]` is an attribute, `#!` a shebang.
const LINE_COMMENT = /^(?:\/\/|#(?![[!])|--(?:\s|\[|$)|;;|<!--.*-->\s*$)/;
const ATTRIBUTE = /^(?:@[\w.]+(?:\(.*)?$|#!?\[.*\]\s*$|\[[A-Z][\w.]*(?:\(.*\))?\]\s*$)/;

/** Past blank lines, line and block comments, decorators and attributes. */
function skipComments(at: LineAt, from: number, last: number): number {
  let l = from;
  while (l <= last) {
    const t = at(l).trim();
    if (t === "" || LINE_COMMENT.test(t) || ATTRIBUTE.test(t)) {
      l++;
      continue;
    }
    if (t.startsWith("/*") || t.startsWith("<!--")) {
      const close = t.startsWith("/*") ? "*/" : "-->";
      if (!t.slice(close === "*/" ? 2 : 4).includes(close)) {
        l++;
        while (l <= last && !at(l).includes(close)) l++;
      }
      l++;
      continue;
    }
    if (t.startsWith("=begin")) {
      while (l <= last && !at(l).startsWith("=end")) l++;
      l++;
      continue;
    }
    break;
  }
  return l;
}

// A file's opening lines that say where it belongs and what it uses, not what it does.
const PREAMBLE =
  /^(?:<\?php|<\?=|#!|#|declare\s*\(|namespace\s+[\w\\.]+\s*;|package\s|import\b|from\s+\S+\s+import\b|use\s|using\s+[\w.]+\s*;|extern\s+crate\b|mod\s+\w+\s*;|require(?:_relative|_once)?\b|include(?:_once)?\b|(?:const|let|var)\s+[\w{}\s,]+=\s*require\(|["']use strict["']|library\s|part\s|module\s+[\w.]+\s*(?:where|;|$)|@file|__all__\s*=)/;

/** Past the preamble: opening tags, package lines, imports (a block of them too), a module docstring. */
function skipPreamble(at: LineAt, from: number, last: number): number {
  let l = from;
  while (l <= last) {
    const t = at(l).trim();
    if (isDocstringOpen(t)) {
      l = skipComments(at, skipDocstring(at, l, last), last);
      continue;
    }
    if (!PREAMBLE.test(t)) break;
    l = statementEnd(at, l, last) + 1;
    l = skipComments(at, l, last);
  }
  return l;
}

/**
 * The last line of a statement opened at `from`: where its brackets close (Go's
 * `import (`, a JavaScript import list, Rust's `use a::{…};`, Python's `from x import (`).
 */
function statementEnd(at: LineAt, from: number, last: number): number {
  let depth = 0;
  for (let l = from; l <= last; l++) {
    depth += bracketBalance(at(l));
    if (depth <= 0) return l;
  }
  return from;
}

/** Opening minus closing brackets of a line, outside strings and a trailing comment. */
function bracketBalance(line: string): number {
  const code = line.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""').replace(/\s(?:\/\/|#).*$/, "");
  let n = 0;
  for (const ch of code) {
    if (ch === "(" || ch === "[" || ch === "{") n++;
    else if (ch === ")" || ch === "]" || ch === "}") n--;
  }
  return n;
}

/**
 * The line a signature ends on, when the body starts after it: the parameters closed
 * and the body opened (`{`, Python's `:`), or the next line opening it (a brace on a line
 * of its own, a `where` clause, a C++ initializer list), or a Ruby, Lua or Elixir
 * signature of one line. Null when no signature ends within a few lines, or the whole
 * definition is one line (it is then the body).
 */
function signatureEndLine(at: LineAt, from: number, last: number): number | null {
  let depth = 0;
  const stop = Math.min(last, from + MAX_SIGNATURE_LINES - 1);
  for (let l = from; l <= stop; l++) {
    const code = at(l)
      .replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""')
      .replace(/\s(?:\/\/|#).*$/, "")
      .trimEnd();
    for (const ch of code) {
      if (ch === "(" || ch === "[") depth++;
      else if (ch === ")" || ch === "]") depth--;
    }
    if (depth > 0 || /^where\b/.test(code.trim())) continue;
    const brace = code.indexOf("{");
    if (brace >= 0) return bracketBalance(code.slice(brace)) > 0 ? l : null;
    if (/:$/.test(code) || /\b(?:do|then)(?:\s*\|[^|]*\|)?$/.test(code) || /=>$|=$/.test(code)) return l;
    const next = nextCodeLine(at, l + 1, stop);
    if (next === null) return l;
    const t = at(next).trim();
    if (
      /^(?:\{|where\b|->|:|throws\b|extends\b|implements\b|noexcept\b|const\b|override\b|requires\b)/.test(t)
    ) {
      continue;
    }
    return /^(?:def|function|local\s+function|fn|sub|proc|class|module)\b/.test(code.trim()) ? l : null;
  }
  return null;
}

function nextCodeLine(at: LineAt, from: number, last: number): number | null {
  for (let l = from; l <= last; l++) if (at(l).trim() !== "") return l;
  return null;
}

const DOCSTRING_OPEN = /^(?:[rRuUbBfF]{0,2})("""|''')/;

function isDocstringOpen(trimmed: string): boolean {
  return DOCSTRING_OPEN.test(trimmed);
}

/** Past a Python docstring opening at `from` (one line or several); `from` when none opens there. */
function skipDocstring(at: LineAt, from: number, last: number): number {
  const t = at(from).trim();
  const m = DOCSTRING_OPEN.exec(t);
  if (!m?.[1]) return from;
  const quote = m[1];
  const rest = t.slice(m[0].length);
  if (rest.includes(quote)) return from + 1;
  for (let l = from + 1; l <= last; l++) if (at(l).includes(quote)) return l + 1;
  return from;
}

/**
 * What the answer says at a citation: the code names and quoted messages of its stretch
 * of text (the line it sits on, between the citations before and after it there), so a
 * snippet shows the line that raises the message, calls the next step or writes the
 * field the answer names. The cited symbol's own name is left out: its signature is not
 * what answers.
 */
export function citationCues(
  text: string,
  at: { index: number; length: number },
  others: { index: number; length: number }[],
  own: (string | null)[],
): CitationCues {
  const lineStart = text.lastIndexOf("\n", at.index - 1) + 1;
  const nl = text.indexOf("\n", at.index + at.length);
  const lineEnd = nl < 0 ? text.length : nl;
  let from = lineStart;
  let to = lineEnd;
  for (const o of others) {
    if (o.index + o.length <= at.index && o.index + o.length > from) from = o.index + o.length;
    if (o.index >= at.index + at.length && o.index < to) to = o.index;
  }
  const stretch = text.slice(from, to);
  const ownNames = new Set(own.flatMap((n) => (n ? [lastSegment(n)] : [])));
  const names = new Set<string>();
  for (const m of stretch.matchAll(/`([^`\n]+)`/g)) {
    const code = (m[1] ?? "").replace(/\(.*$/, "");
    const name = lastSegment(code);
    if (name.length >= 3 && /^[A-Za-z_$][\w$]*$/.test(name) && !ownNames.has(name)) names.add(name);
  }
  const phrases = new Set<string>();
  for (const m of stretch.matchAll(/["“]([^"”\n]{8,})["”]/g)) {
    for (const piece of (m[1] ?? "").replace(/(?:…|\.\.\.)\s*$/, "").split(/\{[^}]*\}|…|\.\.\./)) {
      const p = piece.trim().toLowerCase();
      if (p.length >= 8) phrases.add(p);
    }
  }
  return { names: [...names], phrases: [...phrases] };
}

/** `a/b.py::Cls.method#2` → `method`; `$this->_mh` → `_mh`; `Foo::bar` → `bar`. */
function lastSegment(name: string): string {
  const cut = name.replace(/#\d+$/, "").split(/::|->|\.|#|\\/);
  return (cut[cut.length - 1] ?? "").replace(/^\$/, "").trim();
}

/** The cues of several citations merged into one. */
export function mergeCues(all: CitationCues[]): CitationCues {
  return {
    names: [...new Set(all.flatMap((c) => c.names))],
    phrases: [...new Set(all.flatMap((c) => c.phrases))],
  };
}
