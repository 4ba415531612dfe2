/**
 * What every mode retriever shares: its input and output shapes, weighted
 * candidate fusion (RRF over signal lists), and packing the best candidates into
 * context items within a token budget.
 */
import "server-only";
import {
  symbolsByName,
  symbolsByQualifiedIds,
  symbolsByQualifiedName,
  type ChunkHit,
  type SymbolRecord,
} from "../../db/code-graph.ts";
import { lexicalSearch } from "../../search/hybrid.ts";
import { wholeFileSearch } from "../../search/whole-file.ts";
import type { CgragConfig } from "../../settings/config.ts";
import { symbolItem, textItem, type SourceReader } from "../context.ts";
import { type ContextItem } from "../../answerers/contract.ts";
import type { DiagramPart, QueryMode } from "../types.ts";
import { withoutEnvironment, type Anchors } from "../../search/anchors.ts";
import { matchNames, nameIndex, type ConceptTerm } from "../concepts.ts";
import type { FileClass } from "../../db/file-shapes.ts";
import { isTestPath, pathClass } from "../../indexer/file-class.ts";
import { isTestName } from "../../answerers/evidence-reading.ts";
import { classifiedPaths } from "../../db/wiki-inputs.ts";
import { generationCache } from "../generation-cache.ts";
import { inTestSupport, testSupportOf } from "./test-support.ts";
import { resolveSubjects } from "../subjects.ts";
import { itemFocus, narrowCandidate, questionFocus } from "./answering.ts";
import type { Candidate } from "./candidate.ts";

export interface RetrievalInput {
  repositoryId: string;
  generationId: string;
  question: string;
  mode: QueryMode;
  scope: string | null;
  anchors: Anchors;
  config: CgragConfig;
  reader: SourceReader;
  pass: number;
}

export interface RetrievalOutput {
  items: ContextItem[];
  diagram: DiagramPart | null;
  /** Ranked beyond what fit the budget: for benchmarks and the timeline. */
  rankedFiles: string[];
  rankedSymbols: string[];
  /**
   * How many leading ranked symbols are steps of a traced chain in the order it runs
   * (exploratory mode): the learned ranker reorders what follows them.
   */
  chainLead?: number;
  /** Per-signal file rankings (diagnostic mode), for benchmarks and tuning. */
  signals?: Record<string, string[]>;
}

export type { Candidate } from "./candidate.ts";

/** One ranked signal (e.g. "raises the exception", "BM25 over code") with a weight. */
export interface SignalList {
  name: string;
  weight: number;
  candidates: Candidate[];
  /** Every candidate equally evidenced (the locale files of a named language): all count as first. */
  tied?: boolean;
}

export interface Ranked {
  candidate: Candidate;
  score: number;
  reasons: string[];
}

const RRF_K = 20;

/** What the entry at `rank` of a list adds in reciprocal-rank fusion (a tied list's entries all count as first). */
function rrf(list: Pick<SignalList, "weight" | "tied">, rank: number): number {
  return list.weight / (RRF_K + (list.tied ? 0 : rank) + 1);
}

/** Weighted reciprocal-rank fusion of signal lists, deduplicated by candidate key. */
export function fuseSignals(lists: SignalList[]): Ranked[] {
  const byKey = new Map<string, Ranked>();
  for (const list of lists) {
    list.candidates.forEach((candidate, rank) => {
      const contribution = rrf(list, rank);
      const existing = byKey.get(candidate.key);
      if (existing) {
        existing.score += contribution;
        if (!existing.reasons.includes(candidate.reason)) existing.reasons.push(candidate.reason);
        if (!existing.candidate.symbol && candidate.symbol)
          existing.candidate = { ...existing.candidate, symbol: candidate.symbol };
      } else {
        byKey.set(candidate.key, { candidate, score: contribution, reasons: [candidate.reason] });
      }
    });
  }
  return [...byKey.values()].sort((a, b) => b.score - a.score);
}

/** A file as a candidate of its own (no lines yet): packing narrows it to what in it answers. */
export function fileChunk(path: string, score = 0): ChunkHit {
  return {
    id: 0,
    path,
    kind: "file",
    symbolId: null,
    title: path,
    startLine: 1,
    endLine: 1,
    text: "",
    score,
  };
}

/** Files ranked by their best candidates (a file's score: best + a little for each further hit). */
export function rankFiles(ranked: Ranked[]): string[] {
  const scores = new Map<string, number>();
  for (const r of ranked) {
    const path = r.candidate.symbol?.path ?? r.candidate.chunk?.path;
    if (!path) continue;
    const current = scores.get(path);
    scores.set(path, current === undefined ? r.score : current + r.score * 0.25);
  }
  return [...scores.entries()].sort((a, b) => b[1] - a[1]).map(([p]) => p);
}

export function symbolCandidate(symbol: SymbolRecord, reason: string): Candidate {
  return { key: symbol.qualifiedId, symbol, chunk: null, reason };
}

export function chunkCandidate(chunk: ChunkHit, reason: string): Candidate {
  return {
    key: chunk.symbolId ?? `${chunk.path}:${chunk.startLine}-${chunk.endLine}`,
    symbol: null,
    chunk,
    reason,
  };
}

/**
 * Packs ranked candidates into context items until the budget is spent. Symbols
 * get their source (truncated per config); chunks are used as they are. What answers is
 * what is packed and cited: a file summary becomes the function of the file that
 * answers, a class its answering method, and a long item or a wiki page carries the
 * lines that match (lib/qa/retrievers/answering.ts).
 */
export async function packCandidates(
  input: RetrievalInput,
  ranked: Ranked[],
  budget: number,
  options: { maxItems?: number; perItemTokens?: number; origin?: ContextItem["origin"] } = {},
): Promise<ContextItem[]> {
  const items: ContextItem[] = [];
  let used = 0;
  const perItem = Math.min(options.perItemTokens ?? Math.max(250, Math.floor(budget / 3)), budget);
  const maxItems = options.maxItems ?? 12;
  const top = ranked[0]?.score ?? 1;
  const query = () => questionFocus(input.reader, withoutEnvironment(input.question), input.anchors);
  for (const r of ranked) {
    if (items.length >= maxItems || used >= budget) break;
    const remaining = budget - used;
    if (remaining < 60) break;
    const meta = {
      reason: r.reasons.slice(0, 3).join("; "),
      score: round(r.score / top),
      origin: options.origin ?? ("initial" as const),
      pass: input.pass,
    };
    let item: ContextItem | null = null;
    const candidate = await narrowCandidate(input.generationId, input.reader, r.candidate, query());
    const symbol = candidate.symbol;
    if (symbol && input.config.features.useSourceFetching) {
      item = await symbolItem(input.reader, symbol, meta, {
        maxLines: input.config.maxSourceLinesPerFunction,
        maxTokens: Math.min(perItem, remaining),
        truncate: input.config.truncateLongFunctions,
      });
    } else if (candidate.chunk) {
      item = textItem(candidate.chunk, { ...meta, maxTokens: Math.min(perItem, remaining) });
    } else if (symbol) {
      item = textItem(
        {
          path: symbol.path,
          startLine: symbol.startLine,
          endLine: symbol.startLine,
          title: symbol.qualifiedName,
          text: [symbol.signature, symbol.docstring].filter(Boolean).join("\n"),
          kind: "code",
        },
        { ...meta, maxTokens: Math.min(perItem, remaining) },
      );
    }
    if (!item || item.tokens > remaining) continue;
    // Docstrings feed the evidence engine and the prompt's graph; keep them to the configured length.
    if (item.facts && item.facts.docstring.length > input.config.docstringMaxLength) {
      item.facts = {
        ...item.facts,
        docstring: item.facts.docstring.slice(0, input.config.docstringMaxLength),
      };
    }
    if (items.some((i) => i.key === item.key)) continue;
    const lines = await itemFocus(input.generationId, input.reader, item, query());
    if (lines) item.focus = lines;
    items.push(item);
    used += item.tokens;
  }
  return items;
}

export function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/**
 * Documentation chunks (repository docs and wiki pages) for a query, packed into
 * what the docs budget and the initial budget still allow.
 */
export async function docsItems(
  input: RetrievalInput,
  query: string,
  options: { budget: number; used: number; limit?: number; reason?: string; kinds?: string[] },
): Promise<ContextItem[]> {
  const room = Math.min(options.budget, input.config.initialRetrievalBudget - options.used);
  if (room <= 0) return [];
  // Change logs mention every feature once; they describe none. Kept only when asked about.
  const history = HISTORY_QUESTION.test(input.question);
  const docs = (
    await lexicalSearch(input.generationId, query, {
      limit: (options.limit ?? 3) + 3,
      kinds: options.kinds ?? ["doc", "wiki"],
      stems: true,
    })
  )
    .filter((d) => history || !CHANGELOG_PATH.test(d.path))
    .slice(0, options.limit ?? 3);
  const reason = options.reason ?? "documentation on the topic";
  return packCandidates(
    input,
    fuseSignals([{ name: "docs", weight: 1, candidates: docs.map((d) => chunkCandidate(d, reason)) }]),
    room,
    { maxItems: 2 },
  );
}

const CHANGELOG_PATH =
  /(?:^|\/)(?:history|changelog|changes|news|release[-_ ]?notes?|whatsnew)(?:\/|[.\w-]*$)/i;
const HISTORY_QUESTION =
  /\b(?:changelog|history|release|version|changed|deprecat\w*|added in|removed in|since)\b/i;

/** Identifiers worth looking up as symbol names (code-like, not too short or generic). */
export function lookupNames(anchors: Anchors, max = 12): string[] {
  const out: string[] = [];
  for (const id of anchors.identifiers) {
    const parts = id.replace(/\(\)$/, "").split(/[.:]+/).filter(Boolean);
    for (const name of [parts[parts.length - 1], parts.length > 1 ? parts.slice(-2).join(".") : null]) {
      if (name && name.length >= 3 && !out.includes(name)) out.push(name);
    }
    if (out.length >= max) break;
  }
  return out.slice(0, max);
}

/**
 * Symbols whose names carry the question's concepts (definitions, not mentions), as
 * candidates in the order name matching ranks them.
 */
export async function definitionCandidates(
  generationId: string,
  terms: ConceptTerm[],
  limit = 30,
  topics: AuxiliaryTopics = { tests: false, docs: false },
): Promise<Candidate[]> {
  if (terms.length === 0) return [];
  // Tests, docs and examples define no concept of the code (unless the question is about them).
  const matches = matchNames(
    await nameIndex(generationId),
    terms,
    limit,
    (p) => auxiliaryFactor(p, topics) < 1,
  );
  const symbols = await symbolsByQualifiedIds(
    generationId,
    matches.map((m) => m.row.qualifiedId),
  );
  const byId = new Map(symbols.map((s) => [s.qualifiedId, s]));
  return matches.flatMap((m) => {
    const s = byId.get(m.row.qualifiedId);
    return s ? [symbolCandidate(s, `defines ${m.matched.join(", ")}`)] : [];
  });
}

/**
 * The code a question names, most specific first: `Class.method` by qualified name,
 * `package.function` (`requests.get`) as a top-level function under that package,
 * a bare name by name (rarer names first).
 */
export async function namedSymbolCandidates(generationId: string, anchors: Anchors): Promise<Candidate[]> {
  const out: { s: SymbolRecord; weight: number; name: string }[] = [];
  for (const name of lookupNames(anchors, 8)) {
    const parts = name.split(".");
    const last = parts[parts.length - 1] ?? name;
    let matches: SymbolRecord[] = [];
    if (parts.length > 1) {
      matches = await symbolsByQualifiedName(generationId, name, 5);
      if (matches.length === 0) {
        const owner = (parts[parts.length - 2] ?? "").toLowerCase();
        matches = (await symbolsByName(generationId, last, 30)).filter(
          (s) =>
            s.parentId === null &&
            s.path
              .toLowerCase()
              .split("/")
              .some((seg) => seg === owner || seg.replace(/\.\w+$/, "") === owner),
        );
      }
    } else {
      matches = await symbolsByName(generationId, last, 8);
    }
    for (const s of matches)
      out.push({ s, weight: (parts.length > 1 ? 2 : 1) / Math.max(1, matches.length), name });
  }
  out.sort((a, b) => b.weight - a.weight);
  const seen = new Set<string>();
  return out.flatMap((n) => {
    if (seen.has(n.s.qualifiedId)) return [];
    seen.add(n.s.qualifiedId);
    return [symbolCandidate(n.s, `named in the question (${n.name})`)];
  });
}

/**
 * The symbols the question's subjects resolve to (subjects.ts: every language's notation,
 * case and underscore variants, types named by a word), most specific mention first.
 */
export async function subjectCandidates(generationId: string, question: string): Promise<Candidate[]> {
  const subjects = await resolveSubjects(generationId, question);
  const picked = subjects.flatMap((s) =>
    s.symbols.slice(0, s.mention.kind === "term" ? 1 : 3).map((row) => ({ row, mention: s.mention.text })),
  );
  const records = new Map(
    (
      await symbolsByQualifiedIds(
        generationId,
        picked.map((p) => p.row.qualifiedId),
      )
    ).map((r) => [r.qualifiedId, r]),
  );
  const seen = new Set<string>();
  return picked.flatMap(({ row, mention }) => {
    const symbol = records.get(row.qualifiedId);
    if (!symbol || seen.has(row.qualifiedId)) return [];
    seen.add(row.qualifiedId);
    return [symbolCandidate(symbol, `named in the question (${mention})`)];
  });
}

/** Symbols in the best-ranked files rank above equal ones elsewhere (the leading file counts double). */
export function withFilePrior(ranked: Ranked[], rankedFiles: string[]): Ranked[] {
  const rankOf = new Map(rankedFiles.slice(0, 10).map((f, i) => [f, i]));
  return ranked
    .map((r) => {
      const path = r.candidate.symbol?.path ?? r.candidate.chunk?.path ?? "";
      const rank = rankOf.get(path);
      return rank === undefined ? r : { ...r, score: r.score * (1 + 1 / (1 + rank)) };
    })
    .sort((a, b) => b.score - a.score);
}

/** Path prefix for a scope like "frontend" or "src/auth/" (null when the scope is not a path). */
export function scopePrefix(scope: string | null): string | undefined {
  if (!scope) return undefined;
  const cleaned = scope.replace(/^\.\//, "").replace(/\*+$/, "");
  return cleaned.length ? cleaned : undefined;
}

// Docs, examples (top-level samples/ and demo/ too: a package named demo is source, and so
// is a Java/Kotlin package under a reverse domain such as com/example/), benchmarks, scripts,
// third-party code vendored inside a package, and the build tools' configuration
// (karma.conf.js, webpack.config.js, gulpfile.js).
const AUXILIARY_PATH =
  /^(?:samples?|demos?)\/|(^|\/)(?<!(?:^|\/)(?:com|org|net|io|dev)\/)_?(docs?|examples?|bench|benches|benchmarks?|asv_bench|scripts?|tools)\/|\/(packages|_vendor|vendored|extern|externals)\/|(^|\/)(?:[\w.-]+\.(?:conf|config)|gulpfile|gruntfile|karma\.[\w.-]+|webpack\.[\w.-]+|rollup\.[\w.-]+|vite\.[\w.-]+)\.[cm]?[jt]s$/i;

/** Whether a path holds tests (fixes for reported bugs rarely live there): the indexer's rule. */
export { isTestPath };

/**
 * Whether a symbol is a test, by its file or by its qualified name: tests written inside a
 * source file (Rust's `#[cfg(test)] mod tests`, a `test_` function in a module) are no part of the
 * code a question follows, though their path says nothing.
 */
export function isTestSymbol(symbol: Pick<SymbolRecord, "path" | "qualifiedName">): boolean {
  return isTestPath(symbol.path) || isTestName(symbol.qualifiedName);
}

/** Kinds that declare a type or a namespace: they name code, and decide nothing themselves. */
export const TYPE_KINDS: ReadonlySet<string> = new Set([
  "class",
  "struct",
  "interface",
  "trait",
  "type",
  "enum",
  "module",
  "namespace",
]);

/** A function or method: a definition whose body does the work. */
export function isFunctionSymbol(symbol: Pick<SymbolRecord, "kind">): boolean {
  return symbol.kind === "function" || symbol.kind === "method";
}

/** A function or method of the code a question follows, tests written beside it aside. */
export function isCodeFunction(symbol: Pick<SymbolRecord, "kind" | "path" | "qualifiedName">): boolean {
  return isFunctionSymbol(symbol) && !isTestSymbol(symbol);
}

/** Ranked candidates with tests written inside source files demoted like test files, unless the question is about tests. */
export function demoteTestSymbols(ranked: Ranked[], topics: AuxiliaryTopics): Ranked[] {
  if (topics.tests) return ranked;
  return ranked
    .map((r) =>
      r.candidate.symbol && isTestName(r.candidate.symbol.qualifiedName)
        ? { ...r, score: r.score * TEST_FACTOR }
        : r,
    )
    .sort((a, b) => b.score - a.score);
}

/** How much a test's evidence counts when the question is not about tests. */
const TEST_FACTOR = 0.35;

/** Whether a question is about tests or documentation, so their files keep their rank. */
export interface AuxiliaryTopics {
  tests: boolean;
  docs: boolean;
  /** whether it names a vendored or generated file, so those keep their rank too */
  thirdParty?: boolean;
  /**
   * The generation's classified files as stored (fileClassesOf): a file minified or
   * generated by its content, or classed by the repository's attributes, is known by
   * them; without it only the path rules can tell.
   */
  classes?: ReadonlyMap<string, FileClass>;
  /**
   * Top-level folders whose code only tests use, though no path rule says so (a
   * `dummyserver/` only tests import; retrievers/test-support.ts): tests like the rest.
   */
  testSupport?: readonly string[];
}

/** The classified files of a generation, read once per generation (one query). */
export const fileClassesOf = generationCache(classifiedPaths);

const THIRD_PARTY_CLASSES: ReadonlySet<FileClass | null | undefined> = new Set([
  "vendored",
  "generated",
  "minified",
]);

/** Vendored, generated and minified code (lib/indexer/file-class.ts): left out unless named. */
function isThirdParty(path: string, classes?: ReadonlyMap<string, FileClass>): boolean {
  return THIRD_PARTY_CLASSES.has(classes ? classes.get(path) : pathClass(path));
}

/** Whether paths written in a question (`chart.min.js`, `web/vendor/x.js`) name a vendored, generated or minified file. */
export function namesThirdPartyFile(written: string[], classes: ReadonlyMap<string, FileClass>): boolean {
  const names = written.map((p) => p.replace(/\\/g, "/").replace(/^\.?\//, "")).filter(Boolean);
  if (names.length === 0) return false;
  for (const [path, fileClass] of classes) {
    if (!THIRD_PARTY_CLASSES.has(fileClass)) continue;
    if (names.some((n) => path === n || path.endsWith(`/${n}`))) return true;
  }
  return false;
}

/**
 * What a retriever demotes by, for this question: the topics it is about (tests, docs,
 * vendored or generated code, or a file of those it names) and the generation's stored
 * file classes.
 */
export async function retrievalTopics(
  input: RetrievalInput,
  base: AuxiliaryTopics,
): Promise<AuxiliaryTopics> {
  const [classes, testSupport] = await Promise.all([
    fileClassesOf(input.generationId),
    testSupportOf(input.generationId),
  ]);
  return {
    ...base,
    classes,
    testSupport,
    tests: base.tests || input.anchors.paths.some((p) => inTestSupport(p, testSupport)),
    thirdParty: (base.thirdParty ?? false) || namesThirdPartyFile(input.anchors.paths, classes),
  };
}

/** Topics implied by the repository files a question points at (resolved, not as written). */
export function topicsOfPaths(namedPaths: string[], topics?: AuxiliaryTopics): AuxiliaryTopics {
  const classes = topics?.classes;
  const support = topics?.testSupport ?? [];
  return {
    tests: (topics?.tests ?? false) || namedPaths.some((p) => isTestPath(p) || inTestSupport(p, support)),
    docs: (topics?.docs ?? false) || namedPaths.some((p) => AUXILIARY_PATH.test(p)),
    thirdParty: (topics?.thirdParty ?? false) || namedPaths.some((p) => isThirdParty(p, classes)),
    classes,
    testSupport: topics?.testSupport,
  };
}

/** Whether a file is vendored, generated or minified code a question did not ask about: left out of walks and graphs. */
export function leftOut(path: string, topics: AuxiliaryTopics): boolean {
  return !topics.thirdParty && isThirdParty(path, topics.classes);
}

/**
 * How much a file's evidence counts: tests, docs, examples and vendored code less, and
 * vendored, generated and minified files (as stored when the topics carry the classes,
 * else by their path) hardly at all, unless asked about.
 */
export function auxiliaryFactor(path: string, topics: AuxiliaryTopics): number {
  if (leftOut(path, topics)) return 0.05;
  if (!topics.tests && (isTestPath(path) || inTestSupport(path, topics.testSupport ?? [])))
    return TEST_FACTOR;
  if (!topics.docs && AUXILIARY_PATH.test(path)) return 0.5;
  return 1;
}

/**
 * Ranking prefers library source: a failure shows up in tests, docs and examples but is
 * caused (and fixed) in the code they exercise, and a concept is implemented there.
 * Unless the question itself points at such files, their candidates are demoted, not
 * dropped. Vendored, generated and minified code is not the repository's to explain:
 * its candidates are dropped, unless the question names such a file or asks about it.
 */
export function demoteAuxiliary(ranked: Ranked[], namedPaths: string[], topics?: AuxiliaryTopics): Ranked[] {
  const about = topicsOfPaths(namedPaths, topics);
  const out = ranked.flatMap((r) => {
    const path = r.candidate.symbol?.path ?? r.candidate.chunk?.path ?? "";
    if (leftOut(path, about)) return [];
    const factor = auxiliaryFactor(path, about);
    return [factor === 1 ? r : { ...r, score: r.score * factor }];
  });
  return out.sort((a, b) => b.score - a.score);
}

/**
 * The whole-file lexical channel as a file signal: whole files ranked by BM25 of the
 * question's words. Every mode fuses it into its file ranking (named `whole-file`), so
 * what plain BM25 over whole files finds is never lost to chunking, a mode's anchors or
 * demotion. Its candidates stand for whole files: they rank files, never context items.
 */
export async function wholeFileSignal(
  input: Pick<RetrievalInput, "generationId" | "question">,
  weight: number,
  options: { query?: string; pathPrefix?: string; kind?: "code" | "text" } = {},
): Promise<SignalList> {
  const hits = await wholeFileSearch(input.generationId, options.query ?? input.question, {
    limit: 20,
    pathPrefix: options.pathPrefix,
    kind: options.kind,
  });
  return {
    name: "whole-file",
    weight,
    candidates: hits.map((h) => ({
      key: `file:${h.path}`,
      symbol: null,
      chunk: {
        id: 0,
        path: h.path,
        kind: "file",
        symbolId: null,
        title: h.path,
        startLine: 1,
        endLine: 1,
        text: "",
        score: h.score,
      },
      reason: "the whole file matches the question's words",
    })),
  };
}

/** The files each signal list ranks, in order (deduplicated). */
export function signalFiles(lists: SignalList[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const list of lists) {
    const files: string[] = [];
    for (const c of list.candidates) {
      const path = c.symbol?.path ?? c.chunk?.path;
      if (path && !files.includes(path)) files.push(path);
    }
    out[list.name] = files.slice(0, 20);
  }
  return out;
}

/**
 * Files ranked by fusing each signal's own file ranking (weighted RRF per file), with
 * tests, docs and vendored code demoted as in demoteAuxiliary. Evidence about a file
 * adds up across signals even when it comes from different chunks of it, which
 * localizes better than ranking files by their single best chunk.
 */
export function fuseFiles(
  lists: SignalList[],
  namedPaths: string[],
  limit = 30,
  topics?: AuxiliaryTopics,
): string[] {
  return fileScores(lists, namedPaths, topics)
    .slice(0, limit)
    .map(([file]) => file);
}

/** The files of `fuseFiles` with their fused scores, best first. */
export function fileScores(
  lists: SignalList[],
  namedPaths: string[],
  topics?: AuxiliaryTopics,
): [string, number][] {
  const about = topicsOfPaths(namedPaths, topics);
  const scores = new Map<string, number>();
  for (const [name, files] of Object.entries(signalFiles(lists))) {
    const list = lists.find((l) => l.name === name) ?? { weight: 0 };
    files.forEach((file, rank) => scores.set(file, (scores.get(file) ?? 0) + rrf(list, rank)));
  }
  for (const [file, score] of scores) scores.set(file, score * auxiliaryFactor(file, about));
  return [...scores.entries()].sort((a, b) => b[1] - a[1]);
}

/** The calls a symbol's stored `calls` column records: name, receiver and line of each (none when unreadable). */
export function storedCalls(json: string): { name: string; receiver: string | null; line: number }[] {
  try {
    const calls = JSON.parse(json) as unknown;
    if (!Array.isArray(calls)) return [];
    return calls.flatMap((c: { name?: unknown; receiver?: unknown; line?: unknown }) =>
      typeof c?.name === "string" && typeof c.line === "number"
        ? [{ name: c.name, receiver: typeof c.receiver === "string" ? c.receiver : null, line: c.line }]
        : [],
    );
  } catch {
    return [];
  }
}
