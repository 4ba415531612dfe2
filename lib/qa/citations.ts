// Inline citations in answers ("lib/db/queries.ts:10-24"). Every citation is checked
// against the index generation the answer was built from — the file exists, the lines
// exist, and a symbol named right before the citation is really there — and anything that
// fails is marked in the text, so an unverifiable reference is never presented as fact.

import { looksLikeCode } from "../search/anchors";
import { SOURCE_EXTENSIONS } from "../search/written-paths.ts";
import { splitQualifiedId } from "../db/symbol-ids.ts";
import { unsafePathReason } from "../paths.ts";

export interface Citation {
  /** The citation exactly as written, including any brackets or backticks around it. */
  raw: string;
  /** As written, minus a leading "./". */
  path: string;
  startLine: number;
  /** As written; an inverted range (end < start) is kept so verification can reject it. */
  endLine: number;
  /** Character offset of `raw` in the text. */
  index: number;
  /** Code name written right before the citation ("`get_db` (deps.py:10-20)"), if any. */
  namedSymbol: string | null;
}

export interface CitationLookup {
  /** Number of lines in an indexed file, or null when the file is not in the index. */
  fileLines(path: string): number | null;
  /** Symbols whose span overlaps the given lines. */
  symbolsAt(
    path: string,
    start: number,
    end: number,
  ): { qualifiedId: string; startLine: number; endLine: number }[];
}

export interface VerifiedCitation extends Citation {
  verified: boolean;
  reason: string | null;
  /**
   * The symbol the citation points at: the named one when given, else the innermost
   * symbol holding every cited line; none when the lines span several symbols.
   */
  symbol: string | null;
  /** the citation covers its whole file (shown as "whole file", not as one of its symbols) */
  wholeFile: boolean;
}

/** Appended after each unverified citation by `markUnverifiedCitations`. */
export const UNVERIFIED_MARK = " (unverified)";

// path, then ":start[-end]" (an optional ":col" is ignored) or "#Lstart[-Lend]". The
// lookbehind keeps drive letters ("C:\\x.py:3") and URL tails from starting a match.
const CITATION = new RegExp(
  String.raw`(\[)?(\x60)?(?<![\w@+~.\\/:-])([\w@+~.\\/-]*[\w@+~-]\.([A-Za-z0-9]{1,10}))` +
    String.raw`(?::(\d+)(?:\s*[-–]\s*(\d+)|:\d+)?|#L(\d+)(?:-L?(\d+))?)(?![\w.]*[\w/])(\x60)?(\])?`,
  "g",
);
// The lookbehind (not \b) makes each scheme start once, keeping long dotted runs linear.
const URL = /(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/[^\s<>()\]]+/gi;

/**
 * Finds inline citations, skipping URLs, clock times, Windows drive letters and fenced code
 * blocks (a quoted traceback's "x.py:12" is evidence shown, not a claim made).
 */
export function parseCitations(text: string): Citation[] {
  // Blanked out with spaces of the same length, so offsets still match the original text.
  const masked = blankFencedCode(text).replace(URL, (url) => " ".repeat(url.length));
  const citations: Citation[] = [];
  for (const m of masked.matchAll(CITATION)) {
    const [
      whole,
      open,
      tickOpen,
      path = "",
      ext = "",
      colonStart,
      colonEnd,
      hashStart,
      hashEnd,
      tickClose,
      close,
    ] = m;
    if (!SOURCE_EXTENSIONS.has(ext.toLowerCase())) continue;
    const start = m.index ?? 0;
    // Brackets and backticks belong to the citation only when they enclose it.
    const bracketed = Boolean(open && close);
    const ticked = Boolean(tickOpen && tickClose);
    const rawStart = start + (bracketed ? 0 : (open?.length ?? 0)) + (ticked ? 0 : (tickOpen?.length ?? 0));
    let rawEnd =
      start + whole.length - (bracketed ? 0 : (close?.length ?? 0)) - (ticked ? 0 : (tickClose?.length ?? 0));
    // "[deps.py:10](#…)" is a Markdown link: the mark must go after the whole link.
    if (bracketed && text[rawEnd] === "(") {
      const closing = text.indexOf(")", rawEnd);
      if (closing !== -1 && !text.slice(rawEnd, closing).includes("\n")) rawEnd = closing + 1;
    }
    const startLine = Number(colonStart ?? hashStart);
    citations.push({
      raw: text.slice(rawStart, rawEnd),
      path: path.replace(/^(?:\.\/)+/, ""),
      startLine,
      endLine: Number(colonEnd ?? hashEnd ?? startLine),
      index: rawStart,
      namedSymbol: symbolBefore(text, rawStart),
    });
  }
  return citations;
}

function blankFencedCode(text: string): string {
  let inFence = false;
  return text
    .split("\n")
    .map((line) => {
      const isFence = /^[ \t]*(?:```|~~~)/.test(line);
      const blank = inFence || isFence;
      if (isFence) inFence = !inFence;
      return blank ? " ".repeat(line.length) : line;
    })
    .join("\n");
}

// A code name immediately before the citation, joined only by a connector:
// "`get_db` (deps.py:10)", "get_db() in deps.py:10", "function get_db at deps.py:10".
function symbolBefore(text: string, index: number): string | null {
  let before =
    text
      .slice(Math.max(0, index - 160), index)
      .split("\n")
      .pop() ?? "";
  before = before.replace(/[\s([]+$/, "");
  before = before.replace(
    /\s+(?:(?:is\s+)?(?:defined|declared|implemented)\s+)?(?:in|at|from|see|lives in)$/i,
    "",
  );
  before = before.replace(/\s*[—–:,-]$/, "");
  const m = /(?:^|[^\w$.`])(`?)([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(\(\))?\1$/.exec(before);
  if (!m?.[2]) return null;
  const name = m[2];
  return m[1] || m[3] || looksLikeCode(name) ? name : null;
}

/** Checks each citation against the index; nothing unsafe or unknown is ever verified. */
export function verifyCitations(citations: Citation[], lookup: CitationLookup): VerifiedCitation[] {
  return citations.map((c) => verifyOne(c, lookup));
}

function verifyOne(citation: Citation, lookup: CitationLookup): VerifiedCitation {
  const fail = (reason: string): VerifiedCitation => ({
    ...citation,
    verified: false,
    reason,
    symbol: null,
    wholeFile: false,
  });
  const { path } = citation;
  const unsafe = unsafePathReason(path);
  if (unsafe) return fail(unsafe);
  if (citation.startLine < 1) return fail("line numbers start at 1");
  if (citation.endLine < citation.startLine) {
    return fail(`inverted line range ${citation.startLine}-${citation.endLine}`);
  }
  const total = lookup.fileLines(path);
  if (total === null) return fail("file not in index");
  if (citation.endLine > total) {
    const range =
      citation.startLine === citation.endLine
        ? `line ${citation.startLine}`
        : `lines ${citation.startLine}-${citation.endLine}`;
    return fail(`${range} past end of file (${total} lines)`);
  }

  const here = lookup.symbolsAt(path, citation.startLine, citation.endLine);
  const wholeFile = citation.startLine === 1 && citation.endLine === total;
  const named = citation.namedSymbol;
  if (named) {
    const match = here.find((s) => symbolMatches(s.qualifiedId, named));
    if (match) return { ...citation, verified: true, reason: null, symbol: match.qualifiedId, wholeFile };
    const elsewhere = lookup.symbolsAt(path, 1, total).find((s) => symbolMatches(s.qualifiedId, named));
    if (elsewhere) {
      return fail(
        `${named} is at lines ${elsewhere.startLine}-${elsewhere.endLine}, not ${rangeText(citation)}`,
      );
    }
    // A name that is not a symbol anywhere in the file may be a variable or attribute,
    // which the index does not track; only clear callable or type references are judged.
    if (looksLikeSymbolReference(named)) return fail(`no symbol ${named} at these lines`);
  }
  // A symbol merely overlapping the lines would name a whole-file citation after whichever
  // small function happens to sit in it: only a symbol holding all of them names it.
  const holding = here.filter((s) => s.startLine <= citation.startLine && s.endLine >= citation.endLine);
  const innermost = holding.sort((a, b) => a.endLine - a.startLine - (b.endLine - b.startLine))[0];
  return { ...citation, verified: true, reason: null, symbol: innermost?.qualifiedId ?? null, wholeFile };
}

function rangeText(c: Citation): string {
  return c.startLine === c.endLine ? `${c.startLine}` : `${c.startLine}-${c.endLine}`;
}

// "Foo.bar" matches "src/foo.ts::Foo.bar"; "bar" matches any "…::X.bar" or "…::bar".
function symbolMatches(qualifiedId: string, name: string): boolean {
  // Any overload of a name matches it (`Foo.bar` names `a.ts::Foo.bar#2` too).
  const qualified = splitQualifiedId(qualifiedId)?.qualifiedName ?? qualifiedId;
  return qualified === name || qualified.endsWith(`.${name}`) || name.endsWith(`.${qualified}`);
}

function looksLikeSymbolReference(name: string): boolean {
  return /^[A-Z][a-z0-9]+[A-Z]/.test(name) || /^[A-Z][\w$]*\.[A-Za-z_$]/.test(name);
}

/** A citation's lines as a key: `path:start-end`. */
export function citationRangeKey(c: { path: string; startLine: number; endLine: number }): string {
  return `${c.path}:${c.startLine}-${c.endLine}`;
}

type Mergeable = Pick<VerifiedCitation, "path" | "startLine" | "endLine" | "verified" | "symbol"> &
  Partial<Pick<VerifiedCitation, "wholeFile">>;

/**
 * One citation per stretch of a file: verified citations of one file whose lines overlap
 * or touch (a method cited inside its class, the same function cited twice) become one,
 * spanning them all, in the order they were first cited. Each keeps the ranges it took
 * in (`alsoCites`, `path:start-end` as written), so every citation of the answer still
 * finds its entry. The symbol kept is the one a merged citation named when it holds every
 * merged line, else none; a stretch that took in a whole-file citation is the whole file.
 * Unverified citations are kept as they are.
 */
export function mergeOverlapping<T extends Mergeable>(
  citations: T[],
  symbolsAt: (
    path: string,
    start: number,
    end: number,
  ) => { qualifiedId: string; startLine: number; endLine: number }[] = () => [],
): (T & { alsoCites: string[] })[] {
  const out: (T & { alsoCites: string[] })[] = [];
  const touches = (a: Mergeable, b: Mergeable) =>
    a.verified &&
    b.verified &&
    a.path === b.path &&
    a.startLine <= b.endLine + 1 &&
    b.startLine <= a.endLine + 1;
  for (const c of citations) {
    const entry = { ...c, alsoCites: [citationRangeKey(c)] };
    const overlapping = out.filter((o) => touches(o, entry));
    const into = overlapping[0];
    if (!into) {
      out.push(entry);
      continue;
    }
    // The citation and every entry it bridges become the first of them.
    const merged = [into, ...overlapping.slice(1), entry];
    const startLine = Math.min(...merged.map((m) => m.startLine));
    const endLine = Math.max(...merged.map((m) => m.endLine));
    const holding = merged
      .map((m) => m.symbol)
      .find((id) =>
        symbolsAt(c.path, startLine, endLine).some(
          (s) => s.qualifiedId === id && s.startLine <= startLine && s.endLine >= endLine,
        ),
      );
    const alsoCites = [...new Set(merged.flatMap((m) => m.alsoCites))];
    const symbol = startLine === into.startLine && endLine === into.endLine ? into.symbol : (holding ?? null);
    // A stretch that took in a whole-file citation is the whole file.
    const wholeFile = merged.some((m) => m.wholeFile);
    Object.assign(into, { startLine, endLine, symbol: wholeFile ? null : symbol, alsoCites });
    if (wholeFile) Object.assign(into, { wholeFile });
    for (const gone of overlapping.slice(1)) out.splice(out.indexOf(gone), 1);
  }
  return out;
}

/**
 * Marks every unverified citation in the text (" (unverified)" after it) so the answer
 * never states an unchecked reference as fact. Offsets come from `parseCitations` on the
 * same text; a result whose text no longer matches is left alone.
 */
export function markUnverifiedCitations(
  text: string,
  results: VerifiedCitation[],
  mark = UNVERIFIED_MARK,
): string {
  let out = text;
  const unverified = results.filter((r) => !r.verified).sort((a, b) => b.index - a.index);
  for (const r of unverified) {
    const end = r.index + r.raw.length;
    if (out.slice(r.index, end) !== r.raw || out.startsWith(mark, end)) continue;
    out = `${out.slice(0, end)}${mark}${out.slice(end)}`;
  }
  return out;
}
