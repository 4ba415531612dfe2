/**
 * What the learned symbol ranker reads of each of a retrieval's first candidates: its
 * place in the mode's ranking and its file's place in each fused signal, how much of the
 * question's concept terms its name, enclosing name, path, doc and body carry, its kind
 * and size, whether it is test code (tests and what serves them: e2e page objects, fixtures,
 * mocks) or left out by default (that, examples, vendored or generated code the question does
 * not ask about), and whether it calls or is called by the leading
 * candidates. Every feature is language-neutral and computed from what retrieval already
 * holds (the symbols' rows and the source reader's cached files), so ranking adds a few
 * milliseconds. Pure: the same inputs give the same vector, in `FEATURE_NAMES` order.
 */
import type { SymbolRecord } from "../../db/code-graph.ts";
import { splitIdentifier, stem } from "../../db/tokenize.ts";
import {
  conceptTerms,
  questionTopics,
  sameStem,
  type ConceptTerm,
  type QuestionTopics,
} from "../concepts.ts";
import { isTestCode } from "./exploratory-steps.ts";
import { excludedByDefault } from "./scope.ts";
import type { QueryMode } from "../types.ts";

export const FEATURE_NAMES = [
  "rank-inverse",
  "rank-first",
  "rank-top5",
  "rank-log",
  "file-rank-inverse",
  "file-first",
  "file-top5",
  "file-unranked",
  "signals-top5",
  "signals-any",
  "name-terms",
  "name-parts-matched",
  "parent-terms",
  "path-terms",
  "doc-terms",
  "body-terms",
  "rare-name-terms",
  "rare-body-terms",
  "name-terms-below-best",
  "body-terms-below-best",
  "named-in-question",
  "callable",
  "type",
  "size-log",
  "tiny",
  "test",
  "left-out-by-default",
  "same-file-above",
  "calls-first",
  "called-by-first",
  "calls-candidates",
  "called-by-candidates",
  "fan-in-log",
  "exported",
  "unknown-symbol",
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];

export interface RankingContext {
  question: string;
  mode: QueryMode;
  /** the retrieval's ranked symbol ids, best first (only the first candidates are read) */
  ids: string[];
  /** the rows of those ids that are in the index */
  records: Map<string, SymbolRecord>;
  /** each candidate's source text (missing: not read) */
  bodies: Map<string, string>;
  rankedFiles: string[];
  /** per-signal file rankings, as the retrievers report them */
  signals: Record<string, string[]>;
}

const CALLABLE = new Set(["function", "method"]);
const TYPES = new Set(["class", "interface", "struct", "enum", "trait", "type"]);
/** How many leading candidates the call links are counted among. */
const LINKED = 10;

/** The feature vector of every candidate, in the order of `ctx.ids`. */
export function candidateFeatures(ctx: RankingContext): number[][] {
  const terms = conceptTerms(ctx.question);
  const topics = questionTopics(ctx.question);
  const questionWords = new Set(ctx.question.toLowerCase().match(/[a-z_$][\w$]*/g) ?? []);
  const fileRank = new Map(ctx.rankedFiles.map((f, i) => [f, i] as const));
  const signalLists = Object.values(ctx.signals).filter((l) => l.length > 0);
  const records = ctx.ids.map((id) => ctx.records.get(id));
  const nameStems = records.map((r) => (r ? stemsOf(r.qualifiedName) : []));
  const bodyStems = ctx.ids.map((id) => stemsOf(ctx.bodies.get(id) ?? ""));
  const bodyMatches = bodyStems.map((stems) => matchedTerms(terms, stems));
  const weights = termRarity(bodyMatches);
  const links = callLinks(records);
  const own = records.map((r, i) =>
    r
      ? symbolValues(r, {
          terms,
          topics,
          questionWords,
          fileRank,
          signalLists,
          body: bodyMatches[i] as boolean[],
        })
      : null,
  );
  const best = (key: "name-terms" | "body-terms") => Math.max(0, ...own.map((v) => v?.[key] ?? 0));
  const bestName = best("name-terms");
  const bestBody = best("body-terms");
  const seenPaths: string[] = [];
  return ctx.ids.map((_, rank) => {
    const r = records[rank];
    const v = own[rank];
    const values: Record<FeatureName, number> = {
      ...(v ?? emptySymbolValues()),
      "rank-inverse": 1 / (rank + 1),
      "rank-first": rank === 0 ? 1 : 0,
      "rank-top5": rank < 5 ? 1 : 0,
      "rank-log": Math.log1p(rank) / Math.log(32),
      "rare-name-terms": weightedShare(weights, matchedTerms(terms, nameStems[rank] as string[])),
      "rare-body-terms": weightedShare(weights, bodyMatches[rank] as boolean[]),
      "name-terms-below-best": v ? bestName - v["name-terms"] : bestName,
      "body-terms-below-best": v ? bestBody - v["body-terms"] : bestBody,
      "same-file-above": r ? seenPaths.filter((p) => p === r.path).length / 3 : 0,
      ...(links[rank] as CallLinks),
      "unknown-symbol": r ? 0 : 1,
    };
    if (r) seenPaths.push(r.path);
    return FEATURE_NAMES.map((name) => values[name]);
  });
}

type CallLinks = Record<
  "calls-first" | "called-by-first" | "calls-candidates" | "called-by-candidates",
  number
>;

/** Each candidate's calls to and from the first candidate and the other leading ones (by called name). */
function callLinks(records: (SymbolRecord | undefined)[]): CallLinks[] {
  const calls = records.map((r) => new Set(r ? calledNames(r) : []));
  const names = records.map((r) => r?.name.toLowerCase() ?? "");
  const linked = (i: number, j: number) =>
    i !== j && !!names[j] && (calls[i] as Set<string>).has(names[j] as string);
  const lead = Math.min(LINKED, records.length);
  return records.map((_, i) => {
    let out = 0;
    let inn = 0;
    for (let j = 0; j < lead; j++) {
      if (linked(i, j)) out++;
      if (linked(j, i)) inn++;
    }
    return {
      "calls-first": linked(i, 0) ? 1 : 0,
      "called-by-first": linked(0, i) ? 1 : 0,
      "calls-candidates": Math.min(1, out / 3),
      "called-by-candidates": Math.min(1, inn / 3),
    };
  });
}

/**
 * How much each concept term tells the candidates apart: a term in every candidate's body
 * weighs little, one in a few much (inverse document frequency over the candidates).
 */
function termRarity(bodies: boolean[][]): number[] {
  const n = bodies.length;
  const width = bodies[0]?.length ?? 0;
  return Array.from({ length: width }, (_, t) =>
    Math.log((n + 1) / (bodies.filter((m) => m[t]).length + 0.5)),
  );
}

/** The share of the terms' rarity weight carried by the terms matched. */
function weightedShare(weights: number[], matched: boolean[]): number {
  const total = weights.reduce((a, b) => a + Math.max(0, b), 0);
  if (total <= 0) return 0;
  return matched.reduce((got, m, i) => got + (m ? Math.max(0, weights[i] ?? 0) : 0), 0) / total;
}

type SymbolValues = Omit<
  Record<FeatureName, number>,
  | "rank-inverse"
  | "rank-first"
  | "rank-top5"
  | "rank-log"
  | "rare-name-terms"
  | "rare-body-terms"
  | "name-terms-below-best"
  | "body-terms-below-best"
  | "same-file-above"
  | keyof CallLinks
  | "unknown-symbol"
>;

interface Shared {
  terms: ConceptTerm[];
  topics: QuestionTopics;
  questionWords: Set<string>;
  fileRank: Map<string, number>;
  signalLists: string[][];
  /** which of the question's terms the candidate's body carries */
  body: boolean[];
}

function symbolValues(r: SymbolRecord, s: Shared): SymbolValues {
  const fr = s.fileRank.get(r.path);
  const nameParts = splitIdentifier(r.name).map(stemOf);
  const parentName = r.qualifiedName.slice(0, Math.max(0, r.qualifiedName.length - r.name.length));
  const lines = r.endLine - r.startLine + 1;
  const test = isTestCode(r.path);
  return {
    "file-rank-inverse": fr === undefined ? 0 : 1 / (fr + 1),
    "file-first": fr === 0 ? 1 : 0,
    "file-top5": fr !== undefined && fr < 5 ? 1 : 0,
    "file-unranked": fr === undefined ? 1 : 0,
    "signals-top5": share(s.signalLists, (l) => l.slice(0, 5).includes(r.path)),
    "signals-any": share(s.signalLists, (l) => l.includes(r.path)),
    "name-terms": termShare(s.terms, nameParts),
    "name-parts-matched": nameParts.length
      ? nameParts.filter((p) => s.terms.some((t) => sameStem(t, p))).length / nameParts.length
      : 0,
    "parent-terms": termShare(s.terms, stemsOf(parentName)),
    "path-terms": termShare(s.terms, stemsOf(r.path)),
    "doc-terms": termShare(s.terms, stemsOf(r.docstring ?? "")),
    "body-terms": s.terms.length ? s.body.filter(Boolean).length / s.terms.length : 0,
    "named-in-question": r.name.length >= 3 && s.questionWords.has(r.name.toLowerCase()) ? 1 : 0,
    callable: CALLABLE.has(r.kind) ? 1 : 0,
    type: TYPES.has(r.kind) ? 1 : 0,
    "size-log": Math.min(1, Math.log1p(Math.max(0, lines)) / Math.log(1000)),
    tiny: lines <= 3 ? 1 : 0,
    test: test ? 1 : 0,
    "left-out-by-default": excludedByDefault(r.path, s.topics) || (test && !s.topics.tests) ? 1 : 0,
    "fan-in-log": Math.min(1, Math.log1p(r.fanIn) / Math.log(100)),
    exported: r.exported ? 1 : 0,
  };
}

/** The symbol's own features when its row is missing: nothing known but that its file is unranked. */
function emptySymbolValues(): Record<FeatureName, number> {
  const zero = Object.fromEntries(FEATURE_NAMES.map((n) => [n, 0])) as Record<FeatureName, number>;
  return { ...zero, "file-unranked": 1 };
}

function share<T>(items: T[], test: (item: T) => boolean): number {
  return items.length ? items.filter(test).length / items.length : 0;
}

/** The share of the question's concept terms that one of the stems carries. */
function termShare(terms: ConceptTerm[], stems: string[]): number {
  return terms.length ? matchedTerms(terms, stems).filter(Boolean).length / terms.length : 0;
}

/** Which of the terms the stems carry (the same stem, or one a prefix of the other). */
function matchedTerms(terms: ConceptTerm[], stems: string[]): boolean[] {
  if (stems.length === 0) return terms.map(() => false);
  const set = new Set(stems);
  return terms.map((t) => t.stems.some((x) => set.has(x)) || stems.some((p) => sameStem(t, p)));
}

function stemsOf(text: string): string[] {
  const out = new Set<string>();
  for (const word of new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? [])) {
    for (const part of splitIdentifier(word)) if (part.length >= 3) out.add(stemOf(part));
  }
  return [...out];
}

/** Stems already computed: bodies repeat their words, and stemming is most of the features' time. */
const STEMS = new Map<string, string>();
const STEMS_KEPT = 50_000;

function stemOf(part: string): string {
  let s = STEMS.get(part);
  if (s === undefined) {
    if (STEMS.size >= STEMS_KEPT) STEMS.clear();
    s = stem(part);
    STEMS.set(part, s);
  }
  return s;
}

/** The names a symbol calls (last identifier, lower case). */
function calledNames(r: SymbolRecord): string[] {
  try {
    const calls = JSON.parse(r.calls) as { name?: unknown }[];
    return calls.flatMap((c) => (typeof c.name === "string" ? [c.name.toLowerCase()] : []));
  } catch {
    return [];
  }
}
