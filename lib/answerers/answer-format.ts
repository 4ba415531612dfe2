// Reading what the model says is missing. Each CGRAG pass asks the model for an answer plus
// a list of gaps; models rarely follow the format exactly (unclosed tags, legacy headers,
// fenced XML, chatty bullets), and every gap string becomes a retrieval lookup and a key in
// the session's not-found set. So this module parses leniently (the gap list's items, their
// keys and lookup targets are read in gap-format.ts) and filters the streamed text so the user
// only ever sees the answer part (never tags, the missing list, or <reasoning>/<think> blocks).

import { ANY_TAG, parseGapSection, parseHeader } from "./gap-format.ts";

export type OutputFormat = "tags" | "legacy" | "none";

export interface ParsedModelOutput {
  answer: string;
  gaps: string[];
  format: OutputFormat;
  /** Whether the model wrote a missing section at all (even an empty or "NONE" one). */
  missingSection: boolean;
}

export interface AnswerStreamFilter {
  /** Accepts the next text delta; returns the part that is safe to display now. */
  push(delta: string): string;
  /** Flushes whatever was held back waiting for a possible tag; call once at the end. */
  end(): string;
}

/** Longest gap kept; longer lines are prose, and a lookup key that long never matches. */
const START_HOLD = 400;

const ANSWER_OPEN = /<\s*answer\s*>/i;
const ANSWER_CLOSE = /<\s*\/\s*answer\s*>/i;
const MISSING_OPEN = /<\s*missing\s*>/i;
const MISSING_CLOSE = /<\s*\/\s*missing\s*>/i;

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
