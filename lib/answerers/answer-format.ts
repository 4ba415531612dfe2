// Reading what the model says is missing. Each CGRAG pass asks the model for an answer plus
// a list of gaps; models rarely follow the format exactly (unclosed tags, legacy headers,
// fenced XML, chatty bullets), and every gap string becomes a retrieval lookup and a key in
// the session's not-found set. So this module parses leniently, normalizes gaps into stable
// keys, classifies each gap into a lookup target, and filters the streamed text so the user
// only ever sees the answer part (never tags, the missing list, or <reasoning>/<think> blocks).

import { looksLikeCode } from "../search/anchors";
import { isPathLike, SOURCE_EXTENSIONS } from "../search/written-paths.ts";

export type OutputFormat = "tags" | "legacy" | "none";

export interface ParsedModelOutput {
  answer: string;
  gaps: string[];
  format: OutputFormat;
  /** Whether the model wrote a missing section at all (even an empty or "NONE" one). */
  missingSection: boolean;
}

export type GapTargetKind = "symbol-in-file" | "file" | "function" | "fuzzy";

export interface GapTarget {
  kind: GapTargetKind;
  symbol: string | null;
  path: string | null;
}

export interface AnswerStreamFilter {
  /** Accepts the next text delta; returns the part that is safe to display now. */
  push(delta: string): string;
  /** Flushes whatever was held back waiting for a possible tag; call once at the end. */
  end(): string;
}

/** Longest gap kept; longer lines are prose, and a lookup key that long never matches. */
export const MAX_GAP_LENGTH = 160;
/** More gaps than this in one pass means the model is listing everything, not what it needs. */
export const MAX_GAPS = 10;
/** How much text the stream filter may hold while deciding how a reply opens. */
const START_HOLD = 400;

const ANSWER_OPEN = /<\s*answer\s*>/i;
const ANSWER_CLOSE = /<\s*\/\s*answer\s*>/i;
const MISSING_OPEN = /<\s*missing\s*>/i;
const MISSING_CLOSE = /<\s*\/\s*missing\s*>/i;
const ANY_TAG = /<\s*\/?\s*(?:answer|missing)\s*>/gi;

// A section header line: "ANSWER:", "**MISSING:**", "## Missing", "Missing context:",
// 'MISSING (or "NONE" if nothing needed):', with optional inline content after the colon.
const MAX_HEADER_LINE = 200;
const HEADER =
  /^(#{1,6}[ \t]*)?(\*\*|__)?[ \t]*(answer|missing)((?:[ \t]+(?:context|information|info|code|items|pieces|details))?[ \t]*(?:\([^)\n]*\))?)[ \t]*(\*\*|__)?[ \t]*(:)?[ \t]*(\*\*|__)?[ \t]*(.*)$/i;

interface Header {
  kind: "answer" | "missing";
  /** Text after the header on the same line ("MISSING: NONE"). */
  inline: string;
  /** True when a colon made it unambiguous; a bare "## Missing" heading is weaker. */
  strict: boolean;
}

function parseHeader(line: string): Header | null {
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

/** Splits a model reply into the answer and the list of missing-context gaps. */
export function parseModelOutput(text: string): ParsedModelOutput {
  const normalized = stripWrappingFences(stripHiddenBlocks(text.replace(/\r\n?/g, "\n")));
  if (ANSWER_OPEN.test(normalized) || MISSING_OPEN.test(normalized)) return parseTagged(normalized);
  const legacy = parseLegacy(normalized, false);
  if (legacy) return legacy;
  return { answer: cleanAnswer(normalized), gaps: [], format: "none", missingSection: false };
}

function parseTagged(text: string): ParsedModelOutput {
  const missing = tagBlock(text, MISSING_OPEN, [MISSING_CLOSE, ANSWER_OPEN]);
  const answer = tagBlock(text, ANSWER_OPEN, [ANSWER_CLOSE, MISSING_OPEN]);
  let missingBody = missing?.body ?? null;
  let answerText: string;
  if (answer) {
    answerText = answer.body;
    // Without a <missing> tag, a legacy MISSING header may follow the answer (or sit inside
    // an unclosed one); a colon is required so that headings inside prose survive.
    if (missingBody === null) {
      const closed = ANSWER_CLOSE.test(text.slice(answer.start));
      const region = closed ? text.slice(answer.end) : answer.body;
      const body = legacyMissingBody(region);
      if (body !== null) {
        missingBody = body;
        if (!closed) answerText = parseLegacy(region, true)?.answer ?? answerText;
      }
    }
    // An empty answer tag with prose outside it: the prose is the answer.
    if (cleanAnswer(answerText) === "") answerText = outsideBlocks(text, [answer, missing]);
  } else {
    answerText = outsideBlocks(text, [missing]);
  }
  return {
    answer: cleanAnswer(answerText),
    gaps: missingBody === null ? [] : parseGapSection(missingBody),
    format: "tags",
    missingSection: missingBody !== null,
  };
}

interface TagBlock {
  /** Index of the opening tag. */
  start: number;
  /** Index just past the block's closing tag (or where the block was cut off). */
  end: number;
  body: string;
}

// A block runs from its opening tag to its closing tag, to the next block's opening tag, or
// to the end of the text when the model stopped without closing it.
function tagBlock(text: string, open: RegExp, terminators: RegExp[]): TagBlock | null {
  const o = open.exec(text);
  if (!o) return null;
  const bodyStart = o.index + o[0].length;
  const rest = text.slice(bodyStart);
  let cut = rest.length;
  let cutLength = 0;
  terminators.forEach((t, i) => {
    const m = t.exec(rest);
    if (m && m.index < cut) {
      cut = m.index;
      cutLength = i === 0 ? m[0].length : 0;
    }
  });
  return { start: o.index, end: bodyStart + cut + cutLength, body: rest.slice(0, cut) };
}

function outsideBlocks(text: string, blocks: (TagBlock | null)[]): string {
  const spans = blocks.filter((b): b is TagBlock => b !== null).sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, Math.max(at, span.start));
    at = Math.max(at, span.end);
  }
  return out + text.slice(at);
}

function legacyMissingBody(text: string): string | null {
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const header = parseHeader(lines[i] ?? "");
    if (header?.kind === "missing" && header.strict) {
      return [header.inline, ...lines.slice(i + 1)].join("\n");
    }
  }
  return null;
}

function parseLegacy(text: string, strictOnly: boolean): ParsedModelOutput | null {
  const lines = text.split("\n");
  let answerAt = -1;
  let missingAt = -1;
  let answerInline = "";
  let missingInline = "";
  lines.forEach((line, i) => {
    const header = parseHeader(line);
    if (!header || (strictOnly && !header.strict)) return;
    if (header.kind === "answer" && answerAt === -1 && missingAt === -1) {
      answerAt = i;
      answerInline = header.inline;
    } else if (header.kind === "missing") {
      // The last MISSING header wins: models put the section at the end, and an earlier
      // "Missing:" is more likely a heading inside the answer.
      missingAt = i;
      missingInline = header.inline;
    }
  });
  if (answerAt === -1 && missingAt === -1) return null;
  const answerStart = answerAt === -1 ? 0 : answerAt + 1;
  const answerEnd = missingAt === -1 ? lines.length : missingAt;
  const answerLines = [answerInline, ...lines.slice(answerStart, Math.max(answerStart, answerEnd))];
  const missing = missingAt === -1 ? null : [missingInline, ...lines.slice(missingAt + 1)].join("\n");
  return {
    answer: cleanAnswer(answerLines.join("\n")),
    gaps: missing === null ? [] : parseGapSection(missing),
    format: "legacy",
    missingSection: missing !== null,
  };
}

// Models sometimes wrap the whole tagged reply in ```xml … ```. Only fences that sit directly
// against a tag and are not closing a real code block are removed, so code in the answer survives.
function stripWrappingFences(text: string): string {
  const lines = text.split("\n");
  const isFence = (l: string) => /^\s*(?:```|~~~)[\w-]*\s*$/.test(l);
  const neighbour = (i: number, step: 1 | -1): string => {
    for (let j = i + step; j >= 0 && j < lines.length; j += step) {
      const l = lines[j]?.trim();
      if (l) return l;
    }
    return "";
  };
  let inCode = false;
  return lines
    .filter((line, i) => {
      if (!isFence(line)) return true;
      if (!inCode) {
        const opensTag = /^<\s*(?:answer|missing)\s*>/i.test(neighbour(i, 1));
        const followsClose = /<\s*\/\s*(?:answer|missing)\s*>$/i.test(neighbour(i, -1));
        if (opensTag || followsClose) return false;
      }
      inCode = !inCode;
      return true;
    })
    .join("\n");
}

function cleanAnswer(text: string): string {
  let withoutTags = text.replace(ANY_TAG, "");
  const lt = withoutTags.lastIndexOf("<");
  if (lt !== -1 && isDanglingTag(withoutTags.slice(lt).trimEnd())) withoutTags = withoutTags.slice(0, lt);
  const lines = withoutTags.split("\n");
  // A header line left at the very start ("ANSWER:") is markup, not content.
  const first = lines.findIndex((l) => l.trim() !== "");
  if (first >= 0) {
    const header = parseHeader(lines[first] ?? "");
    if (header?.kind === "answer") lines[first] = header.inline;
  }
  return trimDanglingFence(lines.join("\n").trim());
}

// An unmatched fence at the end is what remains of a fence that wrapped the tags.
function trimDanglingFence(text: string): string {
  const fences = text.match(/^[ \t]*(?:```|~~~)/gm)?.length ?? 0;
  const trailing = /\n?[ \t]*(?:```|~~~)[\w-]*[ \t]*$/;
  if (fences % 2 === 1 && trailing.test(text)) return text.replace(trailing, "").trim();
  return text;
}

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

/**
 * Incremental filter for a streamed model reply: passes through answer text and withholds
 * tags, headers, reasoning blocks and everything from the missing section on. Text that
 * might be the start of a tag ("<ans") is held until the next delta decides it.
 */
export function createAnswerStreamFilter(): AnswerStreamFilter {
  const hidden = createHiddenBlockFilter();
  const answer = createSectionFilter();
  let carriageReturn = false;
  // "\r" at the end of one delta and "\n" at the start of the next are one line break.
  const lineBreaks = (delta: string): string => {
    let text = (carriageReturn ? "\r" : "") + delta;
    carriageReturn = text.endsWith("\r");
    if (carriageReturn) text = text.slice(0, -1);
    return text.replace(/\r\n?/g, "\n");
  };
  return {
    push: (delta) => answer.push(hidden.push(lineBreaks(delta))),
    end: () => {
      const rest = hidden.push(carriageReturn ? "\n" : "") + hidden.end();
      return answer.push(rest) + answer.end();
    },
  };
}

const HIDDEN_BLOCK = /<\s*(reasoning|think|thinking)\s*>[\s\S]*?(?:<\s*\/\s*\1\s*>|$)/gi;
const HIDDEN_OPEN = /<\s*(reasoning|think|thinking)\s*>/i;
const HIDDEN_TAG_TEXTS = ["<reasoning>", "<think>", "<thinking>"];

// Reasoning models (and our own prompt's <reasoning> block) write text that is not answer.
function stripHiddenBlocks(text: string): string {
  return text.replace(HIDDEN_BLOCK, "");
}

function createHiddenBlockFilter(): AnswerStreamFilter {
  let inside: string | null = null;
  let buffer = "";
  const drain = (): string => {
    let out = "";
    for (;;) {
      if (inside !== null) {
        const close = new RegExp(`<\\s*\\/\\s*${inside}\\s*>`, "i").exec(buffer);
        if (!close) {
          const lt = buffer.lastIndexOf("<");
          buffer = lt !== -1 && buffer.length - lt < 16 ? buffer.slice(lt) : "";
          return out;
        }
        buffer = buffer.slice(close.index + close[0].length);
        inside = null;
        continue;
      }
      const open = HIDDEN_OPEN.exec(buffer);
      if (open) {
        out += buffer.slice(0, open.index);
        buffer = buffer.slice(open.index + open[0].length);
        inside = open[1]?.toLowerCase() ?? "reasoning";
        continue;
      }
      const hold = heldPrefixLength(buffer, HIDDEN_TAG_TEXTS);
      out += buffer.slice(0, buffer.length - hold);
      buffer = buffer.slice(buffer.length - hold);
      return out;
    }
  };
  return {
    push(delta: string): string {
      buffer += delta;
      return drain();
    },
    end(): string {
      const rest = inside === null ? buffer : "";
      buffer = "";
      return rest;
    },
  };
}

function createSectionFilter(): AnswerStreamFilter {
  type State = "start" | "answer" | "after" | "missing";
  let state: State = "start";
  let tagged = false;
  let pending = "";
  let atLineStart = true;
  let emittedAny = false;

  const emit = (text: string): string => {
    if (text === "") return "";
    // Leading blank space before the first answer character is layout around tags.
    const out = emittedAny ? text : text.replace(/^\s+/, "");
    if (out !== "") emittedAny = true;
    return out;
  };

  // Decides the opening: "<answer>" (any preamble is dropped, as the parser drops it), a
  // legacy ANSWER header, or plain text. Until the first line is complete it waits, but
  // never for more than START_HOLD characters.
  const resolveStart = (final: boolean): string => {
    const open = ANSWER_OPEN.exec(pending);
    if (open) {
      tagged = true;
      state = "answer";
      pending = pending.slice(open.index + open[0].length);
      atLineStart = false;
      return processAnswer(final);
    }
    const lines = pending.split("\n");
    const complete = lines.slice(0, -1);
    const tail = (lines[lines.length - 1] ?? "").trimStart();
    const first = complete.findIndex((l) => l.trim() !== "" && !/^\s*(?:```|~~~)[\w-]*\s*$/.test(l));
    const mayWait = !final && pending.length < START_HOLD;
    if (first === -1 && mayWait) return "";
    const firstLine = first === -1 ? tail : (complete[first] ?? "");
    const header = parseHeader(firstLine);
    if (header?.kind === "answer") {
      state = "answer";
      pending = [header.inline, ...(first === -1 ? [] : lines.slice(first + 1))].join("\n");
      atLineStart = header.inline === "";
      return processAnswer(final);
    }
    // "Here is my answer:" right before a tag that has not arrived yet.
    const soleLine = first === complete.length - 1 && (tail === "" || couldStartTag(tail));
    if (mayWait && soleLine && firstLine.trimEnd().endsWith(":") && !MISSING_OPEN.test(pending)) return "";
    state = "answer";
    atLineStart = true;
    return processAnswer(final);
  };

  const processAnswer = (final: boolean): string => {
    let out = "";
    while (pending !== "") {
      const tagIndex = findTag(pending);
      const lineHeld = heldHeaderLine(pending, atLineStart, tagged);
      if (tagIndex && (lineHeld === null || tagIndex.index < lineHeld.index)) {
        out += passText(pending.slice(0, tagIndex.index));
        pending = pending.slice(tagIndex.index + tagIndex.length);
        if (tagIndex.kind === "missing-open") {
          state = "missing";
          pending = "";
          return emit(cleanStreamed(out));
        }
        if (tagIndex.kind === "answer-close") {
          state = "after";
          pending = "";
          return emit(cleanStreamed(out));
        }
        continue; // a stray <answer> or </missing>: drop it and go on
      }
      if (lineHeld) {
        out += passText(pending.slice(0, lineHeld.index));
        const rest = pending.slice(lineHeld.index);
        const newline = rest.indexOf("\n");
        const line = newline === -1 ? rest : rest.slice(0, newline);
        const header = parseHeader(line);
        const decided = newline !== -1 || final || /:/.test(line) || line.length > 120;
        if (!decided) {
          pending = rest;
          return emit(cleanStreamed(out));
        }
        if (header?.kind === "missing" && (header.strict || !tagged)) {
          state = "missing";
          pending = "";
          return emit(cleanStreamed(out));
        }
        // Not a header after all: release the line and continue after it.
        const consumed = newline === -1 ? rest : rest.slice(0, newline + 1);
        out += passText(consumed);
        pending = newline === -1 ? "" : rest.slice(newline + 1);
        continue;
      }
      const hold = partialTagLength(pending);
      out += passText(pending.slice(0, pending.length - hold));
      pending = pending.slice(pending.length - hold);
      break;
    }
    if (final && pending !== "") {
      out += isDanglingTag(pending) ? "" : passText(pending);
      pending = "";
    }
    return emit(cleanStreamed(out));
  };

  const passText = (text: string): string => {
    if (text !== "") atLineStart = text.endsWith("\n");
    return text;
  };

  const step = (final: boolean): string => {
    if (state === "start") return resolveStart(final);
    if (state === "answer") return processAnswer(final);
    pending = "";
    return "";
  };

  return {
    push(delta: string): string {
      if (state === "after" || state === "missing") return "";
      pending += delta;
      return step(false);
    },
    end(): string {
      if (state === "after" || state === "missing") return "";
      return step(true);
    },
  };
}

type TagKind = "answer-open" | "answer-close" | "missing-open" | "missing-close";

function findTag(text: string): { index: number; length: number; kind: TagKind } | null {
  const m = /<\s*(\/?)\s*(answer|missing)\s*>/i.exec(text);
  if (!m) return null;
  const kind = `${m[2]?.toLowerCase()}-${m[1] ? "close" : "open"}` as TagKind;
  return { index: m.index, length: m[0].length, kind };
}

const TAG_TEXTS = ["<answer>", "</answer>", "<missing>", "</missing>"];

function couldStartTag(fragment: string, tags: readonly string[] = TAG_TEXTS): boolean {
  if (!fragment.startsWith("<")) return false;
  const compact = fragment.replace(/\s+/g, "").toLowerCase();
  return tags.some((t) => t.startsWith(compact) && compact.length < t.length);
}

function heldPrefixLength(text: string, tags: readonly string[]): number {
  const lt = text.lastIndexOf("<");
  if (lt === -1 || text.length - lt > 16) return 0;
  return couldStartTag(text.slice(lt), tags) ? text.length - lt : 0;
}

// A tag cut off by the end of the stream ("</ans") is markup, but a lone "<" may be prose.
function isDanglingTag(fragment: string): boolean {
  return couldStartTag(fragment) && fragment.replace(/\s+/g, "").length >= 3;
}

// How many trailing characters could be the beginning of a tag and must wait for more text.
function partialTagLength(text: string): number {
  return heldPrefixLength(text, TAG_TEXTS);
}

// A line that begins like a MISSING header ("MISS", "## Missing", "**MISSING (or") is held
// until it is complete; anything else passes straight through.
function heldHeaderLine(text: string, atLineStart: boolean, tagged: boolean): { index: number } | null {
  const firstBreak = text.indexOf("\n");
  if (!atLineStart && firstBreak === -1) return null;
  let index = atLineStart ? 0 : firstBreak + 1;
  for (;;) {
    const lineEnd = text.indexOf("\n", index);
    if (couldBeMissingHeader(text.slice(index, lineEnd === -1 ? undefined : lineEnd), tagged))
      return { index };
    if (lineEnd === -1) return null;
    index = lineEnd + 1;
  }
}

function couldBeMissingHeader(line: string, tagged: boolean): boolean {
  const stripped = line.replace(/^[ \t]*(?:#{1,6}[ \t]*)?(?:\*\*|__)?[ \t]*/, "");
  if (stripped === "") return line.trim() !== "" && /^[ \t]*(?:#|\*|_)/.test(line) && !tagged;
  const word = stripped.slice(0, 7).toLowerCase();
  return "missing".startsWith(word) || word === "missing";
}

function cleanStreamed(text: string): string {
  return text.replace(ANY_TAG, "");
}
