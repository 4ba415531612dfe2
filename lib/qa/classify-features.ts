/**
 * What the mode classifier reads in a question: its words and word pairs (code, paths,
 * numbers and quoted text reduced to their kind, so `merge_core` and `retry.go` teach
 * nothing about one repository), how its sentences start, character n-grams of its
 * words (`imported`, `imports`, `importers` share `impor`), the opener and verbs of the
 * sentence that asks (classify-clauses.ts), the hand-written signals of
 * classify-rules.ts, and the shape of what was pasted (a traceback, a log line, a long report). A call written out with its
 * arguments is one `<call>` word: the values passed are the user's, not how they ask.
 * Pure: the same question always gives the same features.
 */
import { askingClause, verbClasses } from "./classify-clauses.ts";
import { matchedSignals, prepare } from "./classify-rules.ts";
import { diagnosticEvidence } from "./diagnostic-evidence.ts";

/** A sparse feature vector: feature name → value. */
export type Features = Map<string, number>;

/** How much each family of features counts (chosen by cross-validation on the training split). */
export interface FeatureOptions {
  charNgrams: [number, number];
  charWeight: number;
  /** a call written with its arguments ("ky.extend({ hooks })") read as one `<call>` word */
  calls?: boolean;
}

export const DEFAULT_FEATURE_OPTIONS: FeatureOptions = {
  charNgrams: [3, 5],
  charWeight: 0.2,
  calls: true,
};

export function questionFeatures(
  question: string,
  options: FeatureOptions = DEFAULT_FEATURE_OPTIONS,
): Features {
  const q = prepare(question);
  const out: Features = new Map();
  const add = (name: string, value = 1) => out.set(name, Math.max(out.get(name) ?? 0, value));
  const sentences = proseSentences(options.calls ? collapseCalls(q.prose) : q.prose);
  const all = sentences.flat();
  for (const token of all) add(`w:${token}`);
  for (const sentence of sentences) {
    for (let i = 0; i + 1 < sentence.length; i++) add(`b:${sentence[i]}_${sentence[i + 1]}`);
    const [first, second] = sentence;
    if (first) add(`s:${first}`);
    if (first && second) add(`s:${first}_${second}`);
  }

  const [min, max] = options.charNgrams;
  for (const token of new Set(all)) {
    if (token.startsWith("<") || token.length < 3) continue;
    const padded = `^${token}$`;
    for (let n = min; n <= max; n++)
      for (let i = 0; i + n <= padded.length; i++) add(`c:${padded.slice(i, i + n)}`, options.charWeight);
  }
  for (const signal of matchedSignals(q)) add(`r:${signal.id}`);
  for (const name of clauseFeatures(q.prose)) add(name);
  for (const shape of shapeOf(q.raw, q.hasFence, q.frameCount)) add(`x:${shape}`);
  if (q.exceptionTypes.length) add("x:exception");
  const evidence = diagnosticEvidence(q);
  add(evidence.length ? "x:evidence" : "x:no-evidence");
  for (const e of evidence) add(`x:evidence-${e.id}`);
  return out;
}

/**
 * The asking sentence's opener paired with each kind of verb it asks with: "how" + a verb
 * of movement ("how does X get from A to B") reads differently from "how" + a verb of
 * deciding ("how does X decide …"), and a verb in a sentence of context before the
 * question counts for nothing. (The verb classes alone, the opener alone and the mere
 * presence of context before the question were tried as features too; they made
 * cross-validation on the training split worse.)
 */
export function clauseFeatures(prose: string): string[] {
  const clause = askingClause(prose);
  return verbClasses(clause.text).map((kind) => `q:${clause.opener}+${kind}`);
}

/**
 * Each call written out with its arguments ("passport.authenticate(['bearer'])",
 * "jwts.parser().verifywith(key).build()") as one `§call` mark, read as the word `<call>`:
 * the words of its arguments are the user's values, not how they ask. Parentheses after a
 * space ("a string (and its arguments)") are prose and stay.
 */
export function collapseCalls(prose: string): string {
  let out = "";
  let i = 0;
  while (i < prose.length) {
    const open = prose.indexOf("(", i);
    if (open < 0) break;
    const before = prose.slice(i, open);
    const callee = CALLEE.exec(before);
    const end = callee ? closing(prose, open) : -1;
    if (callee && end > 0) {
      // a chain of calls ("a.b(x).c(y)") is one call
      const chained = before.slice(0, callee.index) === "." && out.endsWith("§call ");
      if (!chained) out += `${before.slice(0, callee.index)} §call `;
      i = end + 1;
    } else {
      out += prose.slice(i, open + 1);
      i = open + 1;
    }
  }
  return out + prose.slice(i);
}

// The name called, right before its parenthesis: `f`, `a.b`, `A::b`, `$x->y`, `as<int>`.
const CALLEE = /[\w$][\w$.:<>#\\-]*(?<=[\w>])$/;

/** The index of the parenthesis closing the one at `open` on the same line, or -1. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let j = open; j < text.length && j - open <= 300; j++) {
    const ch = text[j];
    if (ch === "\n") return -1;
    if (ch === "(") depth++;
    else if (ch === ")" && --depth === 0) return j;
  }
  return -1;
}

/**
 * The prose as sentences of tokens: lower-case words, and `<code>`, `<path>`, `<num>`,
 * `<status>`, `<quote>`, `<call>` for what is written as code, a path, a number, an HTTP status or a
 * quotation (the words inside a quotation are kept too: "Cannot index string" is an error).
 */
export function proseSentences(prose: string): string[][] {
  const text = prose
    .replace(/[’‘]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/`[^`\n]+`/g, " §code ")
    .replace(/(?:^|\s)"([^"\n]{2,200})"(?=[\s.,;:?!)]|$)/g, " §quote $1 . ");
  const sentences: string[][] = [];
  for (const part of text.split(/(?<=[.?!;:])\s+|\n+/)) {
    const tokens: string[] = [];
    for (const raw of part.split(/[\s,()[\]{}]+/)) {
      const token = tokenOf(raw);
      if (token) tokens.push(token);
    }
    if (tokens.length) sentences.push(tokens);
  }
  return sentences;
}

function tokenOf(raw: string): string | null {
  if (raw === "§code") return "<code>";
  if (raw === "§call") return "<call>";
  if (raw === "§quote") return "<quote>";
  const t = raw.replace(/^["'<>]+|[?!.,;:"'>]+$/g, "");
  if (!t) return null;
  if (/^[45]\d\d$/.test(t)) return "<status>";
  if (/^\d+(?:\.\d+)*%?$/.test(t)) return "<num>";
  if (
    /^(?:\.{0,2}\/)?[\w.-]+(?:\/[\w.-]+)+\/?$/.test(t) ||
    /^[\w-]+\.(?:py|ts|tsx|js|jsx|go|rs|rb|php|java|cs|c|h|cc|cpp|hpp|json|ya?ml|toml|md)$/i.test(t)
  )
    return "<path>";
  if (/^-{1,2}[a-z][\w-]*$/i.test(t)) return "<flag>";
  if (
    /[_$#]|::|->|\(\)|\w\.\w|[a-z][A-Z]/.test(t) ||
    /^[A-Z][a-z0-9]+[A-Z]/.test(t) ||
    /^\(\*?\w+\)\.\w+/.test(t)
  )
    return "<code>";
  const word = t.toLowerCase();
  return /^[a-z][a-z'-]*$/.test(word) ? word : null;
}

/** The shape of the question as pasted: long, several lines, fenced code, frames, a log-like line. */
function shapeOf(raw: string, hasFence: boolean, frames: number): string[] {
  const out: string[] = [];
  const lines = raw.split("\n").filter((l) => l.trim()).length;
  out.push(raw.length > 400 ? "long" : raw.length > 140 ? "medium" : "short");
  if (lines > 3) out.push("lines");
  if (hasFence) out.push("fence");
  if (frames > 0) out.push("frames");
  if (/\?\s*$/.test(raw.trim())) out.push("ends-question");
  if (/^\s*(?:show|list|give|find|explain|describe|trace|walk|tell)\b/i.test(raw)) out.push("imperative");
  return out;
}
