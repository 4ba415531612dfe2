/**
 * Reading the evidence an answerer is given: where a cited item is, its docstring's
 * first sentence, the error sites in context (those matching the question's error
 * first), the condition guarding a raise, the message raised with a type, and the
 * traced call flow (its steps and its main line). Shared by the evidence engine's
 * body and its opening sentences (opening.ts). Pure.
 */
import { citeItem } from "./cite.ts";
import type { AnswerInput, ContextItem } from "./contract.ts";
import {
  holdsWords,
  messageWords,
  PLACEHOLDER,
  recallsMessage,
  sharedRun,
  templatePieces,
  writesMessage,
} from "../search/message-text.ts";

export { PLACEHOLDER };

/** An item's citation: its focus lines when it has them (see cite.ts). */
export const cite = citeItem;

/**
 * The first sentence of a docstring or doc section as well-formed Markdown: reST/Sphinx
 * markup turned into code spans, examples and field lists dropped, every code span
 * closed, emphasis characters outside code spans escaped (`__init__` stays literal), and
 * the sentence cut where no code span is open.
 */
export function firstSentence(text: string): string {
  const clean = escapeInline(liftProse(text));
  const spans = codeSpanRanges(clean);
  const outside = (i: number) => !spans.some(([from, to]) => i > from && i < to);
  for (const m of clean.matchAll(/[.!?](?=\s|$)/g)) {
    const at = m.index ?? 0;
    if (at < 19) continue;
    if (at >= 240) break;
    if (outside(at)) return clean.slice(0, at + 1);
  }
  if (clean.length <= 200) return clean;
  // No sentence end in reach: cut at a word boundary outside any code span.
  let cut = clean.lastIndexOf(" ", 200);
  while (cut > 0 && !outside(cut)) cut = clean.lastIndexOf(" ", cut - 1);
  return `${clean.slice(0, cut > 0 ? cut : 200).trimEnd()}…`;
}

// Where a docstring's prose ends: a field list (`:rtype: float`, `@param x`, `Args:`),
// a doctest (`>>> f()`), a reST directive (`.. note::`), a literal block (`::`) or a
// fenced code block.
const PROSE_END =
  /\n\s*(?:```|~~~|:\w+[\w ]*:|@\w+|(?:Args|Arguments|Returns|Raises|Yields|Parameters|Examples?|Notes?|See Also)s?:?\s*(?:\n|$)|>>>|\.\. \w|::\s*(?:\n|$))/;

/**
 * Prose from a docstring or doc, as Markdown: Sphinx roles (`:class:` + `~pkg.Foo`) and
 * reST literals (double backticks) become code spans, reST links their text, and a
 * backtick left unmatched (a quote mark, a cut literal) goes, so no code span runs on.
 */
export function liftProse(text: string): string {
  // "Use it like this::" ends its prose with a colon; the literal block after it is code.
  const head = /^\s*(?:>>>|```|~~~)/.test(text) ? "" : (text.split(PROSE_END)[0] ?? text);
  const prose = (head.split(/::[ \t]*(?:\n|$)/)[0] ?? head)
    .replace(/^\s*>>>.*$/gm, "")
    .replace(HTML_TAG, " ")
    .replace(/\s+/g, " ")
    .trim();
  const lifted = prose
    .replace(/(?::[\w-]+)+:`([^`]+)`/g, (_m, target: string) => code(roleText(target)))
    .replace(/``([^`]+?)``/g, (_m, literal: string) => code(literal))
    .replace(/`([^`<]+?)\s*<[^`>]+>`_{1,2}/g, "$1")
    .replace(/(`[^`]+`)_{1,2}(?!\w)/g, "$1");
  return balanceBackticks(lifted);
}

// HTML that doc comments embed for rendered docs (rustdoc's example wrappers, Javadoc's <p>).
const HTML_TAG =
  /<\/?(?:div|span|pre|code|p|br|hr|a|b|i|em|strong|img|table|tr|td|th|ul|ol|li|h[1-6]|sup|sub|tt|details|summary)\b[^<>]*>/gi;

/** What a Sphinx role shows: `~a.b.C` → C, `text <target>` → text, `!name` → name. */
function roleText(target: string): string {
  const shown = /^(.+?)\s*<[^>]+>$/.exec(target)?.[1] ?? target;
  const bare = shown.replace(/^[!]/, "");
  return bare.startsWith("~") ? (bare.slice(1).split(".").pop() ?? bare) : bare;
}

/** Drops backticks that open a code span nothing closes (scanning as Markdown does, run by run). */
function balanceBackticks(text: string): string {
  const runs = [...text.matchAll(/`+/g)].map((m) => ({ at: m.index ?? 0, len: m[0].length }));
  const drop = new Set<number>();
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i] as { at: number; len: number };
    const close = runs.findIndex((r, j) => j > i && r.len === run.len);
    if (close < 0) drop.add(run.at);
    else i = close;
  }
  if (drop.size === 0) return text;
  return text.replace(/`+/g, (m, at: number) => (drop.has(at) ? "" : m));
}

/** The [start, end] offsets of each code span in well-formed inline Markdown. */
function codeSpanRanges(text: string): [number, number][] {
  const out: [number, number][] = [];
  const re = /(`+)[\s\S]*?[^`]\1(?!`)/g;
  for (const m of text.matchAll(re)) out.push([m.index ?? 0, (m.index ?? 0) + m[0].length - 1]);
  return out;
}

// A citation (`src/_pytest/main.py:3-9`) is left as written: the renderer protects it.
const CITATION_TOKEN = /([\w@+~./\\-]+\.\w{1,10}:\d+(?:-\d+)?)/;

/**
 * Text the engine writes outside code spans (titles, reasons, messages, lifted prose)
 * with Markdown's emphasis and tag characters escaped, so `__init__`, `*args` and
 * `_private` read as written. Code spans and citations are left alone.
 */
export function escapeInline(text: string): string {
  const spans = codeSpanRanges(text);
  let out = "";
  let last = 0;
  for (const [from, to] of [...spans, [text.length, text.length - 1] as [number, number]]) {
    out += text
      .slice(last, from)
      .split(CITATION_TOKEN)
      .map((part, i) => (i % 2 ? part : escapeProse(part)))
      .join("");
    out += text.slice(from, to + 1);
    last = to + 1;
  }
  return out;
}

/**
 * Escapes only what Markdown would read as markup, so plain text (and a terminal showing
 * it) keeps few backslashes: `*` and `~` always, `_` where it can open or close emphasis
 * (not between two letters or digits: `load_settings` is safe, `__init__` and `_x` are
 * not), a backtick, `<` before a tag or autolink, and a backslash before punctuation.
 */
function escapeProse(text: string): string {
  return text
    .replace(/\\(?=[!-/:-@[-`{-~])/g, "\\\\")
    .replace(/[*~`]/g, "\\$&")
    .replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, "\\_")
    .replace(/<(?=[A-Za-z/!?])/g, "\\<");
}

/** A code span holding `name` as written, its fence longer than any backtick run inside. */
export function code(name: string): string {
  const longest = Math.max(0, ...[...name.matchAll(/`+/g)].map((m) => m[0].length));
  if (longest === 0) return `\`${name}\``;
  const fence = "`".repeat(longest + 1);
  return `${fence} ${name} ${fence}`;
}

const AUXILIARY =
  /(^|\/)_?(tests?|testing|__tests__|spec|e2e|docs?|examples?|benchmarks?)\/|(^|\/)test_[^/]*$|(^|\/)conftest\.py$|_(?:unit)?tests?\.\w+$|[a-z0-9]Tests?\.(?:java|kt|cs|scala)$|\.(test|spec)\.[cm]?[jt]sx?$|\/(packages|_vendor|vendored|extern)\//;

export function isAuxiliary(path: string): boolean {
  return AUXILIARY.test(path);
}

// A test written beside the code: Rust's `mod tests`, a `test_` function, a method of an `XTest(s)` class.
const TEST_NAME = /(?:^|\.)tests?\.|(?:^|\.)test_\w+$|\w+Tests?\.\w+$/;

/**
 * Whether a qualified name is a test's, whatever its file: tests written inside a source
 * file (Rust's `#[cfg(test)] mod tests`, a `test_` function in a module).
 */
export function isTestName(qualifiedName: string): boolean {
  return TEST_NAME.test(qualifiedName);
}

/** Whether a caller is test or auxiliary code: by its file, or by its name for a test written in a source file. */
export function isAuxiliaryCaller(path: string, qualifiedName: string): boolean {
  return isAuxiliary(path) || isTestName(qualifiedName);
}

export interface ErrorSite {
  s: ContextItem;
  f: NonNullable<ContextItem["facts"]>;
  raised: string | null;
  message: string | null;
  /** its message or raised type is the one the question quotes or names */
  matched: boolean;
  rank: number;
}

/**
 * Symbols in context that raise or report an error, in the order an answer names them:
 * the one whose message matches the question's quoted message best first, then those
 * raising the error type it names (the type it names first before others), then by
 * retrieval score. When the question names an outer error first ("MaxRetryError …
 * Caused by NewConnectionError"), the site raising that one leads and the cause follows.
 * The opening and the body both read this order, so they name the same site first.
 */
export function errorSites(input: AnswerInput): ErrorSite[] {
  const types = input.anchors.exceptionTypes;
  const identifiers = new Set(input.anchors.identifiers);
  const anchorMessages = input.anchors.messages.map((m) => m.toLowerCase());
  const questionText = input.question.toLowerCase();
  // Messages compared by their words: a question drops or changes the code's quotes and
  // brackets (`opening [ and closing ]` for `opening '[' and closing ']'`).
  const wordsOf = (text: string) => messageWords(text).join(" ");
  const quotedWords = anchorMessages.map(wordsOf).filter((m) => m.length >= 8);
  const matchesMessage = (e: string) => {
    const literal = templatePieces(e)[0] ?? "";
    const own = wordsOf(e);
    return (
      (messageWords(literal).join("").length >= 8 && holdsWords(questionText, literal)) ||
      writesMessage(e, input.question) ||
      recallsMessage(e, input.question) ||
      (own.length >= 8 &&
        quotedWords.some((m) => m.includes(own.slice(0, 30)) || own.includes(m.slice(0, 30))))
    );
  };
  const quoted = anchorMessages.length ? anchorMessages.join(" ") : questionText;
  const sites = input.context
    .filter((i) => i.facts && i.path && i.facts.raises.length + i.facts.errorStrings.length > 0)
    .map((s) => {
      const f = s.facts as NonNullable<ContextItem["facts"]>;
      const named = f.raises.find((r) => types.includes(r)) ?? null;
      const raised = named ?? f.raises.find((r) => identifiers.has(r)) ?? null;
      const messages = f.errorStrings
        .filter(matchesMessage)
        .map((m) => ({ m, overlap: messageOverlap(m, quoted) }))
        .sort((a, b) => b.overlap - a.overlap);
      const message = messages[0]?.m ?? null;
      const typeRank = named
        ? 2 + (0.5 * (types.length - types.indexOf(named))) / types.length
        : raised
          ? 1
          : 0;
      return {
        s,
        f,
        // A message a log or warning call writes is reported, not raised with the site's type.
        raised: raised ?? (message && loggedHere(s.text, message) ? null : (f.raises[0] ?? null)),
        message,
        matched: message !== null || raised !== null,
        // What matches outranks any retrieval score (capped so it only breaks ties).
        rank: (message ? 4 + 2 * (messages[0]?.overlap ?? 0) : 0) + typeRank + 0.5 * Math.min(1, s.score),
      };
    })
    .sort((a, b) => b.rank - a.rank);
  const outer = types[0] ? sites.find((x) => x.f.raises.includes(types[0] as string)) : undefined;
  const lead = sites[0];
  if (!lead || !outer || outer === lead || lead.f.raises.includes(types[0] as string)) return sites;
  return [outer, ...sites.filter((x) => x !== outer)];
}

/**
 * Whether a message is written inside a logging, warning or printing call
 * (`log.warning("Connection pool is full …")`, `logger.error(…)`, `fmt.Printf(…)`): the
 * call whose parenthesis is still open where the message's literal starts.
 */
export function loggedHere(text: string, message: string): boolean {
  const piece = (message.split(PLACEHOLDER)[0] ?? "").trim().slice(0, 30);
  const at = piece.length >= 8 ? text.indexOf(piece) : -1;
  if (at < 0) return false;
  let depth = 0;
  for (let i = at - 1; i >= Math.max(0, at - 400); i--) {
    const c = text[i];
    if (c === ")") depth++;
    else if (c === "(" && depth > 0) depth--;
    else if (c === "(") {
      const callee = /([\w$.:>-]+)\s*$/.exec(text.slice(Math.max(0, i - 80), i))?.[1] ?? "";
      return LOGGING_CALL.test(callee);
    }
  }
  return false;
}

const LOGGING_CALL =
  /(?:^|[.:>])(?:log|logger|logging|console|warnings|LOG|Log|Logger)\b[\w.:>-]*$|(?:^|[.:>])(?:warn|warning|info|debug|critical|fatal|notice|trace|print|printf|println|eprintln|eprint|fprintf|puts|WriteLine|LogWarning|LogError|LogInformation)$/;

/**
 * Whether a message template makes a text's message, each placeholder standing for the
 * value it held ("fixture {argname!r} not found" for "fixture 'db' not found"), its words
 * matched whatever punctuation stands between them; never for a plain literal or a
 * template with too few literal letters to tell.
 */
export function templateMakes(template: string, text: string): boolean {
  return templatePieces(template).length > 1 && writesMessage(template, text, 8);
}

/**
 * How well a message matches the question's quoted text: the share of its words the
 * quote holds and the share of the quote's words it holds, averaged (so "timed out" is a
 * weaker match for "read timed out after 30 seconds" than the message that says it all).
 */
function messageOverlap(message: string, quoted: string): number {
  const words = (text: string) =>
    new Set(
      text
        .toLowerCase()
        .replace(new RegExp(PLACEHOLDER.source, "g"), " ")
        .split(/[^a-z0-9_]+/)
        .filter((w) => w.length >= 3 && !/^\d+$/.test(w)),
    );
  const own = words(message);
  const asked = words(quoted);
  if (own.size === 0 || asked.size === 0) return 0;
  const shared = [...own].filter((w) => asked.has(w)).length;
  return (shared / own.size + shared / asked.size) / 2;
}

/**
 * The string literal on the line that raises `type` (`raise PaymentDeclined("card declined")`
 * → card declined); of several such lines, the one sharing the longest run of words with
 * `quoted` (the question's message), else the first.
 */
export function raisedMessage(source: string, type: string, quoted = ""): string | null {
  const name = type.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const raises = new RegExp(`\\b(?:raise|throw)\\b.*\\b${name}\\b`);
  let best: { literal: string; run: number } | null = null;
  for (const line of source.split("\n")) {
    if (!raises.test(line)) continue;
    const literal = /\(\s*[frbu]?(["'`])((?:\\.|(?!\1)[^\\]){3,200})\1/.exec(
      line.slice(line.indexOf(type)),
    )?.[2];
    if (!literal) continue;
    const run = quoted ? sharedRun(literal, quoted) : 0;
    if (!best || run > best.run) best = { literal, run };
  }
  return best?.literal ?? null;
}

/**
 * The condition guarding the line that raises: the nearest enclosing `if`/`elif`/`while`
 * above it with less indentation (`if isinstance(request, Request):` → that test).
 */
export function conditionOf(source: string, needle: string): string | null {
  if (!needle) return null;
  const lines = source.split("\n");
  // A message stored with `{…}` for an interpolated value is found in the code by its
  // longest piece written on one line (a message may be split over lines of code).
  const pieces = templatePieces(needle)
    .map((p) => p.trim().slice(0, 40))
    .filter((p) => p.length >= 8)
    .sort((a, b) => b.length - a.length);
  const probe =
    [...pieces, needle.slice(0, 40)].find((p) => lines.some((l) => l.includes(p))) ?? needle.slice(0, 40);
  const at = lines.findIndex((l) => l.includes(probe) && /\b(raise|throw|panic|Error|error)\b/.test(l));
  const index = at >= 0 ? at : lines.findIndex((l) => l.includes(probe));
  if (index <= 0) return null;
  const indent = (l: string) => l.length - l.trimStart().length;
  let depth = indent(lines[index] as string);
  for (let i = index - 1; i >= 0 && index - i <= 12; i--) {
    const line = lines[i] as string;
    // A brace on a line of its own (C#, C++, Java in Allman style) opens the block of the line above.
    if (!line.trim() || /^\s*\{\s*$/.test(line)) continue;
    if (indent(line) >= depth) continue;
    // In an `else` branch the test above is the other branch's: no condition is claimed.
    if (/^\s*(?:\}\s*)?else\s*(?::|\{)?\s*$/.test(line)) return null;
    const m = /^\s*(?:if|elif|else if|while|unless)\s*(.+?)\s*(?::|\{)?\s*$/.exec(line);
    if (m?.[1] && m[1].length <= 100) return withoutOuterParens(m[1].trim().replace(/\)\s*\{$/, ")"));
    depth = indent(line);
    if (/^\s*(?:def|function|class|func|fn)\b/.test(line)) return null;
  }
  return null;
}

/** `(a && b)` → `a && b`, but `not name.isascii()` stays whole: only parentheses that wrap it all go. */
function withoutOuterParens(text: string): string {
  if (!text.startsWith("(") || !text.endsWith(")")) return text;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")") depth--;
    if (depth === 0 && i < text.length - 1) return text;
  }
  return text.slice(1, -1).trim();
}

export interface FlowStep {
  name: string;
  path: string;
  lines: string;
  depth: number;
  descendants: number;
  /** drawn `⇒`: on the line to where the question says the flow ends */
  endward: boolean;
  /** drawn `↪`: called only under a check or in an error handler, beside the main line */
  side?: boolean;
}

/**
 * The nodes of the traced flow (`name()  [path:a-b]`, four spaces a level, `→` a callee, `⇒` a
 * callee on the line to where the question says the flow ends, `↪` one called only under a check
 * or in an error handler), in order.
 */
export function flowNodes(input: AnswerInput, key = "flow:"): FlowStep[] {
  const flow = input.context.find((i) => i.kind === "flow" && i.key.startsWith(key));
  if (!flow) return [];
  const steps: FlowStep[] = [];
  for (const raw of flow.text.split("\n")) {
    const m = raw.match(/^(\s*)(?:([→←⇒↪])\s*)?(.+?)\(\)\s+\[(.+?):(\d+-\d+)\]$/);
    if (m)
      steps.push({
        name: m[3] ?? "",
        path: m[4] ?? "",
        lines: m[5] ?? "",
        depth: Math.floor((m[1] ?? "").length / 4),
        descendants: 0,
        endward: m[2] === "⇒",
        side: m[2] === "↪",
      });
  }
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as FlowStep;
    let j = i + 1;
    while (j < steps.length && (steps[j] as FlowStep).depth > step.depth) j++;
    step.descendants = j - i - 1;
  }
  return steps;
}

/**
 * The entry and, at each level, the step that leads furthest (the main line of the flow);
 * `weight` adds to a step's worth (how much its part of the flow bears on the question).
 */
export function mainPath(steps: FlowStep[], max = 5, weight: (i: number) => number = () => 0): FlowStep[] {
  const first = steps[0];
  if (!first) return [];
  const path = [first];
  let at = 0;
  const value = (i: number) => (steps[i] as FlowStep).descendants + weight(i);
  while (path.length < max) {
    const parent = steps[at] as FlowStep;
    let best = -1;
    for (let i = at + 1; i < steps.length && (steps[i] as FlowStep).depth > parent.depth; i++) {
      const s = steps[i] as FlowStep;
      if (s.depth !== parent.depth + 1) continue;
      if (best < 0 || value(i) > value(best)) best = i;
    }
    if (best < 0) break;
    path.push(steps[best] as FlowStep);
    at = best;
  }
  return path;
}

export function joinWords(items: string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

export function uniqueBy<T>(items: T[], key: (t: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((t) => {
    const k = key(t);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
