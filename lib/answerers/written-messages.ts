/**
 * Where a diagnostic question's quoted message is written in the code, when no raise
 * site reports it as written (a format string handed to a checking helper, an f-string
 * assigned before the raise, a module constant, the detail a template wraps), and the
 * callers a pasted stack trace shows. Read by the diagnostic opening. Pure.
 */
import type { AnswerInput, ContextItem } from "./contract.ts";
import {
  cite,
  code,
  conditionOf,
  escapeInline,
  isAuxiliary,
  templateMakes,
  PLACEHOLDER,
} from "./evidence-reading.ts";
import { holdsWords } from "../search/message-text.ts";

/**
 * Where the value a message template wraps is written: "Failed to parse dotenv file. %s"
 * quoted as "… file. Encountered unexpected whitespace at [x]." has its detail built in
 * another function, which is what the question is about.
 */
function detailWritten(
  template: string,
  input: AnswerInput,
  quoted = input.anchors.messages,
): WrittenMessage | null {
  if (!PLACEHOLDER.test(template)) return null;
  return messageWritten(input, withoutPieces(template, quoted));
}

/**
 * The details a message is built from, outermost first: the detail a template wraps and,
 * when that detail is a template too, what its placeholders hold in turn ("Encountered %s
 * at [%s]." written by a formatting helper wraps the 'unexpected whitespace' its caller
 * decided). At most `depth` details; each is written in another place than the one before.
 */
export function detailsWritten(template: string, input: AnswerInput, depth = 2): WrittenMessage[] {
  const out: WrittenMessage[] = [];
  let outer = template;
  let quoted = input.anchors.messages;
  while (out.length < depth) {
    const detail = detailWritten(outer, input, quoted);
    if (!detail || detail.literal === outer || out.some((d) => d.literal === detail.literal)) break;
    out.push(detail);
    quoted = withoutPieces(outer, quoted);
    outer = detail.literal;
  }
  return out;
}

/** The quoted messages with a template's fixed pieces taken out: what its placeholders held. */
function withoutPieces(template: string, quoted: string[]): string[] {
  const pieces = template
    .split(new RegExp(PLACEHOLDER.source, "g"))
    .map((p) => p.trim())
    .filter(Boolean);
  return quoted.map((m) =>
    pieces
      .reduce((text, p) => text.replace(p, " "), m)
      .replace(/\s+/g, " ")
      .trim(),
  );
}

/** Where a quoted message is written in the code: the item, its line, and the literal. */
export interface WrittenMessage {
  item: ContextItem;
  /** the line in the item's text; -1 when the text shown of a long item leaves it out */
  at: number;
  literal: string;
  /** letters of the literal the quoted message holds */
  cover: number;
}

/**
 * The code that writes a message the question quotes, as a string literal or a template
 * whose placeholders stand for the quoted values (`"index %d for '%s' not in range"`,
 * `f"fixture '{argname}' not found"`), or as the line of a long literal. Tests, docs and
 * examples aside; the literal covering most of the message wins, a definition before a file.
 */
export function messageWritten(input: AnswerInput, quoted = input.anchors.messages): WrittenMessage | null {
  const messages = quoted
    .map((m) => (m.split(/(?<=[.!?])\s+(?=[A-Z])/)[0] ?? m).toLowerCase().trim())
    .filter((m) => letters(m) >= 12);
  if (messages.length === 0) return null;
  let best: WrittenMessage | null = null;
  for (const item of input.context) {
    if (!item.path || isAuxiliary(item.path) || (item.kind !== "symbol" && item.kind !== "file")) continue;
    // The error type the question names, building its own message, says what the error
    // reads, not where it is raised: the raise site of that type answers.
    const owners = (item.facts?.qualifiedName ?? "").split(".").slice(0, -1);
    if (owners.some((o) => input.anchors.exceptionTypes.includes(o))) continue;
    const consider = (literal: string, at: number) => {
      const cover = Math.max(...messages.map((m) => coverage(literal, m)));
      const better =
        !best || cover > best.cover || (cover === best.cover && !!item.facts && !best.item.facts);
      if (cover > 0 && better) best = { item, at, literal, cover };
    };
    item.text.split("\n").forEach((line, at) => {
      for (const literal of literalsOf(line)) consider(literal, at);
    });
    // A long function is cut short in context; the messages the index read in all of it still count.
    if (item.truncated)
      for (const literal of item.facts?.errorStrings ?? [])
        if (!item.text.includes(literal)) consider(literal, -1);
  }
  return best;
}

/** The string literals of a line (a line inside a long literal is one itself). */
function literalsOf(line: string): string[] {
  const found = [...line.matchAll(/(["'`])((?:\\.|(?!\1).){8,})\1/g)].map((m) => m[2] ?? "");
  const bare = line.trim();
  if (found.length === 0 && /^[A-Z][\w ,.'-]{15,}[.!]?$/.test(bare)) found.push(bare);
  return found;
}

function letters(text: string): number {
  return text.replace(/[^a-z]/gi, "").length;
}

/**
 * How much of a quoted message a literal writes: its letters when it is the message with
 * values in place of its placeholders, or a long enough piece of it; 0 otherwise.
 */
function coverage(literal: string, message: string): number {
  const lower = asPrinted(literal, message).toLowerCase();

  const own = letters(lower.replace(new RegExp(PLACEHOLDER.source, "g"), " "));
  if (templateMakes(lower, message)) return own >= 10 ? own : 0;
  const plain = lower.trim().replace(/[.!]$/, "");
  // Its words in order, whatever quotes or brackets the question dropped or changed.
  const holds = message.includes(plain) || holdsWords(message, plain);
  return holds && (own >= 16 || own >= letters(message) * 0.5) ? own : 0;
}

/**
 * A literal as source code writes it, read as the message it prints: escaped quotes and
 * backslashes unescaped (`"ERROR: \"#{name}\" was called"`), and a leading level word
 * (`ERROR: `) dropped when the quoted message has none — a pasted log line's level is not
 * part of the message the question quotes.
 */
function asPrinted(literal: string, message: string): string {
  const text = unescaped(literal);
  return LEVEL_PREFIX.test(message) ? text : text.replace(LEVEL_PREFIX, "");
}

/** A literal's escaped quotes and backslashes as printed. */
function unescaped(literal: string): string {
  return literal.replace(/\\(["'`\\])/g, "$1");
}

const LEVEL_PREFIX = /^\s*(?:error|fatal|warn(?:ing)?|panic)\s*:\s*/i;

/** `"…" is written in `f` (path:a-b) when `cond``, or with the call that carries it. */
export function writtenAt({ item, at, literal }: WrittenMessage): string {
  const name = item.facts?.qualifiedName;
  const line = item.startLine + at;
  const where = name ? `${code(name)} (${cite(item)})` : `${item.path}:${line}-${line}`;
  const printed = unescaped(literal);
  const shown = printed.length > 120 ? `${printed.slice(0, 117)}…` : printed;
  const condition = at < 0 ? null : conditionOf(item.text, literal.slice(0, 40));
  const text = at < 0 ? "" : (item.text.split("\n")[at] ?? "").trim();
  // A message handed to a call (a checking helper, a formatter) is best shown in that call.
  const call = !condition && /\w\(/.test(text) && text.length <= 160 ? text : "";
  return `"${escapeInline(shown)}" is written in ${where}${condition ? ` when ${code(condition)}` : call ? `: ${code(call.length > 110 ? `${call.slice(0, 107)}…` : call)}` : ""}`;
}

/**
 * The definitions in context of the (up to two) frames a stack trace shows calling the
 * site. A frame is a definition when the names agree and so do the file names: a bare
 * `read` names no particular `read`, and a PHP frame's file is its caller's.
 */
export function traceCallers(site: ContextItem, input: AnswerInput, symbols: ContextItem[]): ContextItem[] {
  const frames = input.anchors.stackFrames;
  const at = frames.findIndex((f) => frameIs(f, site));
  if (at < 0) return [];
  const out: ContextItem[] = [];
  for (const f of frames.slice(at + 1)) {
    const item = symbols.find((s) => frameIs(f, s));
    if (!item) break;
    out.push(item);
    if (out.length === 2) break;
  }
  return out;
}

function frameIs(frame: AnswerInput["anchors"]["stackFrames"][number], item: ContextItem): boolean {
  const base = (p: string) => p.replace(/\\/g, "/").split("/").pop() ?? p;
  return (
    sameFunction(frameName(frame.func ?? ""), item.facts?.qualifiedName ?? "") &&
    (!frame.path || base(frame.path) === base(item.path ?? ""))
  );
}

/** A frame's function in the index's notation: `CodeBlock$Builder.add` → `CodeBlock.Builder.add`. */
function frameName(func: string): string {
  return func
    .replace(/\(.*$/, "")
    .replace(/\$|::|#/g, ".")
    .replace(/`\d+/g, "");
}

/** Two names of one function, one perhaps qualified further (`Builder.add`, `CodeBlock.Builder.add`). */
function sameFunction(a: string, b: string): boolean {
  return !!a && !!b && (a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`));
}
