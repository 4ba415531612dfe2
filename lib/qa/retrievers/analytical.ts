/**
 * Analytical retrieval: the figure the question asks for, computed from the index,
 * about what it names. The question's subjects and scope are resolved first
 * (subjects.ts; a path, "the backends package", a dotted module), then what it asks
 * (analytical-intent.ts) picks the analysis:
 * - a named symbol: its callers and callees up to two hops and their files
 *   (subject-graph.ts), not repository-wide statistics;
 * - a named file: what imports it and what it imports; what a file, class or folder
 *   depends on outside it (analytical-dependencies.ts);
 * - names nothing calls (a field, option or hook list): the functions writing them
 *   (analytical-mentions.ts);
 * - cycles: import cycles among the named files or inside the scope (any language's
 *   imports, C and C++ includes too), or call cycles among named functions;
 * - two named parts (paths, or places such as "the core package"): the imports and calls
 *   between them (coupling, layering);
 * - a census of definitions per folder or file (analytical-census.ts);
 * - the most imported files, the functions with the highest fan-in or fan-out, the
 *   largest functions, the functions nothing calls — inside the scope;
 * - otherwise the scope's structure: modules, coupling, cycles, findings.
 * A question about the whole repository leaves tests, examples, docs, benchmarks,
 * vendored and generated code out of every figure unless it asks about them. The
 * context leads with a structure item whose first line, `Answer:`, states the figure
 * with its citations; the evidence engine opens with it and the body lists the rest.
 */
import "server-only";
import { symbolsByQualifiedIds } from "../../db/code-graph.ts";
import { getFile } from "../../db/index-reads.ts";
import { getWikiPage, pageChunkText } from "../../db/wiki-store.ts";
import { contentTerms, queryTerms } from "../../db/tokenize.ts";
import { lexicalSearch } from "../../search/hybrid.ts";
import { chunkPathOf } from "../../db/wiki-shapes.ts";
import { slugForPath } from "../../wiki/slugs.ts";
import { inScope, type StructureReport } from "../../wiki/structure.ts";
import { renderReport } from "./analytical-report.ts";
import { conceptTerms, questionTopics } from "../concepts.ts";
import { syntheticItem, textItem } from "../context.ts";
import { resolveSubjects, type Subject } from "../subjects.ts";
import { type ContextItem } from "../../answerers/contract.ts";
import {
  analyticalAsks,
  asksAboutFunctions,
  asksImportersOf,
  SCOPE_ASKS,
  type AnalyticalAsk,
} from "./analytical-intent.ts";
import { excludedByDefault, excludedByName, namedExclusions, namedPlaces, resolveScope } from "./scope.ts";
import { inTestSupport, testSupportOf } from "./test-support.ts";
import { isTestName } from "../../answerers/evidence-reading.ts";
import {
  chunkCandidate,
  definitionCandidates,
  demoteAuxiliary,
  docsItems,
  fileChunk,
  fuseFiles,
  fuseSignals,
  packCandidates,
  retrievalTopics,
  signalFiles,
  symbolCandidate,
  wholeFileSignal,
  type Candidate,
  type RetrievalInput,
  type RetrievalOutput,
  type SignalList,
} from "./shared.ts";
import { type Analysis, type Focus } from "./analytical-focus.ts";
import { withDescribedSubject } from "./analytical-described.ts";
import {
  between,
  callersInto,
  cycles,
  externalCallers,
  fileNeighbours,
  importersOf,
  rankNamedSymbols,
  symbolGraph,
} from "./analytical-graphs.ts";
import { deadCode, fanIn, fanOut, largest, mostImported, overview } from "./analytical-rankings.ts";
import { namesUsed } from "./analytical-mentions.ts";
import { asksCensus, census } from "./analytical-census.ts";
import { asksImplementers, implementers } from "./analytical-implementers.ts";
import {
  asksOwnDependencies,
  dependenciesOf,
  fileWithStem,
  ownPart,
  withFileByStem,
  withPairByStem,
  withPlaces,
} from "./analytical-dependencies.ts";

export { pathScope, resolveScope } from "./scope.ts";

export async function retrieveAnalytical(input: RetrievalInput): Promise<RetrievalOutput> {
  const { generationId, config, question } = input;
  const topics = questionTopics(question);
  const exclusions = namedExclusions(question);
  // Test support no path gives away (a `dummyserver/` only tests import) goes with the tests.
  const support = topics.tests ? [] : await testSupportOf(generationId);
  const keep = (path: string) =>
    !excludedByDefault(path, topics) && !excludedByName(path, exclusions) && !inTestSupport(path, support);
  const [subjects, resolved] = await Promise.all([
    resolveSubjects(generationId, question),
    resolveScope(generationId, question, input.scope),
  ]);
  // "Which modules import core/logx the most", "which files import utils.py": the path named
  // is what is used, not where to look, unless the question writes it as a place ("which files in src/ use the config the most").
  const used =
    (analyticalAsks(question).includes("importers") || asksImportersOf(question)) &&
    !writtenAsPlace(question, resolved)
      ? resolved
      : null;
  // "Does the core package depend on the app package?": two places named are the parts compared.
  const places = await namedPlaces(generationId, question);
  const scope = used || places.length >= 2 ? null : resolved;
  const focus = await withDescribedSubject(
    await withFileByStem(
      await withPairByStem(
        withPlaces(
          {
            ...(await focusOf(generationId, question, subjects, scope, keep, topics)),
            used,
          },
          places,
        ),
      ),
    ),
  );
  const analysis = await analyze(focus);
  const budget = config.modeBudgets.analytical;
  const items = await figureItems(input, focus, analysis);
  const signals = await rankingSignals(input, focus, analysis);
  // Tests and docs are part of a structure; vendored, generated and minified code is not
  // (as stored), unless the question asks about it.
  const structureTopics = await retrievalTopics(input, {
    tests: true,
    docs: true,
    thirdParty: topics.thirdParty,
  });
  const ranked = demoteAuxiliary(fuseSignals(signals.lists), [], structureTopics).filter((r) => {
    const path = r.candidate.symbol?.path ?? r.candidate.chunk?.path ?? null;
    return (
      path !== null && keep(path) && (inScope(path, scope) || analysis.symbols.some((s) => s.path === path))
    );
  });
  const fileLists = await fileSignals(input, focus, analysis, signals);
  // Structure covers every file of the scope; code asked about is source unless the question says otherwise.
  const rankedFiles = fuseFiles(
    fileLists,
    [],
    30,
    signals.topical ? await retrievalTopics(input, topics) : structureTopics,
  ).filter((f) => keep(f) && (inScope(f, scope) || analysis.files.includes(f)));
  const figureFiles = [...new Set(analysis.files)].filter((f) => keep(f));
  items.push(
    ...(await packCandidates(input, ranked, Math.min(budget.source, config.initialRetrievalBudget), {
      maxItems: 8,
      perItemTokens: 350,
    })),
  );
  // Documentation only for an overview of the whole repository: a scoped answer keeps to its scope.
  if (!scope && focus.asks.includes("overview") && focus.symbols.length === 0) {
    items.push(
      ...(await docsItems(input, `${question} architecture design`, {
        budget: budget.docs,
        used: items.reduce((n, i) => n + i.tokens, 0),
        limit: 2,
        reason: "architecture documentation",
      })),
    );
  }
  return {
    items,
    diagram: analysis.diagram,
    rankedFiles: analysis.report
      ? rankedFiles
      : figureOrder(rankedFiles, figureFiles, analysis.leadFiles ?? (analysis.ranksFiles ? LISTED_LEAD : 1)),
    signals: signalFiles(fileLists),
    rankedSymbols: figureFirst(
      ranked.flatMap((r) => (r.candidate.symbol ? [r.candidate.symbol.qualifiedId] : [])),
      analysis,
    ).slice(0, 50),
  };
}

/** How many of the figure's symbols lead the ranking. */
const FIGURE_HEAD = 3;

/**
 * The figure asked for leads the symbols: its first ones (the subject and its callers, a
 * ranking's top) before code that only shares the question's words. An overview's
 * symbols are examples, not the answer, and keep their fused places.
 */
function figureFirst(ids: string[], analysis: Analysis): string[] {
  if (analysis.report) return ids;
  const present = new Set(ids);
  const head = analysis.symbols
    .slice(0, analysis.leadSymbols ?? FIGURE_HEAD)
    .map((s) => s.qualifiedId)
    .filter((id) => present.has(id));
  return [...new Set([...head, ...ids])];
}

/** The ranked files whose order the figure decides. */
const FIGURE_ORDERED = 5;
/** How many of a ranked list of files (the most imported, a part's dependencies) lead. */
const LISTED_LEAD = 3;

/**
 * The files in the figure's own order: its first file (the most imported; the busiest
 * callers' file) leads — the first three when the figure is itself a ranked list of files —
 * and the figure's files among the first five keep the order the figure gives them. The
 * fused ranking still decides which other files make the first five — a question's words
 * find what a figure of calls misses — only not their order.
 */
function figureOrder(ranked: string[], figure: string[], leading: number): string[] {
  const rank = new Map(figure.map((f, i) => [f, i]));
  const present = new Set(ranked);
  const lead = figure.slice(0, leading).filter((f) => present.has(f));
  const list = [...new Set([...lead, ...ranked])];
  const top = list.slice(0, FIGURE_ORDERED);
  const ordered = top
    .filter((f) => rank.has(f))
    .sort((a, b) => (rank.get(a) as number) - (rank.get(b) as number));
  let next = 0;
  return [...top.map((f) => (rank.has(f) ? (ordered[next++] as string) : f)), ...list.slice(FIGURE_ORDERED)];
}

/** The structure item (its first line, `Answer:`, the figure with its citations), then the scope's wiki page. */
async function figureItems(input: RetrievalInput, focus: Focus, analysis: Analysis): Promise<ContextItem[]> {
  const budget = input.config.modeBudgets.analytical;
  const text = [`Answer: ${analysis.answer}`, ...analysis.lines];
  if (analysis.report) text.push("", renderReport(analysis.report));
  const items: ContextItem[] = [
    syntheticItem(
      `structure:${focus.scope ?? "."}:${focus.asks.join(",")}`,
      "structure",
      `Structure of ${focus.scope ?? "the repository"}`,
      text.join("\n"),
      {
        reason: "structure computed from the code index",
        score: 1,
        pass: input.pass,
        maxTokens: Math.max(400, budget.issues),
      },
    ),
  ];
  const page = await scopePage(input, focus.scope, budget.docs);
  if (page) items.push(page);
  return items;
}

interface RankingSignals {
  lists: SignalList[];
  /** whether the question is about particular code rather than the structure itself */
  topical: boolean;
  /** whether the analysis named files or symbols */
  figured: boolean;
}

/**
 * The symbol signals: the figure, flagged findings, definitions named by the topic, BM25.
 * A question about particular code ("the dependency chain between the app loader and
 * the test runner") is answered by that code, whatever the structure says; a question
 * about the structure itself ("which modules are the hubs of src/config") by the figure.
 * When the question's subjects resolved, their figure still leads.
 */
async function rankingSignals(
  input: RetrievalInput,
  focus: Focus,
  analysis: Analysis,
): Promise<RankingSignals> {
  const { generationId, question } = input;
  const { scope, keep } = focus;
  const topicWords = topicalTerms(question, scope);
  const topical = topicWords.length >= TOPICAL_TERMS;
  const figured = analysis.files.length > 0 || analysis.symbols.length > 0;
  const [lexical, definitions] = await Promise.all([
    lexicalSearch(generationId, question, {
      limit: topical ? 40 : 10,
      kinds: ["code"],
      pathPrefix: scope ?? undefined,
      stems: topical,
    }),
    topical ? topicDefinitions(input, topicWords, questionTopics(question)) : [],
  ]);
  const flagged = analysis.report ? await flaggedSymbols(generationId, analysis.report) : [];
  const lists: SignalList[] = [
    {
      name: "figure",
      weight: 4,
      candidates: analysis.symbols.map((s) => symbolCandidate(s, "part of the figure asked for")),
    },
    { name: "flagged", weight: topical ? 0.6 : 1.5, candidates: flagged },
    {
      name: "definitions",
      weight: figured ? 1 : 2,
      candidates: definitions.filter(
        (c) => keep(c.symbol?.path ?? "") && inScope(c.symbol?.path ?? "", scope),
      ),
    },
    {
      name: "bm25",
      weight: topical ? (figured ? 2 : 4) : 0.5,
      candidates: lexical
        .filter((c) => keep(c.path))
        .map((c) => chunkCandidate(c, "matches the question's terms")),
    },
  ];
  return { lists, topical, figured };
}

/** The file signals: the figure's files first, the symbol signals, the whole-file lexical channel. */
async function fileSignals(
  input: RetrievalInput,
  focus: Focus,
  analysis: Analysis,
  { lists, topical, figured }: RankingSignals,
): Promise<SignalList[]> {
  return [
    {
      name: "figure-files",
      weight: 5,
      candidates: analysis.files.map((f) => fileCandidate(f, "part of the figure")),
    },
    ...lists,
    await wholeFileSignal(input, topical ? (figured ? 1.5 : 3) : 0.5, {
      pathPrefix: focus.scope ?? undefined,
    }),
  ];
}

/** Whether the question writes the path as where to look: "in src/", "under core", "within the lib folder". */
function writtenAsPlace(question: string, path: string | null): boolean {
  const last = path
    ?.split("/")
    .pop()
    ?.replace(/\.\w+$/, "");
  if (!last) return false;
  const escaped = last.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(
    `\\b(?:in|under|within|inside|across)\\s+(?:the\\s+)?[\\w./-]*\\b${escaped}\\b`,
    "i",
  ).test(question);
}

/**
 * The code a topic written in prose names ("which parts depend on the retry policy"): the
 * definitions whose names carry the question's topical words, as every other mode finds
 * what a question is about; structure words ("imported", "coupled") name no code.
 */
async function topicDefinitions(
  input: RetrievalInput,
  topicWords: string[],
  topics: { tests: boolean; docs: boolean },
): Promise<Candidate[]> {
  const words = new Set(topicWords);
  const terms = conceptTerms(input.question).filter((t) => words.has(t.word));
  return definitionCandidates(
    input.generationId,
    terms,
    TOPIC_DEFINITIONS,
    await retrievalTopics(input, topics),
  );
}

const TOPIC_DEFINITIONS = 25;

/** Content terms (lib/db/tokenize.ts contentTerms) that make a question about particular code. */
const TOPICAL_TERMS = 3;

/** Words that ask about structure (metrics, coupling, quality), whatever code they concern. */
const STRUCTURE_WORDS = new Set(
  `fan in out coupled coupling couple hub hubs hotspot hotspots cycle cycles cyclic import imports
  imported depend depends depended dependency dependencies dependent dependents quality complexity
  complex weak weakness weaknesses point points problem problems layering layer layers module modules
  package packages folder folders structure structured assess evaluate highest most least part parts
  respected concentrated central core smell smells debt risk risks maintainable`
    .split(/\s+/)
    .filter(Boolean),
);

/** The question's content terms that are neither structure words nor words of its scope's path. */
export function topicalTerms(question: string, scope: string | null): string[] {
  const scopeWords = new Set(queryTerms(scope ?? ""));
  return contentTerms(question).filter((t) => !STRUCTURE_WORDS.has(t) && !scopeWords.has(t));
}

function fileCandidate(path: string, reason: string) {
  return { key: path, symbol: null, chunk: fileChunk(path, 1), reason };
}

async function focusOf(
  generationId: string,
  question: string,
  subjects: Subject[],
  scope: string | null,
  keep: (path: string) => boolean,
  topics: { tests: boolean; docs: boolean },
): Promise<Focus> {
  const ids = subjects.flatMap((s) => (s.symbols[0] ? [s.symbols[0].qualifiedId] : []));
  const records = new Map((await symbolsByQualifiedIds(generationId, ids)).map((s) => [s.qualifiedId, s]));
  const symbols: Focus["symbols"] = [];
  const moduleFiles: string[] = [];
  const written = question.match(/\S*\/\S*/g) ?? [];
  const outsidePaths = question.replace(/\S*\/\S*/g, " ");
  for (const s of subjects) {
    // A word read only inside a path ("src/_pytest/config") names that place, not a symbol.
    const name = s.mention.parts.at(-1) ?? s.mention.text;
    const inPath = written.some((p) => mentionedOutside(p, name));
    if (!s.path && inPath && !mentionedOutside(outsidePaths, name)) continue;
    const symbol = s.symbols[0] ? records.get(s.symbols[0].qualifiedId) : undefined;
    // "The connectionpool module": a file of that stem, not the class named like it.
    if (s.mention.noun === "module" && s.mention.parts.length === 1 && symbol?.kind !== "module") {
      const file = await fileWithStem(generationId, name, keep);
      if (file) {
        moduleFiles.push(file);
        continue;
      }
    }
    // A name that is also the scope's folder or file names the scope, not a symbol.
    if (!symbol || symbols.some((x) => x.symbol.qualifiedId === symbol.qualifiedId)) continue;
    symbols.push({ symbol, label: symbol.qualifiedName });
  }
  // "An Error that carries a path (Error::from_path)": a type named beside one of its own
  // members is where that member is, not a second subject.
  const members = symbols.filter(
    (x) => !symbols.some((m) => m !== x && m.symbol.qualifiedName.startsWith(`${x.symbol.qualifiedName}.`)),
  );
  // A file name written with its extension ("shop/pricing.py?") names that file, not a library function.
  const paths = subjects.flatMap((s) => (s.path ? [s.path] : []));
  const external = subjects.flatMap((s) =>
    s.mention.kind === "symbol" &&
    s.symbols.length === 0 &&
    !s.path &&
    !paths.some((p) => p.endsWith(s.mention.text.replace(/[?!.,:;]+$/, "")))
      ? [s.mention.parts.at(-1) ?? ""]
      : [],
  );
  const files = [...subjects.flatMap((s) => (s.path && !s.folder ? [s.path] : [])), ...moduleFiles];
  const folders = subjects.flatMap((s) => (s.path && s.folder ? [s.path] : []));
  const left = [
    topics.tests ? null : "tests",
    topics.docs ? null : "examples, docs",
    "vendored and generated code",
  ].filter(Boolean);
  return {
    question,
    generationId,
    scope,
    asks: analyticalAsks(question),
    symbols: members,
    files: [...new Set(files)],
    folders: [...new Set(folders)],
    external: [...new Set(external.filter(Boolean))],
    keep,
    keepName: (name) => topics.tests || !isTestName(name),
    leftOut: `${left.join(", ")} left out`,
    used: null,
  };
}

/** Asks that stand beside a cycle check as figures of their own. */
const SECOND_ASKS: AnalyticalAsk[] = [
  "callers",
  "dependencies",
  "importers",
  "most-imported",
  "fan-in",
  "fan-out",
];

/**
 * A question asking for cycles and one more figure ("which files does the authenticator
 * depend on, and is there any circular require?") is answered with both, the cycles first.
 */
async function withSecondAsk(f: Focus, first: Analysis): Promise<Analysis> {
  const rest = f.asks.filter((a) => SECOND_ASKS.includes(a));
  if (rest.length === 0) return first;
  // The pair named for the cycle check is not what the second figure is about.
  const parts = f.unpaired ? await withFileByStem({ ...f, ...f.unpaired, unpaired: undefined }) : f;
  const second = await analyze({ ...parts, asks: rest });
  return {
    answer: `${first.answer} ${second.answer}`,
    lines: [...first.lines, ...second.lines],
    files: [...new Set([...first.files, ...second.files])],
    symbols: [...first.symbols, ...second.symbols],
    diagram: first.diagram ?? second.diagram,
    report: second.report,
  };
}

function mentionedOutside(text: string, mention: string): boolean {
  const escaped = mention.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?:^|[^\\w$])${escaped}(?![\\w$])`, "i").test(text);
}

/** The analysis the question asks for, most specific first. */
async function analyze(f: Focus): Promise<Analysis> {
  const has = (...asks: AnalyticalAsk[]) => asks.some((a) => f.asks.includes(a));
  // An assessment, or several figures of a scope at once ("coupling, cycles and hotspots").
  const broad = has("overview") || f.asks.filter((a) => SCOPE_ASKS.includes(a)).length >= 2;
  if (has("cycles") && (f.files.length >= 2 || f.symbols.length >= 2 || !broad))
    return withSecondAsk(f, await cycles(f));
  if ((has("importers") || asksImportersOf(f.question)) && f.used) return importersOf(f, f.used);
  if (asksCensus(f.question) && f.symbols.length === 0) return census(f);
  if (broad && f.symbols.length === 0 && f.files.length === 0) return overview(f);
  if (f.symbols.length >= 2 && has("most-imported", "fan-in")) return rankNamedSymbols(f);
  const own = has("dependencies") && asksOwnDependencies(f.question) ? ownPart(f) : null;
  if (own) return dependenciesOf(f, own);
  const first = f.symbols[0]?.symbol;
  // "Which classes implement X?": the types built on it, which no call reaches.
  const built = first && asksImplementers(f.question) ? await implementers(f, first) : null;
  if (built) return built;
  if (first && f.files.length === 0 && asksImportersOf(f.question)) return fileNeighbours(f, first.path);
  if (
    (f.symbols.length && !has("most-imported", "fan-out", "largest", "dead-code")) ||
    (f.symbols.length && has("callers", "dependencies"))
  )
    return symbolGraph(f, f.symbols[0] as Focus["symbols"][number]);
  if (has("callers", "dependencies") && f.external[0]) {
    // A field, option or hook list nothing calls: the functions writing it use it.
    const called = await externalCallers(f, f.external[0]);
    return called.symbols.length ? called : ((await namesUsed(f, f.external)) ?? called);
  }
  const into = f.folders[0] ?? f.files[0] ?? f.scope;
  if (has("callers") && into && f.files.length <= 1 && !has("most-imported", "fan-in"))
    return callersInto(f, into);
  if (f.files.length >= 2 && has("coupling", "layering", "dependencies"))
    return between(f, f.files[0] as string, f.files.slice(1));
  if (f.files.length === 1 && has("dependencies", "callers", "most-imported", "fan-in", "coupling")) {
    const file = f.files[0] as string;
    const neighbours = await fileNeighbours(f, file);
    // No file imports it (a Go or C# file, whose package or namespace is what is imported): the code calling into it depends on it.
    if (neighbours.lines[0]?.endsWith(": none") && !asksOwnDependencies(f.question)) {
      const called = await callersInto(f, file);
      if (called.symbols.length) return called;
    }
    return neighbours;
  }
  const parts = [...f.folders, ...f.files];
  if (parts.length >= 2 && has("layering", "coupling", "dependencies"))
    return between(f, parts[0] as string, parts.slice(1));
  if (has("largest")) return largest(f);
  if (has("dead-code")) return deadCode(f);
  if (has("fan-out")) return fanOut(f);
  if (has("most-imported", "fan-in")) return asksAboutFunctions(f.question) ? fanIn(f) : mostImported(f);
  if (has("least-imported")) return asksAboutFunctions(f.question) ? fanIn(f, true) : mostImported(f, true);
  return overview(f);
}

async function flaggedSymbols(generationId: string, report: StructureReport) {
  const ids = report.findings.flatMap((f) => (f.symbolId ? [f.symbolId] : []));
  const symbols = await symbolsByQualifiedIds(generationId, ids);
  const order = new Map(ids.map((id, i) => [id, i]));
  symbols.sort((a, b) => (order.get(a.qualifiedId) ?? 0) - (order.get(b.qualifiedId) ?? 0));
  return symbols.map((s) =>
    symbolCandidate(s, report.findings.find((f) => f.symbolId === s.qualifiedId)?.title ?? "flagged"),
  );
}

/** The wiki page of the scope (a folder or file), or the overview: what it is for, in brief. */
async function scopePage(
  input: RetrievalInput,
  scope: string | null,
  docsBudget: number,
): Promise<ContextItem | null> {
  const file = scope ? await getFile(input.generationId, scope) : null;
  const page = await getWikiPage(input.generationId, slugForPath(scope ?? "", file !== null));
  if (!page) return null;
  const item = textItem(
    {
      path: chunkPathOf(page),
      startLine: 1,
      endLine: file?.lines ?? 1,
      title: `Wiki: ${page.title}`,
      text: pageChunkText(page),
      kind: "wiki",
    },
    {
      reason: "the scope's wiki page",
      score: 0.9,
      origin: "initial",
      pass: input.pass,
      maxTokens: Math.max(200, Math.min(500, docsBudget || 300)),
    },
  );
  // A file page cites its file: never past the file's last line, however long the page.
  return file ? { ...item, endLine: Math.max(1, file.lines) } : item;
}
