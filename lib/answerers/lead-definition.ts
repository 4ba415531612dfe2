/**
 * The definition an opening leads with and the lines of it that answer: among the best
 * few of the code (tests, docs and examples aside), by rank and by how well its body
 * carries the question (deciding conditions, formulas, the asked words), getters,
 * wrappers, constructors and asides demoted; and where such a lead is cited.
 */
import type { AnswerInput, ContextItem } from "./contract.ts";
import { queryTerms, splitIdentifier, stem } from "../db/tokenize.ts";
import { bodyStartPastDoc, decidesNothing, forwards, pastLeadingComment } from "./body-shape.ts";
import { cite, code, isAuxiliary, isTestName } from "./evidence-reading.ts";
import { askedTopic, askingClauses } from "./question-clauses.ts";

export interface DecidingLine {
  text: string;
  score: number;
  /** its line in the definition */
  at: number;
}

/**
 * The lines of a definition that decide or compute what the question asks about: those
 * carrying its words, conditions, returns and computations, never the signature,
 * comments or docstrings. Best first; at most two, the second only if nearly as good.
 */
export function decidingLines(
  source: string,
  terms: Set<string>,
  diagnostic = false,
  computes = false,
): DecidingLine[] {
  const lines = source.split("\n");
  const scored: DecidingLine[] = [];
  let inDocstring = false;
  // The signature, over however many lines, decides nothing (a Rust `where` clause's bounds).
  const start = Math.max(1, bodyStartPastDoc(lines));
  lines.forEach((raw, i) => {
    const line = raw.trim();
    const quotes = (line.match(/"""|'''/g) ?? []).length;
    if (quotes % 2 === 1) {
      inDocstring = !inDocstring;
      return;
    }
    if (inDocstring || quotes > 0 || i < start || !line || line.length > 160) return;
    if (
      /^(?:#|\/\/|\/\*|\*|--|"""|'''|<!--)/.test(line) ||
      DECORATOR.test(line) ||
      /^[)\]}]+[;,]?$/.test(line)
    )
      return;
    // The arguments of a call written over several lines (a log message's values) decide nothing.
    if (/[(,]$/.test(lines[i - 1]?.trim() ?? "") && !CONTROL.test(line) && !line.includes("=>")) return;
    if (
      /^(?:(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:def|class|func|fn|function|interface)|pub(?:\(\w+\))? (?:fn|struct|enum|trait)|public|private|protected|static|import|from|use|using|package|namespace|#include|require)\b/.test(
        line,
      )
    )
      return;
    if (/^(?:else|try|finally|begin|end|do)\b[:{]?$/.test(line) || /^\w+:$/.test(line)) return;
    // What a line decides is in its code: words inside string literals (messages) do not count.
    const bare = line.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, " ");
    const hits = lineHits(bare, terms);
    let score = hits * 2;
    if (/^(?:if|elif|else if|while|unless|switch|case|when|match|guard|for)\b|\?.*:|&&|\|\|/.test(line))
      score += 1.5;
    if (/^return\b|^yield\b|=>/.test(line)) score += 1;
    // Asked how something is computed, the formula decides more than the conditions around it.
    const arithmetic = /[*/+%-]\s*[\w(]|\b(?:min|max|round|floor|ceil|pow|abs)\(|\*\*|<<|>>/.test(bare);
    if (arithmetic && (/[^=!<>]=[^=]/.test(line) || /^return\b/.test(line))) score += computes ? 2.5 : 1;
    if (/[<>]=?|==|!=|\bis\b|\bin\b/.test(line)) score += 0.5;
    if (!diagnostic && /\b(?:raise|throw|panic!?)\b/.test(line)) score -= 1.5;
    // A test of whether a call failed (`if err != nil`, `if (error)`) guards; it decides nothing asked.
    if (!diagnostic && ERROR_GUARD.test(line)) score = 0;
    // Handing back a variable (`return dw`) that carries none of its words answers nothing.
    if (hits === 0 && /^return\s+[\w$@.]+;?$/.test(line)) score = 0;
    if (/^(?:pass|continue|break|return;?|return None|return nil|return null)$/.test(line)) score = 0;
    if (score > 0)
      scored.push({ text: line.replace(/[{:;]\s*$/, "").trim(), score: score - i * 0.001, at: i });
  });
  const ranked = scored.sort((a, b) => b.score - a.score);
  const [first, second] = ranked;
  if (!first) return [];
  // Two lines are quoted in the order the code has them.
  return second && second.score >= first.score * 0.75 && hitsOf(second.text, terms) > 0
    ? [first, second].sort((a, b) => a.at - b.at)
    : [first];
}

/**
 * The question's words a line of code carries, each once: an identifier the question wrote
 * whole (`HTTParty`, `parseDate`) is one word however it splits, while one joining several
 * of its words (`follow_redirects`) carries each.
 */
function lineHits(code: string, terms: Set<string>): number {
  const hit = new Set<string>();
  for (const token of code.match(/[A-Za-z_$][\w$]*/g) ?? []) {
    const parts = splitIdentifier(token);
    const whole = stem(parts.join(""));
    if (parts.length > 1 && terms.has(whole)) hit.add(whole);
    else for (const p of parts.map((w) => stem(w))) if (terms.has(p)) hit.add(p);
  }
  return hit.size;
}

/** A condition on an error value alone: `if err != nil {`, `if (err) {`, `if error:`, `unless e.nil?`. */
const ERROR_GUARD =
  /^(?:if|unless|else if|elif)\s*\(?\s*!?\s*(?:err|error|e|ex|exc)\b(?:\s*(?:!=|==|!==|===)\s*(?:nil|null|None|undefined)|\.nil\?|\s+is\s+(?:not\s+)?None)?\s*\)?\s*[{:]?$/;

/**
 * A decorator or annotation on a line of its own (`@property`, `@app.route("/")`,
 * `@Override`), not a Ruby statement on an instance variable (`@adapter = klass`,
 * `@handlers.reverse.inject(@adapter.build) do |app, handler|`).
 */
const DECORATOR = /^@[\w.]+(?:\(.*\)|\()?$/;

/** A line that starts a condition or a loop. */
const CONTROL = /^(?:if|elif|else if|while|unless|switch|case|when|match|guard|for|return)\b/;

/** Questions about how something is computed (the formula answers them). */
const COMPUTE_VERBS = new Set([
  "computed",
  "calculated",
  "counted",
  "capped",
  "limited",
  "measured",
  "estimated",
]);

export function hitsOf(text: string, terms: Set<string>): number {
  return splitIdentifier(text).filter((w) => terms.has(stem(w.toLowerCase()))).length;
}

export function questionStems(question: string): Set<string> {
  return new Set(queryTerms(question).map((t) => stem(t)));
}

export function quote(lines: DecidingLine[]): string {
  return lines.map((l) => code(l.text.length > 110 ? `${l.text.slice(0, 107)}…` : l.text)).join(" … ");
}

/**
 * The definition that answers, among the best five of the code (tests, docs and
 * examples aside): its rank counts, and so does how well its lines carry the question.
 */
export function leadDefinition(
  input: AnswerInput,
  symbols: ContextItem[],
): { item: ContextItem; lines: DecidingLine[] } | null {
  return rankedLeads(input, symbols)[0] ?? null;
}

/** A leading definition, what its body answers, and whether it speaks of the question at all. */
export interface RankedLead {
  item: ContextItem;
  lines: DecidingLine[];
  value: number;
  /** its name or its code carries one of the question's words */
  onTopic: boolean;
}

/** The best five of the code as leads, the one that answers best first. */
export function rankedLeads(input: AnswerInput, symbols: ContextItem[]): RankedLead[] {
  const terms = questionStems(input.question);
  const computes =
    COMPUTE_VERBS.has(askedTopic(input.question)?.verb ?? "") ||
    /\bhow (?:long|many|much)\b/i.test(input.question);
  const leads = symbols.filter((s) => s.facts && !isAuxiliary(s.path ?? "") && !isTestSymbol(s)).slice(0, 5);
  // "What decides that?" points back: the question around it says what is asked.
  const clause = askingClauses(input.question).at(-1);
  const pointsBack = clause !== undefined && /^(?:what|which)\s+\w+\s+(?:that|this|it)$/i.test(clause.trim());
  const asked = new Set(
    (clause && !pointsBack ? clause : input.question)
      .split(/\W+/)
      .flatMap((w) => splitIdentifier(w))
      .map((w) => stem(w.toLowerCase())),
  );
  const written = writtenIdentifiers(input.question);
  const asksAboutData = DATA_WORDS.test(input.question);
  const ranked = leads.map((item, i) => {
    const lines = decidingLines(item.text, terms, input.mode === "diagnostic", computes);
    const nameHits = hitsOf(item.facts?.qualifiedName ?? "", terms);
    const covered = coverage(item.text, terms);
    // What decides something is a function's body, rarely a whole class, never a getter;
    // a struct, enum, interface or trait only declares (its field lines decide nothing).
    const type = item.facts?.kind ?? "";
    const kind =
      TYPE_KINDS.has(type) &&
      (item.endLine - item.startLine > 40 || (DECLARING_KINDS.has(type) && !asksAboutData))
        ? 0.6
        : 1;
    // A getter, a wrapper handing the work on, or a constructor is named like the thing but decides nothing.
    const getter = handsOn(item) || forwardsWork(item) || isConstructorItem(item) ? 0.3 : 1;
    // A definition with neither a deciding line nor a docstring has nothing to say.
    const mute = lines.length === 0 && !item.facts?.docstring ? 0.5 : 1;
    // A predicate on something the question mentions but does not ask about
    // (`response_redirects?` asked when a redirect switches to GET) reports a condition;
    // the function acting on it answers.
    const aside = predicateAside(item, asked, written) ? 0.25 : 1;
    const value =
      [1, 0.7, 0.5, 0.4, 0.35][i]! *
      kind *
      getter *
      mute *
      aside *
      (1 + 0.25 * Math.min(4, lines[0]?.score ?? 0) + 0.3 * Math.min(2, nameHits)) *
      (1 + 0.1 * Math.min(5, covered));
    return { item, lines, value, onTopic: nameHits + covered > 0 };
  });
  // The sort is stable: of two leads valued alike, the better ranked stays first.
  return ranked.sort((a, b) => b.value - a.value);
}

/**
 * A predicate (`response_redirects?`, `isQuoted`, `has_key`, `should_drop`) whose name
 * shares no word with the clause that asks: it tests what the question takes as given.
 */
function predicateAside(item: ContextItem, asked: Set<string>, written: Set<string>): boolean {
  const name = (item.facts?.qualifiedName ?? "").split(".").at(-1) ?? "";
  const words = splitIdentifier(name.replace(/\?$/, "")).map((w) => w.toLowerCase());
  const predicate = name.endsWith("?") || /^(?:is|has|should|can|needs?)$/.test(words[0] ?? "");
  if (!predicate) return false;
  const subject = words.filter((w) => !/^(?:is|has|should|can|needs?)$/.test(w));
  // The setting the question writes as code (`same_file_system(true)`) is what it asks about.
  if (written.has(subject.join(""))) return false;
  return !subject.some((w) => asked.has(stem(w)));
}

/**
 * The identifiers a question writes as code (`same_file_system(true)`, `requireAudience("api")`,
 * `maxOpen`, `` `filter_entry` ``), lower-cased and joined: the names it is about.
 */
export function writtenIdentifiers(question: string): Set<string> {
  const out = new Set<string>();
  for (const m of question.matchAll(
    /`([^`]+)`|([A-Za-z_$][\w$]*)(?=\()|\b([A-Za-z]\w*(?:_\w+|[a-z][A-Z]\w*))/g,
  )) {
    const text = m[1] ?? m[2] ?? m[3] ?? "";
    for (const id of text.match(/[A-Za-z_$][\w$]*/g) ?? [])
      if (id.length >= 4) out.add(splitIdentifier(id).join("").toLowerCase());
  }
  return out;
}

/** The question's words the body's code carries (its signature, comments and string literals aside). */
function coverage(source: string, terms: Set<string>): number {
  const lines = source.split("\n");
  const code = lines
    .slice(Math.max(1, bodyStartPastDoc(lines)))
    .map((l) => l.trim())
    .filter((l) => !/^(?:#|\/\/|\/\*|\*)/.test(l))
    .join(" ")
    .replace(/(["'`])(?:\\.|(?!\1).)*\1/g, " ");
  return new Set(
    splitIdentifier(code)
      .map((w) => stem(w.toLowerCase()))
      .filter((w) => terms.has(w)),
  ).size;
}

/** Words of a question about what a type holds, which its declaration answers. */
const DATA_WORDS =
  /\b(?:fields?|members?|propert(?:y|ies)|variants?|attributes?|holds?|stores?|shape|layout|struct|enum|interface|trait)\b/i;

/** Type kinds whose body declares fields or signatures rather than running code. */
const DECLARING_KINDS = new Set(["struct", "interface", "trait", "enum"]);

export const TYPE_KINDS = new Set(["class", "struct", "interface", "trait", "module", "enum", "impl"]);

/**
 * A body that decides nothing (`return this.name`, `return cb.throttle.allow()`,
 * `r.strictSlash = value; return r`): a getter, a wrapper that hands the work on, or a
 * setter storing the option the question names, whose reader decides.
 */
export function handsOn(item: Pick<ContextItem, "text" | "facts">): boolean {
  if (TYPE_KINDS.has(item.facts?.kind ?? "")) return false;
  return decidesNothing(pastDoc(item.text));
}

/**
 * A function that hands the work to the one it calls last, deciding nothing on the way; one
 * folding a collection into the result (`@handlers.reverse.inject(app) do |app, h|`) composes it.
 */
function forwardsWork(item: Pick<ContextItem, "text" | "facts">): boolean {
  if (TYPE_KINDS.has(item.facts?.kind ?? "")) return false;
  const lines = pastDoc(item.text);
  return forwards(lines) && !lines.some((l) => FOLDS.test(l));
}

/** A statement walking a collection with a block or callback (`.inject(…) do |a, b|`, `.reduce(`). */
const FOLDS =
  /\.(?:inject|reduce|reduceRight|fold|rfold|each|forEach|for_each|map|flatMap|collect)\b|\bdo\s*\|[^|]*\|/;

/** A definition's lines from its signature on, a leading block comment left out. */
function pastDoc(text: string): string[] {
  const lines = text.split("\n");
  return lines.slice(pastLeadingComment(lines));
}

/**
 * A constructor or destructor: `T.T`, `T.~T`, `T.constructor`, `T.__construct`,
 * `T.initialize`, a Rust `T.new`, a Go `NewT`.
 */
function isConstructorItem(item: ContextItem): boolean {
  const parts = (item.facts?.qualifiedName ?? "").split(".");
  const owner = parts[parts.length - 2];
  const name = parts[parts.length - 1] ?? "";
  const path = item.path ?? "";
  return (
    /^(?:constructor|__construct|initialize)$/.test(name) ||
    (path.endsWith(".rs") && name === "new" && owner !== undefined) ||
    (path.endsWith(".go") && owner === undefined && /^New(?:[A-Z_]|$)/.test(name)) ||
    (owner !== undefined && (name === owner || name === `~${owner}`))
  );
}

/** A test written beside the code (Rust's `mod tests`, a `test_` function, a `*Test` class). */
export function isTestSymbol(item: ContextItem): boolean {
  const name = item.facts?.qualifiedName ?? "";
  return isTestName(name) || /(?:^|\.)Test\w*\./.test(name);
}

/** An opening cites the lines that answer, not a whole long definition (at most this many). */
export const MAX_CITED_LINES = 150;

/**
 * Where a lead definition is cited: its focus or span, or when that runs longer than an
 * opening should point at, the stretch of its deciding lines.
 */
export function citeLead(item: ContextItem, lines: DecidingLine[]): string {
  const span = item.focus ?? item;
  // A truncated body has lines left out, so its line numbers are not the file's.
  if (span.endLine - span.startLine < MAX_CITED_LINES || lines.length === 0 || !item.path || item.truncated)
    return cite(item);
  const at = lines.map((l) => item.startLine + l.at);
  return `${item.path}:${Math.min(...at)}-${Math.max(...at)}`;
}
