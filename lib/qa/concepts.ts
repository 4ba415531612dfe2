/**
 * Concepts of a question matched against the names of the code: "how does requests
 * decide whether to follow a redirect" is answered by `resolve_redirects`, whose name
 * says it defines redirect handling, more than by a test that mentions the word. Terms
 * are compared by stem (`redirects` ~ `redirect`, `pushed` ~ `push`), common
 * abbreviations (`application` ~ `app`, `context` ~ `ctx`) and, for names written as
 * one lowercase word (`getfixturevalue`), by containment. Each term weighs by how rare
 * it is among the repository's names, so "session" in a web framework counts less than
 * "redirect". The names of a generation are loaded once and kept while it is in use.
 */
import "server-only";
import { symbolNameRows, type SymbolNameRow } from "../db/code-graph.ts";
import { isSignificant, splitIdentifier, stem } from "../db/tokenize.ts";
import { generationCache } from "./generation-cache.ts";

/** Abbreviations programmers write for a word, both ways (`app` ↔ `application`). */
const ABBREVIATIONS: Record<string, string[]> = {
  application: ["app"],
  context: ["ctx"],
  configuration: ["config", "cfg", "conf"],
  config: ["cfg", "conf", "configuration"],
  request: ["req"],
  response: ["resp", "res"],
  message: ["msg"],
  error: ["err"],
  environment: ["env"],
  database: ["db"],
  function: ["func", "fn"],
  implementation: ["impl"],
  initialize: ["init"],
  initialization: ["init"],
  authentication: ["auth"],
  authorization: ["auth"],
  attribute: ["attr"],
  argument: ["arg", "args"],
  parameter: ["param", "params"],
  directory: ["dir"],
  document: ["doc"],
  documentation: ["doc", "docs"],
  number: ["num"],
  string: ["str"],
  object: ["obj"],
  value: ["val"],
  variable: ["var"],
  temporary: ["tmp", "temp"],
  repository: ["repo"],
  package: ["pkg"],
  library: ["lib"],
  specification: ["spec"],
  information: ["info"],
  reference: ["ref"],
  source: ["src"],
  destination: ["dst", "dest"],
  previous: ["prev"],
  command: ["cmd"],
  options: ["opts"],
  utility: ["util"],
  utilities: ["utils", "util"],
  manager: ["mgr"],
  connection: ["conn"],
  address: ["addr"],
  sequence: ["seq"],
  dictionary: ["dict"],
  expression: ["expr"],
  statistics: ["stats"],
  generation: ["gen"],
  synchronous: ["sync"],
  asynchronous: ["async"],
};
const EXPANSIONS = new Map<string, string[]>();
for (const [word, shorts] of Object.entries(ABBREVIATIONS)) {
  EXPANSIONS.set(word, [...(EXPANSIONS.get(word) ?? []), ...shorts]);
  for (const s of shorts) EXPANSIONS.set(s, [...(EXPANSIONS.get(s) ?? []), word]);
}

/** Words of questions that name no concept of the code ("how does X work", "walk me through"). */
const QUESTION_WORDS = new Set(
  `work works working happen happens happening decide decides decided explain describe walk trace
  follow part parts thing kind way implemented implement implements
  defined define handled mean means purpose role exactly overall happens step steps`
    .split(/\s+/)
    .filter(Boolean),
);

export interface ConceptTerm {
  /** the word as asked (lower case) */
  word: string;
  /** its stem and the stems of its abbreviations or expansions */
  stems: string[];
}

/** The concept terms of a question: significant words and identifier parts, with stems and abbreviations. */
export function conceptTerms(question: string, max = 12): ConceptTerm[] {
  const out = new Map<string, ConceptTerm>();
  for (const m of question.matchAll(/[A-Za-z_$][\w$]*/g)) {
    for (const part of splitIdentifier(m[0])) {
      if (out.size >= max) break;
      if (!isSignificant(part) || QUESTION_WORDS.has(part) || part.length < 3 || out.has(part)) continue;
      const stems = new Set([stem(part), ...(EXPANSIONS.get(part) ?? []).map(stem)]);
      out.set(part, { word: part, stems: [...stems] });
    }
  }
  return [...out.values()];
}

interface IndexedName {
  row: SymbolNameRow;
  /** stems of the name's own parts */
  own: string[];
  /** the name's parts as written (lower case), for containment in one-word names */
  raw: string[];
  /** stems of the enclosing symbol's name parts (a method's class) */
  parent: string[];
}

export interface NameIndex {
  names: IndexedName[];
  /** how many names each stem occurs in (own or parent) */
  frequency: Map<string, number>;
}

/** The name index of a generation, built once (generations never change once active). */
export const nameIndex = generationCache((generationId) => symbolNameRows(generationId).then(buildNameIndex));

export function buildNameIndex(rows: SymbolNameRow[]): NameIndex {
  const frequency = new Map<string, number>();
  const names = rows.map((row) => {
    const raw = splitIdentifier(row.name);
    const own = raw.map(stem);
    const parentName = row.qualifiedName.includes(".")
      ? row.qualifiedName.slice(0, row.qualifiedName.lastIndexOf("."))
      : "";
    const parent = parentName ? splitIdentifier(parentName.split(".").pop() ?? "").map(stem) : [];
    for (const s of new Set([...own, ...parent])) frequency.set(s, (frequency.get(s) ?? 0) + 1);
    return { row, own, raw, parent };
  });
  return { names, frequency };
}

export interface NameMatch {
  row: SymbolNameRow;
  score: number;
  /** question words the name (or its class) carries */
  matched: string[];
}

/**
 * Symbols whose names carry the question's concepts, best first. A name scores the
 * rarity of each term it carries (its own name in full, its class's name at half),
 * scaled by how much of the name the terms cover: `is_redirect` is more about
 * redirects than `test_redirect_with_wrong_gzipped_header`.
 */
export function matchNames(
  index: NameIndex,
  terms: ConceptTerm[],
  limit = 40,
  skip?: (path: string) => boolean,
): NameMatch[] {
  if (terms.length === 0) return [];
  const total = Math.max(1, index.names.length);
  const weight = (s: string) => Math.log(1 + total / (1 + (index.frequency.get(s) ?? 0)));
  const termWeights = terms.map((t) =>
    Math.max(0, ...t.stems.map((s) => (index.frequency.has(s) ? weight(s) : 0))),
  );
  const out: NameMatch[] = [];
  // A quick filter before scoring: a name can only match through a stem, a stem's first five
  // letters (prefix matches), or a long one-word part.
  const keys = new Set(terms.flatMap((t) => t.stems.flatMap((s) => [s, s.slice(0, 5)])));
  const mayMatch = (entry: IndexedName) =>
    entry.own.some((s) => keys.has(s) || keys.has(s.slice(0, 5))) ||
    entry.parent.some((s) => keys.has(s) || keys.has(s.slice(0, 5))) ||
    entry.raw.some((p) => p.length >= 10);
  for (const entry of index.names) {
    if (!mayMatch(entry) || skip?.(entry.row.path)) continue;
    let score = 0;
    let coveredParts = 0;
    const matched: string[] = [];
    terms.forEach((t, i) => {
      const w = termWeights[i] ?? 0;
      const ownHit = entry.own.some((s, j) => sameStem(t, s) || containsWord(entry.raw[j] ?? "", t));
      if (ownHit) {
        score += w || weight(t.stems[0] ?? t.word);
        coveredParts++;
        matched.push(t.word);
      } else if (entry.parent.some((s) => sameStem(t, s))) {
        score += (w || weight(t.stems[0] ?? t.word)) * 0.5;
        matched.push(t.word);
      }
    });
    if (score === 0) continue;
    const coverage = Math.min(1, coveredParts / Math.max(1, entry.own.length));
    out.push({
      row: entry.row,
      score: score * (0.5 + 0.5 * coverage) * (1 + 0.2 * (matched.length - 1)),
      matched,
    });
  }
  return out
    .sort((a, b) => b.score - a.score || a.row.qualifiedName.length - b.row.qualifiedName.length)
    .slice(0, limit);
}

/**
 * Whether a name part's stem is one of the term's: equal, or one a prefix of the other
 * when both are long enough to mean the same word (`reduc`/`reduct`, `check`/`checker`).
 */
export function sameStem(term: ConceptTerm, partStem: string): boolean {
  return term.stems.some(
    (s) =>
      s === partStem ||
      (s.length >= 5 && partStem.length >= 5 && (partStem.startsWith(s) || s.startsWith(partStem))),
  );
}

/** A long one-word name part (`getfixturevalue`) that contains the term as asked (not `postgres` for "post"). */
function containsWord(part: string, term: ConceptTerm): boolean {
  return (
    part.length >= 10 &&
    term.word.length >= 4 &&
    part.length - term.word.length >= 4 &&
    part.includes(term.word)
  );
}

/** What a question asks about beyond the code itself: tests, documentation, examples. */
export interface QuestionTopics {
  tests: boolean;
  docs: boolean;
  /** vendored, generated or minified code (lib/indexer/file-class.ts) */
  thirdParty: boolean;
}

const ABOUT_TESTS =
  /\b(?:(?:unit|integration|e2e|end-to-end|regression|functional)\s+tests?|tests?\s+(?:for|of|that|which|cover|covering|suite|cases?|fixtures?|files?\s+for)|test\s+(?:suite|coverage|cases?)|(?:which|what|failing|flaky)\s+tests?\b|(?:the|our|these|those)\s+tests\b|tested|testing\s+(?:of|for|strategy))\b/i;
/**
 * One particular test: "the test class that …", "this test method", "in the test", or a
 * test named as code (`test_min`, `TestEvaluation`). Plural and generic uses ("how pytest
 * collects test functions") name the concept, not a test.
 */
const A_TEST =
  /\b(?:the|this|that|a|an|each)\s+(?:[\w-]+\s+)?test\s+(?:class|function|method|module|file|helper|case|fixture|set-?up|suite)\b|\bin\s+the\s+test\b(?!\s+(?:session|run|suite))|\bthe\s+test\s+(?:that|which|where)\b|\btest_\w+|\bTest[A-Z]\w*/;
const ABOUT_DOCS = /\b(?:docs|documentation|documented|readme|tutorial|guide|changelog|examples?)\b/i;

const ABOUT_THIRD_PARTY =
  /\b(?:vendor(?:ed)?|third[- ]party|generated|minified|bundled?|lockfiles?|protobuf|\.min\.js)\b/i;

/** Tests, examples, docs or benchmarks named in a list. */
const AUXILIARY_LIST =
  "(?:(?:the|any|all|its|their)\\s+)?(?:unit\\s+)?(?:tests?|specs?|examples?|docs|documentation|benchmarks?|tools)(?:\\s*(?:,|and|or|nor)\\s*(?:the\\s+)?(?:unit\\s+)?(?:tests?|specs?|examples?|docs|documentation|benchmarks?|tools))*";
/**
 * A list of such code the question leaves out ("not the examples or tests", "leaving the
 * tests aside", "tools and tests left out", "excluding tests"): naming it to exclude it is
 * not asking about it.
 */
const LEFT_OUT = new RegExp(
  `\\b(?:not|leave|leaving|excluding|exclude|ignoring|ignore|apart\\s+from|other\\s+than|except(?:\\s+for)?|aside\\s+from)\\s+${AUXILIARY_LIST}(?:\\s+(?:aside|out))?\\b|\\b${AUXILIARY_LIST}\\s+(?:left\\s+out|aside|excluded|ignored)\\b`,
  "gi",
);

export function questionTopics(question: string): QuestionTopics {
  const asked = question.replace(LEFT_OUT, " ");
  return {
    tests: ABOUT_TESTS.test(asked) || A_TEST.test(asked),
    docs: ABOUT_DOCS.test(asked),
    thirdParty: ABOUT_THIRD_PARTY.test(question),
  };
}
