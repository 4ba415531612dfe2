// Reading the list of what is missing that an answer ends with: its items (bullets,
// inline lists, prose), each normalized into a stable key (the session's not-found set and
// retrieval lookups read it), and what a gap names as a lookup target (a symbol in a file,
// a file, a function, or words to search).

import { looksLikeCode } from "../search/anchors";
import { isPathLike, SOURCE_EXTENSIONS } from "../search/written-paths.ts";

export const ANY_TAG = /<\s*\/?\s*(?:answer|missing)\s*>/gi;

// A section header line: "ANSWER:", "**MISSING:**", "## Missing", "Missing context:",
// 'MISSING (or "NONE" if nothing needed):', with optional inline content after the colon.
const MAX_HEADER_LINE = 200;
const HEADER =
  /^(#{1,6}[ \t]*)?(\*\*|__)?[ \t]*(answer|missing)((?:[ \t]+(?:context|information|info|code|items|pieces|details))?[ \t]*(?:\([^)\n]*\))?)[ \t]*(\*\*|__)?[ \t]*(:)?[ \t]*(\*\*|__)?[ \t]*(.*)$/i;

export interface Header {
  kind: "answer" | "missing";
  /** Text after the header on the same line ("MISSING: NONE"). */
  inline: string;
  /** True when a colon made it unambiguous; a bare "## Missing" heading is weaker. */
  strict: boolean;
}

export function parseHeader(line: string): Header | null {
  // Header lines are short; skipping long lines also keeps the regex linear.
  const trimmed = line.trimStart();
  if (trimmed.length > MAX_HEADER_LINE) return null;
  const m = HEADER.exec(trimmed);
  if (!m) return null;
  const [, hashes, boldOpen, keyword, , boldClose, colon, boldAfter, rest = ""] = m;
  const kind = keyword?.toLowerCase() === "answer" ? "answer" : "missing";
  if (colon) return { kind, inline: rest.trim(), strict: true };
  const wholeLineHeading = rest.trim() === "" && !boldAfter;
  if (wholeLineHeading && (hashes || (boldOpen && boldClose) || keyword === keyword?.toUpperCase())) {
    return { kind, inline: "", strict: false };
  }
  return null;
}

export type GapTargetKind = "symbol-in-file" | "file" | "function" | "fuzzy";

export interface GapTarget {
  kind: GapTargetKind;
  symbol: string | null;
  path: string | null;
}

export const MAX_GAP_LENGTH = 160;
/** More gaps than this in one pass means the model is listing everything, not what it needs. */
export const MAX_GAPS = 10;
/** How much text the stream filter may hold while deciding how a reply opens. */

// "NONE", "None.", "nothing", "N/A", "NONE - the context covers it", "No additional context needed".
const NONE_LINE =
  /^(?:(?:none|nothing|n\/a|na)(?:\s+(?:needed|required|missing|identified))?\s*(?:[-–—:(.,!].*)?|no (?:additional |more |further |other )?(?:gaps?|context|information|code|items?)(?: (?:is |are )?(?:needed|required|missing|identified))?[.!]?|nothing (?:else |more |further )?(?:is )?(?:missing|needed|required)[.!]?|-+)$/i;

const BULLET = /^\s*(?:[-*•+–]|\d{1,2}[.)]|\(\d{1,2}\)|\[[ x]?\])\s+/;

// Lines a model adds around the list: "I think that's all.", "Let me know if…", "Here is what's missing:".
const PROSE_LINE =
  /^(?:i\b|i'm\b|i'd\b|i've\b|we\b|let me\b|hope\b|that'?s\b|that is\b|this (?:should|is|would)\b|these (?:would|should|are)\b|overall\b|in summary\b|note:|thanks?\b|please\b|here (?:is|are)\b|the following\b|otherwise\b|if you\b)/i;

/** Parses the body of a missing section into deduplicated gap strings. */
export function parseGapSection(body: string): string[] {
  const lines = body
    .replace(ANY_TAG, "\n")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !/^(?:```|~~~)/.test(l));
  const meaningful = lines.filter(
    (l) => !parseHeader(l) && (!stripMarkup(l).endsWith(":") || BULLET.test(l)),
  );
  const first = meaningful[0];
  if (first === undefined || NONE_LINE.test(stripMarkup(first.replace(BULLET, "")))) return [];

  const hasBullets = meaningful.some((l) => BULLET.test(l));
  let items = hasBullets ? meaningful.filter((l) => BULLET.test(l)) : meaningful;
  if (!hasBullets && items.length === 1) items = splitInlineList(items[0] ?? "");

  const seen = new Set<string>();
  const gaps: string[] = [];
  for (const item of items) {
    const gap = cleanGap(item);
    if (!gap || NONE_LINE.test(gap) || PROSE_LINE.test(gap)) continue;
    const key = normalizeGap(gap);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    gaps.push(gap);
    if (gaps.length >= MAX_GAPS) break;
  }
  return gaps;
}

// "get_db in deps.py; verify_user()" on one line is a list only if every part is a target.
function splitInlineList(line: string): string[] {
  const parts = line.split(/\s*[;,]\s*/).filter(Boolean);
  if (parts.length > 1 && parts.every((p) => parseGapTarget(p).kind !== "fuzzy")) return parts;
  return [line];
}

function stripMarkup(line: string): string {
  return line.replace(/\*\*|__/g, "").trim();
}

function cleanGap(item: string): string {
  let gap = stripMarkup(item.replace(BULLET, ""))
    .replace(/`/g, "")
    .replace(/\s+/g, " ")
    .replace(/[.;,]+$/, "")
    .trim();
  if (gap.length > MAX_GAP_LENGTH) {
    const cut = gap.slice(0, MAX_GAP_LENGTH);
    gap = cut.slice(0, Math.max(cut.lastIndexOf(" "), MAX_GAP_LENGTH / 2)).trim();
  }
  return gap;
}

// Words that describe a target rather than name it ("the implementation of get_db()").
const FILLER_PREFIX =
  /^(?:(?:the|a|an)\s+)?(?:(?:full|complete|actual|source|source code|code|body|contents?|implementation|definition|declaration|details|logic)\s+(?:of|for|in)\s+)?(?:(?:the|a|an)\s+)?/i;
const KIND_WORD = /^(?:function|method|class|interface|type|struct|enum|trait|module|file|def|fn|func)\s+/i;
const SYMBOL_KIND_WORD = /^(?:function|method|class|interface|type|struct|enum|trait|def|fn|func)\s+/i;
const KIND_SUFFIX =
  /\s+(?:function|method|class|interface|type|struct|enum|trait|module|file|helper|definition|implementation)$/i;

/**
 * Canonical key for a gap, used for deduplication and the not-found set, so that
 * "The `get_db()` function in deps.py" and "get_db in deps.py" are the same request.
 */
export function normalizeGap(gap: string): string {
  const target = parseGapTarget(gap);
  if (target.kind === "symbol-in-file") return `${target.symbol} in ${target.path}`.toLowerCase();
  // A file or name mentioned inside a longer request ("what invalidates the cache in
  // deps.py") keeps its wording: other requests about the same file may still resolve.
  const bare = stripDescriptors(gap)
    .replace(KIND_WORD, "")
    .replace(KIND_SUFFIX, "")
    .replace(/\(\)$|(?::\d+){1,2}$/, "");
  if (target.kind === "file" && bare === target.path) return bare.toLowerCase();
  if (target.kind === "function" && bare === target.symbol) return bare.toLowerCase();
  return stripDescriptors(gap)
    .toLowerCase()
    .replace(/[`'"“”‘’]/g, "")
    .replace(/[^\w\s./:-]/g, " ")
    .replace(/\s+/g, " ")
    .replace(/[.:]+$/, "")
    .trim();
}

function stripDescriptors(gap: string): string {
  return gap
    .replace(BULLET, "")
    .replace(/[`*]/g, "")
    .replace(/["“”]/g, "")
    .trim()
    .replace(FILLER_PREFIX, "")
    .replace(/[.;,:]+$/, "")
    .trim();
}

const SYMBOL = "[A-Za-z_$][\\w$]*(?:(?:\\.|::|#)[A-Za-z_$][\\w$]*)*";
const PATH = "[\\w@./~-]*[\\w@-]\\.[A-Za-z0-9]{1,5}|[\\w@.~-]+(?:/[\\w@.~-]+)+/?";
const QUALIFIED_ID = new RegExp(`^(${PATH}|[\\w.@/-]+)::(${SYMBOL})(?:\\(\\))?$`);
const SYMBOL_IN_PATH = new RegExp(
  `(?:^|\\s)(${SYMBOL})(?:\\(\\))?(?:\\s+(?:function|method|class|interface|type|struct|enum|trait|helper))?\\s+(?:(?:is\\s+)?(?:defined|declared|implemented|located)\\s+)?(?:in|from|at|inside|within|of)\\s+(?:the\\s+)?(?:file\\s+|module\\s+)?(${PATH})(?:\\s+(?:file|module))?$`,
);
const SYMBOL_PAREN_PATH = new RegExp(`^(${SYMBOL})(?:\\(\\))?\\s*\\((${PATH})\\)$`);
const PATH_ANYWHERE = new RegExp(`(?:^|[\\s(])(${PATH})(?=$|[\\s),:;])`, "g");

/** Classifies a gap into the lookup it calls for: a symbol in a file, a file, a named symbol, or free text. */
export function parseGapTarget(gap: string): GapTarget {
  const text = stripDescriptors(gap).replace(/\s+/g, " ");

  const qualified = QUALIFIED_ID.exec(text.replace(KIND_WORD, ""));
  if (qualified?.[1] && qualified[2])
    return { kind: "symbol-in-file", symbol: qualified[2], path: qualified[1] };

  const core = text.replace(KIND_WORD, "").replace(KIND_SUFFIX, "");
  // "method Foo.save" says it is a symbol even if the name could pass for a file name.
  if (SYMBOL_KIND_WORD.test(text) && !/\s(?:in|from|at|inside|within|of)\s/.test(text)) {
    const named = namedSymbol(text);
    if (named) return { kind: "function", symbol: named, path: null };
  }
  const paren = SYMBOL_PAREN_PATH.exec(core);
  if (paren?.[1] && paren[2] && isTargetPath(paren[2])) {
    return { kind: "symbol-in-file", symbol: paren[1], path: paren[2] };
  }
  const inPath = SYMBOL_IN_PATH.exec(text);
  if (inPath?.[1] && inPath[2] && isTargetPath(inPath[2]) && namesSymbol(text, inPath)) {
    return { kind: "symbol-in-file", symbol: inPath[1], path: inPath[2] };
  }

  if (isTargetPath(core)) return { kind: "file", symbol: null, path: core };
  const mentioned = [...text.matchAll(PATH_ANYWHERE)].map((m) => m[1] ?? "").find(isTargetPath);
  if (mentioned) return { kind: "file", symbol: null, path: mentioned };

  const named = namedSymbol(text);
  if (named) return { kind: "function", symbol: named, path: null };
  return { kind: "fuzzy", symbol: null, path: null };
}

// "what invalidates the cache in deps.py" mentions a file but names no symbol: the word
// before "in" only counts when it is code-shaped or the phrase is short.
function namesSymbol(text: string, match: RegExpExecArray): boolean {
  const symbol = match[1] ?? "";
  const before = text.slice(0, match.index + (match[0].startsWith(" ") ? 1 : 0)).trim();
  const beforeWords = before === "" ? [] : before.replace(KIND_WORD, "").split(/\s+/);
  const codeShaped = looksLikeCode(symbol) || /\(\)\s/.test(match[0]);
  const onlyKindWordBefore = beforeWords.length === 0 || KIND_WORD.test(`${before} `);
  return codeShaped ? beforeWords.length <= 3 : onlyKindWordBefore && !STOP_SYMBOLS.has(symbol.toLowerCase());
}

const STOP_SYMBOLS = new Set("it this that code logic usage calls everything something".split(" "));

function isTargetPath(candidate: string): boolean {
  if (!candidate || /\s/.test(candidate)) return false;
  const ext = /\.([A-Za-z0-9]+)$/.exec(candidate)?.[1]?.toLowerCase();
  // "Foo.bar" is a method, not a file, even though it has a dot.
  if (ext && !SOURCE_EXTENSIONS.has(ext) && !candidate.includes("/")) return false;
  return isPathLike(candidate);
}

// "verify_user()", "function verify_user", "class SessionStore", "method Foo.save",
// "SessionStore class", or a lone code-shaped name.
function namedSymbol(text: string): string | null {
  const declared =
    KIND_THEN_SYMBOL.exec(text)?.[1] ?? SYMBOL_THEN_KIND.exec(text)?.[1] ?? CALL.exec(text)?.[1];
  if (declared) return declared;
  const lone = LONE_SYMBOL.exec(text)?.[1];
  return lone && looksLikeCode(lone) ? lone : null;
}

const SYMBOL_KINDS = "function|method|class|interface|type|struct|enum|trait";
const KIND_THEN_SYMBOL = new RegExp(`^(?:${SYMBOL_KINDS}|def|fn|func)\\s+(${SYMBOL})(?:\\(\\))?$`, "i");
const SYMBOL_THEN_KIND = new RegExp(`^(${SYMBOL})(?:\\(\\))?\\s+(?:${SYMBOL_KINDS}|helper)$`, "i");
const CALL = new RegExp(`(?:^|[\\s(])(${SYMBOL})\\((?:[^()]{0,40})\\)`);
const LONE_SYMBOL = new RegExp(`^(${SYMBOL})$`);
