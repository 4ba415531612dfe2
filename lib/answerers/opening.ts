/**
 * The evidence engine's first sentences: the answer itself, in the question's terms,
 * built from the evidence the body then lists (so the two never disagree), each
 * statement cited.
 * - conceptual: what decides or computes the thing asked about, where, quoting the
 *   deciding line(s) ("Whether to follow a redirect is decided in `resolve_redirects`
 *   (requests/sessions.py:91-185): `while resp.is_redirect:`");
 * - diagnostic: where the error is raised or handled and under which condition (a
 *   message built apart from its raise: where it is written, and the helper raising it);
 *   a symptom with no quoted error gets the code behind it, never "no raise site matches";
 * - exploratory: the entry point and the chain of calls in order (A → B → C), each cited,
 *   or, asked who calls something, its callers;
 * - analytical: the figure asked for, as the analytical retriever computed it (the
 *   `Answer:` line of its structure item).
 * Only a diagnostic answer speaks of raise sites.
 */
import type { AnswerInput, ContextItem } from "./contract.ts";
import { queryTerms, splitIdentifier, stem } from "../db/tokenize.ts";
import { bodyStart, bodyStatements, decidesNothing } from "./body-shape.ts";
import {
  cite,
  code,
  conditionOf,
  errorSites,
  escapeInline,
  firstSentence,
  flowNodes,
  isAuxiliary,
  joinWords,
  mainPath,
  raisedMessage,
  uniqueBy,
  type ErrorSite,
  type FlowStep,
} from "./evidence-reading.ts";
import {
  detailWritten,
  messageWritten,
  traceCallers,
  writtenAt,
  type WrittenMessage,
} from "./written-messages.ts";

/** One to three sentences that answer the question from the evidence, each with its citation. */
export function openingFor(
  input: AnswerInput,
  symbols: ContextItem[],
  byName: Map<string, ContextItem>,
): string {
  switch (input.mode) {
    case "diagnostic":
      return diagnosticOpening(input, symbols, byName);
    case "exploratory":
      return exploratoryOpening(input, symbols);
    case "analytical":
      return analyticalOpening(input);
    case "conceptual":
      return conceptualOpening(input, symbols);
  }
}

// ------------------------------------------------------------------ conceptual

/**
 * What the question asks to be explained, as it says it: "how does requests decide
 * whether to follow a redirect" → decided / "whether to follow a redirect"; "what caps
 * the number of retries" → capped / "the number of retries".
 */
export function askedTopic(question: string): { verb: string; object: string } | null {
  const q = question
    .trim()
    .replace(/\s+/g, " ")
    .replace(/[?.!]+$/, "");
  for (const s of askingClauses(q).reverse()) {
    const topic = topicOf(s);
    if (topic) return topic;
  }
  return null;
}

/** The clauses that ask: "When a browser sends X, what decides whether a 304 is returned?" → the second. */
function askingClauses(question: string): string[] {
  return question
    .split(/(?<=[.?!])\s+|,\s+/)
    .map((c) => c.replace(/[?.!]+$/, ""))
    .filter((c) => /^(?:how|what|which|where|when)\b/i.test(c));
}

function topicOf(s: string): { verb: string; object: string } | null {
  const verbs =
    "decide|determine|compute|calculate|cap|limit|control|choose|pick|set|select|build|parse|resolve|find|match|validate|check|convert|generate|create|load|store|format|render|handle|detect|know|count|measure|order|sort|merge|split|encode|decode|register|dispatch|apply|infer|estimate|normalize|serialize";
  const what = new RegExp(`^(?:what|which \\w+) (?:exactly )?(${verbs})(?:s|es)? (.+)$`, "i").exec(s);
  if (what?.[1] && what[2] && said(what[2]))
    return { verb: pastParticiple(what[1]), object: clause(what[2]) };
  // A verb after an article is a noun ("turn a format string"): not what is asked.
  const how = new RegExp(
    `^how (?:does|do|did|can|will|would) (?:.+? )?(?<!\\b(?:a|an|the|its|this|that) )(${verbs}) (.+)$`,
    "i",
  ).exec(s);
  if (how?.[1] && how[2] && said(how[2])) return { verb: pastParticiple(how[1]), object: clause(how[2]) };
  const passive =
    /^(?:how|where|when) (?:is|are|was|were|does|do) (.+?) (computed|calculated|decided|determined|defined|configured|set|stored|handled|parsed|built|created|chosen|registered|validated|generated|resolved|loaded|formatted|capped|limited|matched|counted|sorted|merged|normalized|serialized|rendered|kept|tracked|cached|applied|inferred|estimated)\b/i.exec(
      s,
    );
  if (passive?.[1] && passive[2]) {
    // "how is it decided whether X": the whether-clause is what is decided.
    const rest = s.slice((passive.index ?? 0) + passive[0].length).trim();
    const object =
      /^(?:it|this|that)$/i.test(passive[1]) && /^(?:whether|which|what|when|how)\b/i.test(rest)
        ? rest
        : passive[1];
    return { verb: passive[2].toLowerCase(), object: clause(object) };
  }
  return null;
}

/**
 * Whether the words after the verb name something: "… something it can match against"
 * leaves a preposition or a pronoun where the thing asked about should be.
 */
function said(object: string): boolean {
  const head = clause(object).toLowerCase();
  return !/^(?:against|for|with|to|on|in|at|by|from|into|of|about|up|out|it|them|this|that|one)$/.test(head);
}

const IRREGULAR: Record<string, string> = {
  set: "set",
  choose: "chosen",
  find: "found",
  build: "built",
  know: "known",
  format: "formatted",
  split: "split",
};

function pastParticiple(verb: string): string {
  const v = verb.toLowerCase();
  if (IRREGULAR[v]) return IRREGULAR[v];
  if (v.endsWith("e")) return `${v}d`;
  if (/[^aeiou][aeiou][pt]$/.test(v) && v.length <= 4) return `${v}${v.slice(-1)}ed`;
  return `${v}ed`;
}

/** The object of the question cut before a second clause, its first letter capitalised. */
function clause(text: string): string {
  const cut =
    text.split(
      /,|;|:(?!:)(?<!::)| (?:and|or) (?:how|what|where|why|which|when)\b| when | if | once | so that /i,
    )[0] ?? text;
  const trimmed = cut.trim().replace(/^(?:exactly|actually) /i, "");
  return trimmed.slice(0, 1).toUpperCase() + trimmed.slice(1);
}

interface DecidingLine {
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
  const start = Math.max(1, bodyStart(lines));
  lines.forEach((raw, i) => {
    const line = raw.trim();
    const quotes = (line.match(/"""|'''/g) ?? []).length;
    if (quotes % 2 === 1) {
      inDocstring = !inDocstring;
      return;
    }
    if (inDocstring || quotes > 0 || i < start || !line || line.length > 160) return;
    if (/^(?:#|\/\/|\/\*|\*|@|--|"""|'''|<!--)/.test(line) || /^[)\]}]+[;,]?$/.test(line)) return;
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

/** A line that starts a condition or a loop. */
const CONTROL = /^(?:if|elif|else if|while|unless|switch|case|when|match|guard|for|return)\b/;

/** Whether a noun phrase is plural, by its head ("the backoff time between retries": time). */
function plural(phrase: string): boolean {
  if (/^(?:whether|which|how|what|when|where|why)\b/i.test(phrase)) return false;
  const head =
    phrase.split(/\s(?:of|for|in|on|to|from|with|between|at|by|per|when|that|which|into|across)\s/i)[0] ??
    phrase;
  return /\b(?:and|or)\b/.test(head) || /[^s]s$/i.test(head.trim());
}

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

function hitsOf(text: string, terms: Set<string>): number {
  return splitIdentifier(text).filter((w) => terms.has(stem(w.toLowerCase()))).length;
}

function questionStems(question: string): Set<string> {
  return new Set(queryTerms(question).map((t) => stem(t)));
}

function quote(lines: DecidingLine[]): string {
  return lines.map((l) => code(l.text.length > 110 ? `${l.text.slice(0, 107)}…` : l.text)).join(" … ");
}

/**
 * The definition that answers, among the best three of the code (tests, docs and
 * examples aside): its rank counts, and so does how well its lines carry the question.
 */
function leadDefinition(
  input: AnswerInput,
  symbols: ContextItem[],
): { item: ContextItem; lines: DecidingLine[] } | null {
  const terms = questionStems(input.question);
  const computes =
    COMPUTE_VERBS.has(askedTopic(input.question)?.verb ?? "") ||
    /\bhow (?:long|many|much)\b/i.test(input.question);
  const leads = symbols.filter((s) => s.facts && !isAuxiliary(s.path ?? "") && !isTestSymbol(s)).slice(0, 5);
  const asked = new Set(
    (askingClauses(input.question).at(-1) ?? input.question)
      .split(/\W+/)
      .flatMap((w) => splitIdentifier(w))
      .map((w) => stem(w.toLowerCase())),
  );
  let best: { item: ContextItem; lines: DecidingLine[]; value: number } | null = null;
  leads.forEach((item, i) => {
    const lines = decidingLines(item.text, terms, input.mode === "diagnostic", computes);
    const nameHits = hitsOf(item.facts?.qualifiedName ?? "", terms);
    // What decides something is a function's body, rarely a whole class, never a getter.
    const kind = TYPE_KINDS.has(item.facts?.kind ?? "") && item.endLine - item.startLine > 40 ? 0.6 : 1;
    // A getter, a wrapper handing the work on, or a constructor is named like the thing but decides nothing.
    const getter = handsOn(item) || isConstructorItem(item) ? 0.3 : 1;
    // A definition with neither a deciding line nor a docstring has nothing to say.
    const mute = lines.length === 0 && !item.facts?.docstring ? 0.5 : 1;
    // A predicate on something the question mentions but does not ask about
    // (`response_redirects?` asked when a redirect switches to GET) reports a condition;
    // the function acting on it answers.
    const aside = predicateAside(item, asked) ? 0.25 : 1;
    const value =
      [1, 0.7, 0.5, 0.4, 0.35][i]! *
      kind *
      getter *
      mute *
      aside *
      (1 + 0.25 * Math.min(4, lines[0]?.score ?? 0) + 0.3 * Math.min(2, nameHits)) *
      (1 + 0.1 * Math.min(5, coverage(item.text, terms)));
    if (!best || value > best.value) best = { item, lines, value };
  });
  return best;
}

/**
 * A predicate (`response_redirects?`, `isQuoted`, `has_key`, `should_drop`) whose name
 * shares no word with the clause that asks: it tests what the question takes as given.
 */
function predicateAside(item: ContextItem, asked: Set<string>): boolean {
  const name = (item.facts?.qualifiedName ?? "").split(".").at(-1) ?? "";
  const words = splitIdentifier(name.replace(/\?$/, "")).map((w) => w.toLowerCase());
  const predicate = name.endsWith("?") || /^(?:is|has|should|can|needs?)$/.test(words[0] ?? "");
  if (!predicate) return false;
  return !words.some((w) => !/^(?:is|has|should|can|needs?)$/.test(w) && asked.has(stem(w)));
}

/** The question's words the body's code carries (its signature, comments and string literals aside). */
function coverage(source: string, terms: Set<string>): number {
  const lines = source.split("\n");
  const code = lines
    .slice(Math.max(1, bodyStart(lines)))
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

const TYPE_KINDS = new Set(["class", "struct", "interface", "trait", "module", "enum", "impl"]);

/**
 * A body that decides nothing (`return this.name`, `return cb.throttle.allow()`,
 * `r.strictSlash = value; return r`): a getter, a wrapper that hands the work on, or a
 * setter storing the option the question names, whose reader decides.
 */
export function handsOn(item: Pick<ContextItem, "text" | "facts">): boolean {
  if (TYPE_KINDS.has(item.facts?.kind ?? "")) return false;
  return decidesNothing(item.text.split("\n"));
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
function isTestSymbol(item: ContextItem): boolean {
  const name = item.facts?.qualifiedName ?? "";
  return /(?:^|\.)tests?\.|(?:^|\.)test_\w+$|(?:^|\.)Test\w*\.|\w+Tests?\.\w+$/.test(name);
}

/** An opening cites the lines that answer, not a whole long definition (at most this many). */
const MAX_CITED_LINES = 150;

/**
 * Where a lead definition is cited: its focus or span, or when that runs longer than an
 * opening should point at, the stretch of its deciding lines.
 */
function citeLead(item: ContextItem, lines: DecidingLine[]): string {
  const span = item.focus ?? item;
  // A truncated body has lines left out, so its line numbers are not the file's.
  if (span.endLine - span.startLine < MAX_CITED_LINES || lines.length === 0 || !item.path || item.truncated)
    return cite(item);
  const at = lines.map((l) => item.startLine + l.at);
  return `${item.path}:${Math.min(...at)}-${Math.max(...at)}`;
}

/** A type an error is made of (`ValidationException`, `ParseError`, `Panic`). */
const ERROR_TYPE = /(?:Error|Exception|Panic)$/;

/** Error words, which an answer to a question that asks about no error leaves out of its opening. */
const ERROR_WORDS = /\b(?:errors?|exceptions?|rais(?:e|es|ed|ing)|throws?|fail(?:s|ed|ure)?|panics?)\b/i;

function conceptualOpening(input: AnswerInput, symbols: ContextItem[]): string {
  const lead = leadDefinition(input, symbols);
  if (!lead?.item.facts) return "";
  const { item, lines } = lead;
  const where = `${code(item.facts?.qualifiedName ?? item.title)} (${citeLead(item, lines)})`;
  const asked = askedTopic(input.question);
  // The question's words come back in prose: a name it wrote bare (`__init__`) stays literal.
  const topic = asked && { ...asked, object: escapeInline(asked.object) };
  const said = item.facts?.docstring ? firstSentence(item.facts.docstring) : "";
  // A docstring about the errors a function raises frames an error the question never asked about.
  const docstring =
    ERROR_WORDS.test(said.replace(/`[^`]*`/g, "")) && !ERROR_WORDS.test(input.question) ? "" : said;
  const doc = docstring && !/[.!?]$/.test(docstring) ? `${docstring}.` : docstring;
  const sentences: string[] = [];
  if (topic) {
    sentences.push(
      `${topic.object} ${plural(topic.object) ? "are" : "is"} ${topic.verb} in ${where}${lines.length ? `: ${quote(lines)}` : doc ? `: ${doc}` : ""}.`,
    );
  } else if (lines.length) {
    sentences.push(`${where} is where this happens: ${quote(lines)}.`);
  } else {
    sentences.push(`The main definition for this is ${where}${doc ? `: ${doc}` : "."}`);
  }
  if (topic && lines.length && doc) sentences.push(doc);
  // The definition next in line, when it is a different function of the code.
  const other = symbols.find(
    (s) =>
      s !== item &&
      s.facts &&
      !isAuxiliary(s.path ?? "") &&
      !isTestSymbol(s) &&
      s.facts.qualifiedName !== item.facts?.qualifiedName,
  );
  if (other?.facts) sentences.push(`Related: ${code(other.facts.qualifiedName)} (${cite(other)}).`);
  return sentences.map((x) => x.replace(/\.\.$/, ".")).join(" ");
}

// ------------------------------------------------------------------ diagnostic

/** A line of pasted code that raises, throws or stops with an error status. */
const FAILING_LINE =
  /\b(?:raise|throw|throws|halt|abort|panic!?|fail|error|reject|exit)\b|\b[45]\d\d\b|\breturn\s+(?:err|error|nil,\s*err)\b/i;

/**
 * The opening a diagnostic answer takes from code the user pasted for one of its gaps
 * (marked unverified): the line of it that fails, or its first line.
 */
function providedExcerptOpening(input: AnswerInput): string {
  const excerpt = input.context.find((i) => i.origin === "user" && !i.path && i.text.trim());
  if (!excerpt) return "";
  const lines = excerpt.text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const line = lines.find((l) => FAILING_LINE.test(l)) ?? lines[0] ?? "";
  const gap = /^Excerpt for (.+?) \(/.exec(excerpt.title)?.[1];
  return `By the code you provided${gap ? ` for ${code(gap)}` : ""} (not verified), this comes from ${quote([{ text: line, score: 0, at: 0 }])}.`;
}

function diagnosticOpening(
  input: AnswerInput,
  symbols: ContextItem[],
  byName: Map<string, ContextItem>,
): string {
  const sites = errorSites(input);
  const quotesError = input.anchors.exceptionTypes.length > 0 || input.anchors.messages.length > 0;
  // The site the body lists first, when it matches what the question quotes or names.
  const site = sites[0]?.matched ? sites[0] : undefined;
  // A quoted message no site reports as written is built apart from its raise: a format
  // string handed to a checking helper, a constant, an f-string assigned first.
  const written = sites.some((x) => x.message) ? null : messageWritten(input);
  if (written && written.item !== site?.s) return writtenOpening(written, site, input, symbols, byName);
  if (!site) {
    // What the user pasted for a gap answers before anything the index only comes close to.
    const provided = providedExcerptOpening(input);
    if (provided) return provided;
    // A symptom without a quoted error: the code behind it, with the lines that decide it.
    const lead = leadDefinition(input, symptomLeads(symbols));
    if (!lead?.item.facts) return "";
    const where = `${code(lead.item.facts.qualifiedName)} (${citeLead(lead.item, lead.lines)})`;
    const closest = sites[0];
    if (quotesError)
      return closest
        ? `No raise site in the index matches this error exactly; the closest is ${code(closest.f.qualifiedName)} (${cite(closest.s)}), which raises ${closest.f.raises.map(code).join(", ") || "an error"}${lead.item !== closest.s ? `; the code the question names leads to ${where}` : ""}.`
        : `No raise site in the index matches this error exactly; the closest code is ${where}${lead.lines.length ? `: ${quote(lead.lines)}` : "."}`.replace(
            /\.\.$/,
            ".",
          );
    return `The behaviour comes from ${where}${lead.lines.length ? `, where ${quote(lead.lines)}` : ""}.`;
  }
  const sentences = [`${raisedAt(site)}.`];
  // An outer error the question names first leads; the cause it reports (the site whose
  // message the question quotes) follows, as the body lists them.
  const cause = sites[1];
  if (cause?.message && !site.message && cause.raised !== site.raised) {
    sentences[0] = `${raisedAt(site)}; the cause it reports: ${raisedAt(cause)}.`;
  }
  const detail = site.message ? detailWritten(site.message, input) : null;
  if (detail && detail.item !== site.s) sentences.push(`The detail it carries ${writtenAt(detail)}.`);
  const from = calledFrom(site.f.qualifiedName, input, symbols, byName);
  if (from) sentences.push(from);
  return sentences.join(" ");
}

/**
 * "The message "…" is written in `f` (path:a-b) when `cond`": where a quoted message is
 * built, the helper that raises it when one does, then where it is called from.
 */
function writtenOpening(
  written: WrittenMessage,
  site: ErrorSite | undefined,
  input: AnswerInput,
  symbols: ContextItem[],
  byName: Map<string, ContextItem>,
): string {
  const { item } = written;
  const name = item.facts?.qualifiedName;
  const sentences = [`The message ${writtenAt(written)}.`];
  const helper = site && shortName(site.f.qualifiedName);
  if (site?.raised && helper && item.text.includes(`${helper}(`))
    sentences.push(
      `It is raised as ${code(site.raised)} by ${code(site.f.qualifiedName)} (${cite(site.s)}).`,
    );
  const from = name ? calledFrom(name, input, symbols, byName) : "";
  if (from) sentences.push(from);
  return sentences.join(" ");
}

function shortName(qualifiedName: string): string {
  return qualifiedName.split(".").pop() ?? qualifiedName;
}

/**
 * "It is called from …": the callers a pasted stack trace shows, in its order (the frame
 * after the site's, then the next), or else the call graph's, each cited.
 */
function calledFrom(
  name: string,
  input: AnswerInput,
  symbols: ContextItem[],
  byName: Map<string, ContextItem>,
): string {
  const site = symbols.find((s) => s.facts?.qualifiedName === name);
  const traced = site ? traceCallers(site, input, symbols) : [];
  if (traced.length)
    return `It is called from ${traced
      .map((s) => `${code(s.facts?.qualifiedName ?? s.title)} (${cite(s)})`)
      .join(", itself called from ")}.`;
  const callers = uniqueBy(
    input.graph.triples.filter(
      (t) => t.subject === name && t.relation === "called_by" && !isAuxiliary(t.objectPath ?? ""),
    ),
    (t) => t.object,
  ).slice(0, 2);
  if (callers.length === 0) return "";
  const named = callers.map((t) => {
    const item = byName.get(t.object);
    const at = item
      ? cite(item)
      : t.objectPath && t.objectLines
        ? `${t.objectPath}:${t.objectLines[0]}-${t.objectLines[1]}`
        : "";
    return `${code(t.object)}${at ? ` (${at})` : ""}`;
  });
  return `It is called from ${joinWords(named)}.`;
}

/**
 * The definitions a symptom is explained by, those that decide nothing last: a setter
 * or registration that only stores what it is given (`r.strictSlash = value`), a type
 * or interface that only declares, a class declared in a header.
 */
function symptomLeads(symbols: ContextItem[]): ContextItem[] {
  const mute = (s: ContextItem) => storesOnly(s) || declaresOnly(s);
  return [...symbols.filter((s) => !mute(s)), ...symbols.filter(mute)];
}

/** A field assignment (`r.x = v`, `this.x = append(this.x, fn)`, `@x = v`, `$this->x = $v`). */
const STORE = /^(?:[\w$]+(?:\.|->)[\w.$>-]+|@\w+)\s*(?:=|\+=|\|=)(?!=)/;

/** A loop over what a setter is given, storing each (`for _, fn := range mwf {`, `for (const h of hooks) {`). */
const STORE_LOOP = /^for\b[^;]*\b(?:range|of|in)\b[^;]*\{?$/;

/** A body that only stores fields and hands back its receiver. */
export function storesOnly(item: Pick<ContextItem, "text" | "facts">): boolean {
  if (TYPE_KINDS.has(item.facts?.kind ?? "")) return false;
  // Its statements: not its doc comment, signature or braces.
  const body = bodyStatements(item.text.split("\n"));
  return (
    body.some((l) => STORE.test(l)) &&
    body.every(
      (l) => STORE.test(l) || STORE_LOOP.test(l) || /^return\s+[\w$]+;?$/.test(l) || /^self$/.test(l),
    )
  );
}

/** A type, interface or trait, or a class declared in a header: declarations, no code that runs. */
function declaresOnly(item: ContextItem): boolean {
  const kind = item.facts?.kind ?? "";
  if (kind === "interface" || kind === "type" || kind === "trait") return true;
  return kind === "class" && /\.(?:h|hh|hpp|hxx)$/.test(item.path ?? "");
}

/** "`Type("message")` is raised by `site` (path:a-b) when `condition`" — what a site raises, where and when. */
function raisedAt(site: ErrorSite): string {
  // The message raised with the type, read from the raise line when the question did not quote it.
  const message = site.message ?? (site.raised ? raisedMessage(site.s.text, site.raised) : null);
  const what = site.raised
    ? `${code(`${site.raised}(${message ? JSON.stringify(message) : "…"})`)} is raised`
    : `The message "${escapeInline(message ?? site.f.errorStrings[0] ?? "")}" is reported`;
  const condition = conditionOf(site.s.text, site.message ?? site.raised ?? "");
  return `${what} by ${code(site.f.qualifiedName)} (${cite(site.s)})${condition ? ` when ${code(condition)}` : ""}`;
}

// ------------------------------------------------------------------ exploratory

function exploratoryOpening(input: AnswerInput, symbols: ContextItem[]): string {
  const step = (s: FlowStep) => `${code(s.name)} (${stepCitation(s, symbols)})`;
  const callers = flowNodes(input, "callers:");
  if (callers.length > 1) {
    const target = callers[0] as FlowStep;
    const direct = callers.filter((c) => c.depth === 1);
    const further = callers.filter((c) => c.depth === 2);
    return `${step(target)} is called by ${direct.length} function${direct.length === 1 ? "" : "s"}: ${joinWords(direct.slice(0, 4).map(step))}${direct.length > 4 ? ` and ${direct.length - 4} more` : ""}${further[0] ? `; ${step(further[0])} is one hop further up` : ""}.`;
  }
  const steps = flowNodes(input);
  // The line of the flow leading to what the question names ("down to the connection being opened").
  const terms = questionStems(input.question);
  const own = steps.map((s) => hitsOf(s.name.split(".").pop() ?? s.name, terms));
  const reach = steps.map((s, i) => Math.max(...own.slice(i, i + 1 + s.descendants)));
  // Several calls named in order ("NewServer, AddRoutes, then Start"): each as named, with the
  // line of calls it runs along.
  const roots = steps.filter((s) => s.depth === 0);
  // The path a question asks to follow runs where nothing fails: an error type built on the
  // way ends the chain shown, unless the question is about errors.
  const happy = (path: FlowStep[]) => {
    if (ERROR_WORDS.test(input.question)) return path;
    const end = path.findIndex((s, i) => i > 0 && ERROR_TYPE.test(s.name));
    return end < 0 ? path : path.slice(0, end);
  };
  if (roots.length > 1) {
    const chains = roots.map((root) => {
      const at = steps.indexOf(root);
      const part = steps.slice(at, at + 1 + root.descendants);
      return happy(mainPath(part, roots.length > 2 ? 3 : 4, (i) => 4 * (reach[at + i] ?? 0)))
        .map(step)
        .join(" → ");
    });
    return `${whenAsked(input.question, "it runs")} ${chains.join(", then ")}.`;
  }
  const path = happy(mainPath(steps, 5, (i) => 4 * (reach[i] ?? 0)));
  const entry = path[0];
  if (!entry) return conceptualOpening(input, symbols);
  if (path.length === 1) return loneEntry(step(entry), entry, symbols);
  const sentences = [
    `${whenAsked(input.question, "it starts at")} ${step(entry)}, then ${path.slice(1).map(step).join(" → ")}.`,
  ];
  // What else the entry calls, beside the main line.
  const at = steps.indexOf(entry);
  const siblings: FlowStep[] = [];
  for (let i = at + 1; i < steps.length; i++) {
    const s = steps[i] as FlowStep;
    if (s.depth === 1 && s !== path[1]) siblings.push(s);
  }
  if (siblings.length)
    sentences.push(`${code(entry.name)} also calls ${joinWords(siblings.slice(0, 3).map(step))}.`);
  return sentences.join(" ");
}

/**
 * A flow whose entry calls nothing the index resolved (a call through a field, a callback, a
 * macro): the opening says so and names the code retrieval ranked next, which the flow most
 * likely goes on to, each cited, rather than ending at the entry.
 */
function loneEntry(entryText: string, entry: FlowStep, symbols: ContextItem[]): string {
  const next = symbols
    .filter((i) => i.facts?.qualifiedName && i.path && i.facts.qualifiedName !== entry.name)
    .filter((i) => !isAuxiliary(i.path ?? "") && !ERROR_TYPE.test(i.facts?.qualifiedName ?? ""))
    .slice(0, 2);
  const lead = `The flow starts at ${entryText}, which calls nothing else in the index`;
  if (next.length === 0) return `${lead}.`;
  const named = next.map((i) => `${code(i.facts?.qualifiedName ?? "")} (${cite(i)})`);
  return `${lead}; the code it most likely goes on to is ${joinWords(named)}.`;
}

/**
 * How an exploratory answer begins, in the question's terms: "When you call
 * `dayjs.extend(utc)`, it runs …" for "what happens when I call dayjs.extend(utc)?", else
 * "It runs …". A clause that speaks of errors is left out (the answer frames none).
 */
export function whenAsked(question: string, verb: string): string {
  // The clause ends where its sentence does: `?`, `:` or `.` then a new sentence or the end (not
  // Rust's `?` operator, `https://`, `std::io`).
  const m = /\b[Ww]hen\s+(.{3,120}?)\s*(?:[?:;.](?=\s+[A-Z]|\s*$)|$)/.exec(question.trim());
  // Where the flow ends is not when it starts ("when I call get(url) until a handler sends it").
  const whole = m?.[1]?.replace(/,.*$/, "").trim() ?? "";
  const end = flowEndAt(whole);
  const clause = (end > 0 ? whole.slice(0, end) : whole).trim();
  if (!clause || ERROR_WORDS.test(clause) || !balanced(clause)) return capitalize(verb);
  const own = clause
    .replace(/\bI\b/g, "you")
    .replace(/\bI'm\b/gi, "you're")
    .replace(/\b(?:my)\b/gi, "your")
    .replace(/\bme\b/gi, "you");
  return `When ${own}, ${verb}`;
}

/**
 * Where the flow a question asks about ends, when it says so ("… up to my handler calling
 * mux.Vars(r)", "… until I get the ValidationResult back", "down to the reduction"): the
 * index its end clause starts at, or -1. What is named there is where the walk should
 * arrive, not where it starts.
 */
export function flowEndAt(question: string): number {
  return question.search(FLOW_END);
}

const FLOW_END =
  /\b(?:up\s+to|until|till|down\s+to|all\s+the\s+way\s+(?:down\s+)?to|ending\s+(?:at|with|in))\s/i;

/** Whether a clause cut from a question leaves no quote, bracket or backtick open. */
function balanced(text: string): boolean {
  const count = (c: string) => text.split(c).length - 1;
  return (
    count("`") % 2 === 0 &&
    count("'") % 2 === 0 &&
    count('"') % 2 === 0 &&
    count("(") === count(")") &&
    count("[") === count("]") &&
    count("{") === count("}")
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A flow step's citation: its whole definition, or when that is longer than an opening
 * should point at, the lines of it retrieval matched (the step's item in context).
 */
function stepCitation(s: FlowStep, symbols: ContextItem[]): string {
  const [start, end] = s.lines.split("-").map(Number) as [number, number];
  if (end - start < MAX_CITED_LINES) return `${s.path}:${s.lines}`;
  const item = symbols.find(
    (i) =>
      i.path === s.path &&
      i.startLine === start &&
      i.focus &&
      i.focus.endLine - i.focus.startLine < MAX_CITED_LINES,
  );
  return item ? cite(item) : `${s.path}:${s.lines}`;
}

// ------------------------------------------------------------------ analytical

function analyticalOpening(input: AnswerInput): string {
  const structure = input.context.find((i) => i.kind === "structure");
  const answer = structure?.text.split("\n").find((l) => l.startsWith("Answer: "));
  return answer ? escapeInline(answer.slice("Answer: ".length).trim()) : "";
}
