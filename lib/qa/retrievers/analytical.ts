/**
 * Analytical retrieval: the figure the question asks for, computed from the index,
 * about what it names. The question's subjects and scope are resolved first
 * (subjects.ts; a path, "the backends package", a dotted module), then what it asks
 * (analytical-intent.ts) picks the analysis:
 * - a named symbol: its callers and callees up to two hops and their files
 *   (subject-graph.ts), not repository-wide statistics;
 * - a named file: what imports it and what it imports;
 * - cycles: import cycles among the named files or inside the scope (any language's
 *   imports, C and C++ includes too), or call cycles among named functions;
 * - two named parts: the imports and calls between them (coupling, layering);
 * - the most imported files, the functions with the highest fan-in or fan-out, the
 *   largest functions, the functions nothing calls — inside the scope;
 * - otherwise the scope's structure: modules, coupling, cycles, findings.
 * A question about the whole repository leaves tests, examples, docs, benchmarks,
 * vendored and generated code out of every figure unless it asks about them. The
 * context leads with a structure item whose first line, `Answer:`, states the figure
 * with its citations; the evidence engine opens with it and the body lists the rest.
 */
import "server-only";
import {
  callEdgesOfMany,
  symbolsByQualifiedIds,
  topSymbolsBy,
  type SymbolRecord,
} from "../../db/code-graph.ts";
import { getFile } from "../../db/index-reads.ts";
import {
  busiestSymbols,
  classesByMethods,
  crossFileCalls,
  largestFunctions,
  symbolsCallingName,
  uncalledFunctions,
} from "../../db/structure-queries.ts";
import { getWikiPage, pageChunkText } from "../../db/wiki-store.ts";
import { loadCallsTouching, loadImportEdges, loadWikiFiles } from "../../db/wiki-inputs.ts";
import { contentTerms, queryTerms } from "../../db/tokenize.ts";
import { lexicalSearch } from "../../search/hybrid.ts";
import { findCycles, cyclePath } from "../../wiki/graph.ts";
import { chunkPathOf } from "../../db/wiki-shapes.ts";
import { slugForPath } from "../../wiki/slugs.ts";
import { analyzeStructure, inScope, moduleOf, type StructureReport } from "../../wiki/structure.ts";
import { conceptTerms, questionTopics } from "../concepts.ts";
import { syntheticItem, textItem } from "../context.ts";
import { resolveSubjects, type Subject } from "../subjects.ts";
import { type ContextItem } from "../../answerers/contract.ts";
import type { DiagramPart } from "../types.ts";
import {
  analyticalAsks,
  asksAboutFunctions,
  ranksFolders,
  SCOPE_ASKS,
  type AnalyticalAsk,
} from "./analytical-intent.ts";
import { excludedByDefault, excludedByName, namedExclusions, resolveScope } from "./scope.ts";
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
import { renderSubjectGraph, subjectDiagram, subjectGraph } from "./subject-graph.ts";

export { pathScope, resolveScope } from "./scope.ts";

/** What an analysis found: the answer's first sentence, the evidence under it, what to rank and show. */
interface Analysis {
  answer: string;
  lines: string[];
  files: string[];
  symbols: SymbolRecord[];
  diagram: DiagramPart | null;
  /** the general report of the scope, when the analysis is about the scope as a whole */
  report: StructureReport | null;
}

interface Focus {
  question: string;
  generationId: string;
  scope: string | null;
  asks: AnalyticalAsk[];
  /** symbols the question names, best match of each */
  symbols: { symbol: SymbolRecord; label: string }[];
  /** files the question names (not folders) */
  files: string[];
  /** folders the question names */
  folders: string[];
  /** code-shaped names the index has no definition of (a library's API the code calls) */
  external: string[];
  keep: (path: string) => boolean;
  /** how the excluded code is described ("tests, examples and vendored code left out") */
  leftOut: string;
}

export async function retrieveAnalytical(input: RetrievalInput): Promise<RetrievalOutput> {
  const { generationId, config, question } = input;
  const topics = questionTopics(question);
  const exclusions = namedExclusions(question);
  const keep = (path: string) => !excludedByDefault(path, topics) && !excludedByName(path, exclusions);
  const [subjects, scope] = await Promise.all([
    resolveSubjects(generationId, question),
    resolveScope(generationId, question, input.scope),
  ]);
  const focus = await focusOf(generationId, question, subjects, scope, keep, topics);
  const analysis = await analyze(focus);
  const budget = config.modeBudgets.analytical;
  const text = [`Answer: ${analysis.answer}`, ...analysis.lines];
  if (analysis.report) text.push("", renderReport(analysis.report));
  const items: ContextItem[] = [
    syntheticItem(
      `structure:${scope ?? "."}:${focus.asks.join(",")}`,
      "structure",
      `Structure of ${scope ?? "the repository"}`,
      text.join("\n"),
      {
        reason: "structure computed from the code index",
        score: 1,
        pass: input.pass,
        maxTokens: Math.max(400, budget.issues),
      },
    ),
  ];
  const page = await scopePage(input, scope, budget.docs);
  if (page) items.push(page);

  // A question about particular code ("the dependency chain between the app loader and
  // the test runner") is answered by that code, whatever the structure says; a question
  // about the structure itself ("which modules are the hubs of src/config") by the figure.
  // When the question's subjects resolved, their figure still leads.
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
    topical ? topicDefinitions(input, topicWords, topics) : [],
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
  // Tests and docs are part of a structure; vendored, generated and minified code is not
  // (as stored), unless the question asks about it.
  const structureTopics = await retrievalTopics(input, {
    tests: true,
    docs: true,
    thirdParty: topics.thirdParty,
  });
  const ranked = demoteAuxiliary(fuseSignals(lists), [], structureTopics).filter((r) => {
    const path = r.candidate.symbol?.path ?? r.candidate.chunk?.path ?? null;
    return (
      path !== null && keep(path) && (inScope(path, scope) || analysis.symbols.some((s) => s.path === path))
    );
  });
  const fileLists: SignalList[] = [
    {
      name: "figure-files",
      weight: 5,
      candidates: analysis.files.map((f) => fileCandidate(f, "part of the figure")),
    },
    ...lists,
  ];
  fileLists.push(
    await wholeFileSignal(input, topical ? (figured ? 1.5 : 3) : 0.5, { pathPrefix: scope ?? undefined }),
  );
  // Structure covers every file of the scope; code asked about is source unless the question says otherwise.
  const rankedFiles = fuseFiles(
    fileLists,
    [],
    30,
    topical ? await retrievalTopics(input, topics) : structureTopics,
  ).filter((f) => keep(f) && (inScope(f, scope) || analysis.files.includes(f)));
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
    rankedFiles,
    signals: signalFiles(fileLists),
    rankedSymbols: ranked
      .flatMap((r) => (r.candidate.symbol ? [r.candidate.symbol.qualifiedId] : []))
      .slice(0, 50),
  };
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
  for (const s of subjects) {
    const symbol = s.symbols[0] ? records.get(s.symbols[0].qualifiedId) : undefined;
    // A name that is also the scope's folder or file names the scope, not a symbol.
    if (!symbol || symbols.some((x) => x.symbol.qualifiedId === symbol.qualifiedId)) continue;
    symbols.push({ symbol, label: symbol.qualifiedName });
  }
  const external = subjects.flatMap((s) =>
    s.mention.kind === "symbol" && s.symbols.length === 0 && !s.path ? [s.mention.parts.at(-1) ?? ""] : [],
  );
  const files = subjects.flatMap((s) => (s.path && !s.folder ? [s.path] : []));
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
    symbols,
    files: [...new Set(files)],
    folders: [...new Set(folders)],
    external: [...new Set(external.filter(Boolean))],
    keep,
    leftOut: `${left.join(", ")} left out`,
  };
}

/** The analysis the question asks for, most specific first. */
async function analyze(f: Focus): Promise<Analysis> {
  const has = (...asks: AnalyticalAsk[]) => asks.some((a) => f.asks.includes(a));
  // An assessment, or several figures of a scope at once ("coupling, cycles and hotspots").
  const broad = has("overview") || f.asks.filter((a) => SCOPE_ASKS.includes(a)).length >= 2;
  if (has("cycles") && (f.files.length >= 2 || f.symbols.length >= 2 || !broad)) return cycles(f);
  if (broad && f.symbols.length === 0 && f.files.length === 0) return overview(f);
  if (f.symbols.length >= 2 && has("most-imported", "fan-in")) return rankNamedSymbols(f);
  if (
    (f.symbols.length && !has("most-imported", "fan-out", "largest", "dead-code")) ||
    (f.symbols.length && has("callers", "dependencies"))
  )
    return symbolGraph(f, f.symbols[0] as Focus["symbols"][number]);
  if (has("callers", "dependencies") && f.external[0]) return externalCallers(f, f.external[0]);
  const into = f.folders[0] ?? f.files[0] ?? f.scope;
  if (has("callers") && into && f.files.length <= 1) return callersInto(f, into);
  if (f.files.length >= 2 && has("coupling", "layering", "dependencies"))
    return between(f, f.files[0] as string, f.files.slice(1));
  if (f.files.length === 1 && has("dependencies", "callers", "most-imported", "fan-in", "coupling"))
    return fileNeighbours(f, f.files[0] as string);
  const parts = [...f.folders, ...f.files];
  if (parts.length >= 2 && has("layering", "coupling", "dependencies"))
    return between(f, parts[0] as string, parts.slice(1));
  if (has("largest")) return largest(f);
  if (has("dead-code")) return deadCode(f);
  if (has("fan-out")) return fanOut(f);
  if (has("most-imported", "fan-in")) return asksAboutFunctions(f.question) ? fanIn(f) : mostImported(f);
  return overview(f);
}

// ------------------------------------------------------------------ the analyses

function cite(s: SymbolRecord): string {
  return `${s.path}:${s.startLine}-${s.endLine}`;
}

/** A symbol named, then located right after its name (how citations are checked). */
function named(s: SymbolRecord): string {
  return `${code(s.qualifiedName)} (${cite(s)})`;
}

function code(text: string): string {
  return `\`${text.replace(/`/g, "")}\``;
}

function where(f: Focus): string {
  return f.scope ? code(f.scope) : "the repository";
}

function joinWords(items: string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** The question's own word for an import: C and C++ `#include`, Ruby and Node `require`. */
function importWord(question: string): { verb: string; past: string } {
  if (/\binclud/i.test(question)) return { verb: "include", past: "included" };
  if (/\brequir/i.test(question)) return { verb: "require", past: "required" };
  return { verb: "import", past: "imported" };
}

/**
 * How a file is cited in a figure: by its most-called symbol (what the others use of it,
 * a span a reader can read), else as the whole file.
 */
async function fileAnchors(
  generationId: string,
  paths: string[],
  lines: Map<string, number>,
): Promise<(path: string) => string> {
  const busiest = await busiestSymbols(generationId, paths);
  return (path) => {
    const s = busiest.get(path);
    return s && s.endLine - s.startLine < 150
      ? `most used: ${code(s.qualifiedName)}, ${cite(s)}`
      : `${path}:1-${lines.get(path) ?? 1}`;
  };
}

async function fileLines(generationId: string, paths: string[]): Promise<Map<string, number>> {
  const rows = await loadWikiFiles(generationId, { paths });
  return new Map(rows.map((r) => [r.path, Math.max(1, r.lines)]));
}

async function symbolGraph(f: Focus, target: Focus["symbols"][number]): Promise<Analysis> {
  const g = await subjectGraph(f.generationId, target.symbol, f.keep);
  const label = target.label;
  const direct = g.callers.filter((c) => c.depth === 1);
  const further = g.callers.filter((c) => c.depth === 2);
  const callees = g.callees.filter((c) => c.depth === 1);
  const named = (list: typeof direct, n: number) =>
    list.slice(0, n).map((c) => `${code(c.symbol.qualifiedName)} (${cite(c.symbol)})`);
  const sentences: string[] = [];
  const asksCallees = /\bwhat (?:does|do) .{1,60}\b(?:call|depend on|use)\b/i.test(f.question);
  if (direct.length === 0) {
    sentences.push(
      `Nothing in ${where(f)} calls ${code(label)} (${cite(target.symbol)}) through a resolved call (${f.leftOut}).`,
    );
  } else {
    const files = g.callerFiles;
    sentences.push(
      `${direct.length} function${direct.length === 1 ? "" : "s"} in ${files.length} file${files.length === 1 ? "" : "s"} call${direct.length === 1 ? "s" : ""} ${code(label)} (${cite(target.symbol)}) directly${further.length ? ` and ${further.length} more call${further.length === 1 ? "s" : ""} those` : ""}: ${joinWords(named(direct, 3))}${direct.length > 3 ? ` and ${direct.length - 3} more` : ""}.`,
    );
  }
  if (callees.length && (asksCallees || f.asks.includes("dependencies")))
    sentences.push(
      `It calls ${callees.length} function${callees.length === 1 ? "" : "s"} outside itself, among them ${joinWords(named(callees, 3))}.`,
    );
  if (f.asks.includes("coupling") || /depend on each other|how do (?:they|those)/i.test(f.question)) {
    sentences.push(
      g.fileImports.length
        ? `Those files import each other ${g.fileImports.reduce((n, e) => n + e.count, 0)} times, most ${code(g.fileImports[0]?.from ?? "")} → ${code(g.fileImports[0]?.to ?? "")} (${g.fileImports[0]?.count}).`
        : "Those files do not import each other.",
    );
  }
  return {
    answer: sentences.join(" "),
    lines: [renderSubjectGraph(g, label)],
    files: [target.symbol.path, ...g.callerFiles.map((x) => x.path), ...callees.map((c) => c.symbol.path)],
    symbols: [target.symbol, ...direct.map((c) => c.symbol), ...callees.slice(0, 4).map((c) => c.symbol)],
    diagram: subjectDiagram(g, label),
    report: null,
  };
}

/** Callers grouped by file, busiest first, with the imports among those files. */
async function callerFiles(
  generationId: string,
  callers: { path: string }[],
  extra: string[],
): Promise<{
  files: { path: string; callers: number }[];
  imports: { from: string; to: string; count: number }[];
}> {
  const byFile = new Map<string, number>();
  for (const c of callers) byFile.set(c.path, (byFile.get(c.path) ?? 0) + 1);
  const files = [...byFile]
    .map(([path, n]) => ({ path, callers: n }))
    .sort((a, b) => b.callers - a.callers || a.path.localeCompare(b.path));
  const set = new Set([...files.map((x) => x.path), ...extra]);
  const counts = new Map<string, { from: string; to: string; count: number }>();
  for (const e of await loadImportEdges(generationId, { from: [...set] })) {
    if (!set.has(e.dstPath) || e.srcPath === e.dstPath) continue;
    const key = `${e.srcPath}>${e.dstPath}`;
    const entry = counts.get(key) ?? { from: e.srcPath, to: e.dstPath, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  return { files, imports: [...counts.values()].sort((a, b) => b.count - a.count) };
}

function importsSentence(imports: { from: string; to: string; count: number }[]): string {
  const first = imports[0];
  return first
    ? `Those files import each other ${imports.reduce((n, e) => n + e.count, 0)} times, most ${code(first.from)} → ${code(first.to)} (${first.count}).`
    : "Those files do not import each other.";
}

/** Who calls a name the repository does not define (a library's function it uses). */
async function externalCallers(f: Focus, name: string): Promise<Analysis> {
  const callers = (await symbolsCallingName(f.generationId, name))
    .filter((s) => f.keep(s.path) && inScope(s.path, f.scope))
    .sort((a, b) => a.path.localeCompare(b.path) || a.startLine - b.startLine);
  const { files, imports } = await callerFiles(f.generationId, callers, []);
  const answer = callers.length
    ? `${callers.length} function${callers.length === 1 ? "" : "s"} in ${files.length} file${files.length === 1 ? "" : "s"} call ${code(name)}, which the repository does not define: ${joinWords(callers.slice(0, 3).map((s) => `${code(s.qualifiedName)} (${cite(s)})`))}${callers.length > 3 ? ` and ${callers.length - 3} more` : ""}. ${importsSentence(imports)}`
    : `Nothing in ${where(f)} calls ${code(name)} (${f.leftOut}).`;
  return {
    answer,
    lines: [
      `Callers of ${name} (not defined in the repository): ${callers.length} in ${files.length} files`,
      `Caller files: ${files
        .slice(0, 10)
        .map((x) => `${x.path} (${x.callers})`)
        .join(", ")}`,
      ...callers.slice(0, 14).map((s) => `- caller ${named(s)}`),
      `Imports among these files: ${imports.map((e) => `${e.from} → ${e.to} (${e.count})`).join(", ") || "none"}`,
    ],
    files: files.map((x) => x.path),
    symbols: callers.slice(0, 8),
    diagram: null,
    report: null,
  };
}

/** Who calls into a folder or file from outside it, and which of its files they reach most. */
async function callersInto(f: Focus, part: string): Promise<Analysis> {
  const wiki = await loadWikiFiles(f.generationId);
  const lines = new Map(wiki.map((w) => [w.path, Math.max(1, w.lines)]));
  const inside = wiki.map((w) => w.path).filter((p) => inScope(p, part));
  const calls = (await loadCallsTouching(f.generationId, inside)).filter(
    (c) => inScope(c.dstPath, part) && !inScope(c.srcPath, part) && f.keep(c.srcPath),
  );
  const callerIds = [...new Set(calls.map((c) => c.srcId))];
  const callers = await symbolsByQualifiedIds(f.generationId, callerIds.slice(0, 200));
  const { files, imports } = await callerFiles(f.generationId, callers, []);
  const reached = new Map<string, number>();
  for (const c of calls) reached.set(c.dstPath, (reached.get(c.dstPath) ?? 0) + 1);
  const targets = [...reached].sort((a, b) => b[1] - a[1]);
  const busiest = files[0];
  const firstCaller = callers.find((c) => c.path === busiest?.path);
  const anchor = await fileAnchors(
    f.generationId,
    targets.slice(0, 3).map(([p]) => p),
    lines,
  );
  const answer = callers.length
    ? `${callers.length} function${callers.length === 1 ? "" : "s"} in ${files.length} file${files.length === 1 ? "" : "s"} outside ${code(part)} call into it, most from ${code(busiest?.path ?? "")} (${busiest?.callers}${firstCaller ? `, e.g. ${code(firstCaller.qualifiedName)} ${cite(firstCaller)}` : ""}); the calls reach ${joinWords(targets.slice(0, 3).map(([p, n]) => `${code(p)} (${n}; ${anchor(p)})`))}. ${importsSentence(imports)}`
    : `Nothing outside ${code(part)} calls into it through a resolved call (${f.leftOut}).`;
  return {
    answer,
    lines: [
      `Callers into ${part} from outside it: ${callers.length} functions in ${files.length} files`,
      `Caller files: ${files
        .slice(0, 10)
        .map((x) => `${x.path} (${x.callers})`)
        .join(", ")}`,
      `Files of ${part} they reach: ${targets
        .slice(0, 8)
        .map(([p, n]) => `${p} (${n})`)
        .join(", ")}`,
      ...callers.slice(0, 12).map((s) => `- caller ${named(s)}`),
    ],
    files: [...targets.slice(0, 3).map(([p]) => p), ...files.map((x) => x.path)],
    symbols: callers.slice(0, 8),
    diagram: importDiagram(
      `Calls into ${part}`,
      [...targets.slice(0, 4).map(([p]) => p), ...files.slice(0, 8).map((x) => x.path)],
      imports.map((e) => ({ srcPath: e.from, dstPath: e.to })),
      lines,
      [],
    ),
    report: null,
  };
}

async function fileNeighbours(f: Focus, file: string): Promise<Analysis> {
  const imports = (await loadImportEdges(f.generationId, { touching: [file] })).filter(
    (e) => f.keep(e.srcPath) && f.keep(e.dstPath),
  );
  const importers = [...new Set(imports.filter((e) => e.dstPath === file).map((e) => e.srcPath))].sort();
  const imported = [...new Set(imports.filter((e) => e.srcPath === file).map((e) => e.dstPath))].sort();
  const lines = await fileLines(f.generationId, [file, ...importers, ...imported]);
  const anchor = await fileAnchors(f.generationId, [file], lines);
  const fileCite = (p: string) => `${code(p)} (${anchor(p)})`;
  const word = importWord(f.question);
  const answer =
    `${fileCite(file)} is ${word.past} by ${importers.length} file${importers.length === 1 ? "" : "s"}` +
    `${importers.length ? ` (${joinWords(importers.slice(0, 4).map(code))}${importers.length > 4 ? ` and ${importers.length - 4} more` : ""})` : ""}` +
    ` and ${word.verb}s ${imported.length} of the repository's files${imported.length ? ` (${joinWords(imported.slice(0, 4).map(code))}${imported.length > 4 ? ` and ${imported.length - 4} more` : ""})` : ""}` +
    `${importers.length === 0 ? `: nothing depends on it through ${word.verb}s` : imported.length === 0 ? ": it is a leaf" : ""} (${f.leftOut}).`;
  return {
    answer,
    lines: [
      `Importers of ${file}: ${importers.map((p) => `${p} [${p}:1-${lines.get(p) ?? 1}]`).join(", ") || "none"}`,
      `Imported by ${file}: ${imported.map((p) => `${p} [${p}:1-${lines.get(p) ?? 1}]`).join(", ") || "none"}`,
    ],
    files: [file, ...importers, ...imported],
    symbols: [],
    diagram: importDiagram(`Imports of ${file}`, [file, ...importers, ...imported], imports, lines, [file]),
    report: null,
  };
}

async function cycles(f: Focus): Promise<Analysis> {
  // Call cycles among named functions, when the question names functions and no files.
  if (f.symbols.length >= 2 && f.files.length === 0 && /\bcall/i.test(f.question)) return callCycles(f);
  const wiki = await loadWikiFiles(f.generationId);
  const typeOnly = new Map(wiki.map((w) => [w.path, new Set(w.facts.typeOnlyImports)]));
  const imports = (await loadImportEdges(f.generationId)).filter(
    (e) => !typeOnly.get(e.srcPath)?.has(e.line) && f.keep(e.srcPath) && f.keep(e.dstPath),
  );
  const edges = imports.map((e) => ({ from: e.srcPath, to: e.dstPath }));
  const lines = new Map(wiki.map((w) => [w.path, Math.max(1, w.lines)]));
  const named = f.files.length >= 2 ? f.files : null;
  const inArea = (p: string) => (named ? true : inScope(p, f.scope));
  const areaEdges = edges.filter((e) => inArea(e.from) && inArea(e.to) && e.from !== e.to);
  const components = findCycles([...new Set(areaEdges.flatMap((e) => [e.from, e.to]))], areaEdges).filter(
    (c) => !named || named.filter((n) => c.includes(n)).length >= 2,
  );
  const area = named ? joinWords(named.map(code)) : where(f);
  const loops = components.map((c) => {
    const path = named ? shortestLoop(c, areaEdges, named) : cyclePath(c, areaEdges);
    return { files: c.length, path };
  });
  const loopText = (path: string[]) => [...path, path[0] as string].map(code).join(" → ");
  const anchor = await fileAnchors(f.generationId, loops[0]?.path ?? [], lines);
  const word = importWord(f.question);
  const answer = loops.length
    ? `${loops.length === 1 ? `One ${word.verb} cycle` : `${loops.length} ${word.verb} cycles`} ${named ? "among" : "in"} ${area}: ${loopText(loops[0]?.path ?? [])}${loops[0] && loops[0].files > (loops[0].path.length ?? 0) ? ` (one loop through ${loops[0].files} files that ${word.verb} each other)` : ""} (${(loops[0]?.path ?? []).map(anchor).join("; ")}).`
    : `No ${word.verb} cycle ${named ? "among" : "in"} ${area}: ${named ? "none of these files reaches another and is reached back" : `no file ${word.verb}s one that ${word.verb}s it back, directly or through others`} (${f.leftOut}).`;
  const members = [...new Set(loops.flatMap((l) => l.path))];
  return {
    answer,
    lines: [
      `Import cycles ${named ? `among ${named.join(", ")}` : `in ${f.scope ?? "the repository"}`}: ${loops.length}`,
      ...loops
        .slice(0, 8)
        .map(
          (l) =>
            `- ${l.path.join(" → ")} → ${l.path[0]} (${l.files} files in the cycle) ${l.path.map((p) => `[${p}:1-${lines.get(p) ?? 1}]`).join(" ")}`,
        ),
    ],
    files: named ? [...named, ...members] : members,
    symbols: [],
    diagram: importDiagram(
      loops.length ? "Import cycles" : `Imports ${named ? "among the files asked about" : "in scope"}`,
      named ? [...named, ...members] : members,
      imports,
      lines,
      members,
    ),
    report: null,
  };
}

/** The shortest loop through the named files of a cycle (so the answer shows the files asked about). */
function shortestLoop(component: string[], edges: { from: string; to: string }[], named: string[]): string[] {
  const start = named.find((n) => component.includes(n)) ?? component[0] ?? "";
  return cyclePath([start, ...component.filter((c) => c !== start)], edges);
}

async function callCycles(f: Focus): Promise<Analysis> {
  const ids = f.symbols.map((s) => s.symbol.qualifiedId);
  const { callees } = await callEdgesOfMany(f.generationId, ids, { callees: 200, callers: 0 });
  const edges = [...callees.values()]
    .flat()
    .filter((e) => e.dstId && ids.includes(e.dstId))
    .map((e) => ({ from: e.srcId, to: e.dstId as string }));
  const components = findCycles(ids, edges);
  const byId = new Map(f.symbols.map((s) => [s.symbol.qualifiedId, s.symbol]));
  const names = (path: string[]) => path.map((id) => byId.get(id) as SymbolRecord);
  const loops = components.map((c) => names(cyclePath(c, edges)));
  const answer = loops.length
    ? `${loops.length === 1 ? "One call cycle" : `${loops.length} call cycles`} among them: ${[...(loops[0] ?? []), loops[0]?.[0] as SymbolRecord].map((s) => code(s.qualifiedName)).join(" → ")} (${(loops[0] ?? []).map(cite).join(", ")}).`
    : `No call cycle among ${joinWords(f.symbols.map((s) => code(s.label)))}: none of them calls back into one that calls it (${f.symbols.map((s) => cite(s.symbol)).join(", ")}).`;
  return {
    answer,
    lines: edges.map((e) => `- ${byId.get(e.from)?.qualifiedName} calls ${byId.get(e.to)?.qualifiedName}`),
    files: f.symbols.map((s) => s.symbol.path),
    symbols: f.symbols.map((s) => s.symbol),
    diagram: null,
    report: null,
  };
}

async function rankNamedSymbols(f: Focus): Promise<Analysis> {
  const ranked = [...f.symbols].sort((a, b) => b.symbol.fanIn - a.symbol.fanIn);
  const answer = `Of those named, ${joinWords(ranked.map((s) => `${code(s.label)} has ${s.symbol.fanIn} caller${s.symbol.fanIn === 1 ? "" : "s"} (${cite(s.symbol)})`))}.`;
  return {
    answer,
    lines: ranked.map(
      (s) => `- ${s.label}: fan-in ${s.symbol.fanIn}, fan-out ${s.symbol.fanOut} [${cite(s.symbol)}]`,
    ),
    files: ranked.map((s) => s.symbol.path),
    symbols: ranked.map((s) => s.symbol),
    diagram: null,
    report: null,
  };
}

/** Imports and calls from one part (a file or folder) into the others, and back. */
async function between(f: Focus, from: string, others: string[]): Promise<Analysis> {
  const parts = [from, ...others];
  const wiki = await loadWikiFiles(f.generationId);
  const lines = new Map(wiki.map((w) => [w.path, Math.max(1, w.lines)]));
  const members = wiki.map((w) => w.path).filter((p) => parts.some((x) => inScope(p, x)) && f.keep(p));
  const [imports, calls] = await Promise.all([
    loadImportEdges(f.generationId, { touching: members }),
    loadCallsTouching(f.generationId, members),
  ]);
  const partOf = (p: string) => parts.find((x) => inScope(p, x)) ?? null;
  const crossing = (kind: "imports" | "calls", src: string, dst: string) => {
    const a = partOf(src);
    const b = partOf(dst);
    return a && b && a !== b && f.keep(src) && f.keep(dst) ? { kind, a, b, src, dst } : null;
  };
  const edges = [
    ...imports.map((e) => crossing("imports", e.srcPath, e.dstPath)),
    ...calls.map((c) => crossing("calls", c.srcPath, c.dstPath)),
  ].filter((e): e is NonNullable<typeof e> => e !== null);
  const count = (a: string, b: string, kind: "imports" | "calls") =>
    edges.filter((e) => e.a === a && e.b === b && e.kind === kind).length;
  const out = others.map((o) => ({
    to: o,
    imports: count(from, o, "imports"),
    calls: count(from, o, "calls"),
  }));
  const back = others.map((o) => ({
    from: o,
    imports: count(o, from, "imports"),
    calls: count(o, from, "calls"),
  }));
  const direction = (n: { imports: number; calls: number }) =>
    `${n.imports} import${n.imports === 1 ? "" : "s"} and ${n.calls} call${n.calls === 1 ? "" : "s"}`;
  const sentences = out.map((o, i) => {
    const b = back[i] as (typeof back)[number];
    return `${code(from)} → ${code(o.to)}: ${direction(o)}; ${code(o.to)} → ${code(from)}: ${direction(b)}`;
  });
  const fromAny = out.some((o) => o.imports + o.calls > 0);
  const layering = f.asks.includes("layering");
  const example = edges.find((e) => e.a === from);
  const answer = `${layering ? (fromAny ? `Yes: ${code(from)} reaches into ${joinWords(others.map(code))}. ` : `No: ${code(from)} never imports or calls ${joinWords(others.map(code))}. `) : ""}${sentences.join(". ")}${example ? ` (first: ${code(example.src)} → ${code(example.dst)}, ${example.src}:1-${lines.get(example.src) ?? 1})` : ""}.`;
  const crossingFiles = [...new Set(edges.flatMap((e) => [e.src, e.dst]))];
  return {
    answer,
    lines: [
      `Between ${parts.join(", ")} (${f.leftOut}):`,
      ...edges
        .slice(0, 20)
        .map((e) => `- ${e.kind}: ${e.src} → ${e.dst} [${e.src}:1-${lines.get(e.src) ?? 1}]`),
    ],
    files: [...parts.filter((p) => lines.has(p)), ...crossingFiles],
    symbols: [],
    diagram: importDiagram(
      `Imports between ${parts.join(", ")}`,
      crossingFiles.slice(0, 12),
      imports,
      lines,
      [],
    ),
    report: null,
  };
}

/**
 * The files (or folders, when the question asks about packages, folders or namespaces)
 * of the scope that the most other files depend on. A dependent imports the file or
 * calls into it: in Java, Go or C# a file uses its package's other files without
 * importing them, so imports alone would undercount.
 */
async function mostImported(f: Focus): Promise<Analysis> {
  const wiki = await loadWikiFiles(f.generationId);
  const lines = new Map(wiki.map((w) => [w.path, Math.max(1, w.lines)]));
  const typeOnly = new Map(wiki.map((w) => [w.path, new Set(w.facts.typeOnlyImports)]));
  const scoped = wiki
    .filter((w) => w.kind === "code" && f.keep(w.path) && inScope(w.path, f.scope))
    .map((w) => w.path);
  const [imports, calls] = await Promise.all([
    loadImportEdges(f.generationId, f.scope ? { touching: scoped } : "all"),
    f.scope ? loadCallsTouching(f.generationId, scoped) : crossFileCalls(f.generationId),
  ]);
  const folders = ranksFolders(f.question);
  const unit = (p: string) => (folders ? moduleOf(p) : p);
  const inside = new Set(scoped);
  const dependents = new Map<string, { importers: Set<string>; callers: Set<string> }>();
  const note = (src: string, dst: string, kind: "importers" | "callers") => {
    if (!inside.has(dst) || !f.keep(src) || unit(src) === unit(dst)) return;
    const entry = dependents.get(unit(dst)) ?? { importers: new Set(), callers: new Set() };
    entry[kind].add(unit(src));
    dependents.set(unit(dst), entry);
  };
  for (const e of imports) if (!typeOnly.get(e.srcPath)?.has(e.line)) note(e.srcPath, e.dstPath, "importers");
  for (const c of calls) note(c.srcPath, c.dstPath, "callers");
  // "Imported/included by the most" ranks by imports; "depended on", "used", "referenced" by any use.
  const byImports =
    /\b(?:import|includ|requir)\w*/i.test(f.question) && !/\b(?:depend|used|referenc)\w*/i.test(f.question);
  const ranked = [...dependents]
    .map(([name, d]) => ({
      name,
      importers: d.importers.size,
      users: new Set([...d.importers, ...d.callers]).size,
    }))
    .sort((a, b) =>
      byImports
        ? b.importers - a.importers || b.users - a.users || a.name.localeCompare(b.name)
        : b.users - a.users || b.importers - a.importers || a.name.localeCompare(b.name),
    )
    .slice(0, 8);
  // A folder is cited by its file the others use most (imports and calls from outside it).
  const fileOf = (name: string) => {
    if (!folders) return name;
    const counts = new Map<string, number>();
    for (const e of [...imports, ...calls])
      if (moduleOf(e.dstPath) === name && moduleOf(e.srcPath) !== name)
        counts.set(e.dstPath, (counts.get(e.dstPath) ?? 0) + 1);
    return (
      [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? scoped.find((p) => moduleOf(p) === name) ?? name
    );
  };
  const word = importWord(f.question);
  const kind = folders ? (/\bpackages?\b/i.test(f.question) ? "packages" : "folders") : "files";
  const count = (r: (typeof ranked)[number], first: boolean) =>
    r.users === r.importers || byImports
      ? `${first ? `${word.past} by ` : ""}${r.importers}${first ? ` other ${kind}` : ""}`
      : `${first ? "used by " : ""}${r.users}${first ? ` other ${kind}` : ""}${first ? `, ${r.importers} through ${word.verb}s` : ""}`;
  const top = ranked.slice(0, 5);
  const anchor = await fileAnchors(
    f.generationId,
    top.map((r) => fileOf(r.name)),
    lines,
  );
  const answer = top.length
    ? `${byImports ? `The most ${word.past} ${kind} in ${where(f)}` : `The ${kind} in ${where(f)} that the most others depend on`} (${f.leftOut}) are ${joinWords(
        top.map((r, i) => {
          const file = fileOf(r.name);
          return `${code(r.name)} (${count(r, i === 0)}; ${anchor(file)})`;
        }),
      )}.`
    : `No ${kind.replace(/s$/, "")} in ${where(f)} is ${word.past} or called by another (${f.leftOut}).`;
  const files = top.map((r) => fileOf(r.name));
  return {
    answer,
    lines: ranked.map((r) => {
      const file = fileOf(r.name);
      return `- ${r.name}: ${r.users} dependent ${kind} (${r.importers} ${word.verb} it) [${file}:1-${lines.get(file) ?? 1}]`;
    }),
    files,
    symbols: [],
    diagram: importDiagram(`Most depended-on ${kind}`, files, imports, lines, []),
    report: null,
  };
}

async function fanIn(f: Focus): Promise<Analysis> {
  const top = (await topSymbolsBy(f.generationId, "fanIn", { prefix: f.scope ?? undefined, limit: 60 }))
    .filter((s) => f.keep(s.path) && s.fanIn > 0)
    .slice(0, 8);
  const answer = top.length
    ? `The functions with the most callers in ${where(f)} (${f.leftOut}) are ${joinWords(top.slice(0, 4).map((s, i) => `${code(s.qualifiedName)} (${s.fanIn}${i === 0 ? " callers" : ""}; ${cite(s)})`))}.`
    : `No function in ${where(f)} is called through a resolved call.`;
  return {
    answer,
    lines: top.map((s) => `- ${named(s)}: fan-in ${s.fanIn}`),
    files: top.map((s) => s.path),
    symbols: top,
    diagram: null,
    report: null,
  };
}

async function fanOut(f: Focus): Promise<Analysis> {
  const top = (await topSymbolsBy(f.generationId, "fanOut", { prefix: f.scope ?? undefined, limit: 60 }))
    .filter((s) => f.keep(s.path) && s.fanOut > 0)
    .slice(0, 8);
  const answer = top.length
    ? `The highest fan-out in ${where(f)} (${f.leftOut}): ${joinWords(top.slice(0, 4).map((s, i) => `${code(s.qualifiedName)} (${s.fanOut}${i === 0 ? " callees" : ""}; ${cite(s)})`))}.`
    : `No function in ${where(f)} makes a resolved call.`;
  return {
    answer,
    lines: top.map((s) => `- ${named(s)}: fan-out ${s.fanOut}`),
    files: top.map((s) => s.path),
    symbols: top,
    diagram: null,
    report: null,
  };
}

async function largest(f: Focus): Promise<Analysis> {
  const prefix = f.scope ?? undefined;
  if (/\bclass(?:es)?\b|\bmethods\b/i.test(f.question) && !/\bfunctions?\b/i.test(f.question)) {
    const classes = (await classesByMethods(f.generationId, prefix))
      .filter((c) => f.keep(c.symbol.path))
      .slice(0, 6);
    return {
      answer: classes.length
        ? `The classes with the most methods in ${where(f)} are ${joinWords(classes.slice(0, 4).map((c, i) => `${code(c.symbol.qualifiedName)} (${c.methods}${i === 0 ? " methods" : ""}; ${cite(c.symbol)})`))}.`
        : `No class in ${where(f)} has methods in the index.`,
      lines: classes.map((c) => `- ${named(c.symbol)}: ${c.methods} methods`),
      files: classes.map((c) => c.symbol.path),
      symbols: classes.map((c) => c.symbol),
      diagram: null,
      report: null,
    };
  }
  const top = (await largestFunctions(f.generationId, prefix, 60)).filter((s) => f.keep(s.path)).slice(0, 8);
  const size = (s: SymbolRecord) => s.endLine - s.startLine + 1;
  return {
    answer: top.length
      ? `The largest functions in ${where(f)} (${f.leftOut}) are ${joinWords(top.slice(0, 4).map((s, i) => `${code(s.qualifiedName)} (${size(s)}${i === 0 ? " lines" : ""}; ${cite(s)})`))}.`
      : `No function in ${where(f)} is in the index.`,
    lines: top.map((s) => `- ${named(s)}: ${size(s)} lines, fan-out ${s.fanOut}`),
    files: top.map((s) => s.path),
    symbols: top,
    diagram: null,
    report: null,
  };
}

// Called by the runtime, a framework or a test runner, never by the code itself.
const IMPLICITLY_CALLED =
  /^(?:__\w+__|main|init|setup|teardown|run|handle|test\w*|Test\w*|constructor|initialize|new|default|render|toString|equals|hashCode|Dispose|ToString|Equals|GetHashCode|call|process|execute|invoke|apply)$/;

async function deadCode(f: Focus): Promise<Analysis> {
  const namedFiles = [...f.files];
  const uncalled = (await uncalledFunctions(f.generationId, f.scope ?? undefined))
    .filter(
      (s) =>
        f.keep(s.path) &&
        (namedFiles.length === 0 || namedFiles.includes(s.path)) &&
        !IMPLICITLY_CALLED.test(s.name) &&
        !/^@|route|app\.|register|fixture|override|property/i.test(s.decorators),
    )
    .sort((a, b) => b.endLine - b.startLine - (a.endLine - a.startLine));
  const area = namedFiles.length ? joinWords(namedFiles.map(code)) : where(f);
  const answer = uncalled.length
    ? `${uncalled.length} function${uncalled.length === 1 ? "" : "s"} in ${area} ${uncalled.length === 1 ? "has" : "have"} no resolved caller in the index, among them ${joinWords(uncalled.slice(0, 3).map((s) => `${code(s.qualifiedName)} (${cite(s)})`))}; calls by name from outside (a framework, dynamic dispatch, other packages) are not seen.`
    : `Every function in ${area} has a resolved caller in the index.`;
  return {
    answer,
    lines: uncalled.slice(0, 15).map((s) => `- ${named(s)}`),
    files: [...new Set(uncalled.slice(0, 10).map((s) => s.path))],
    symbols: uncalled.slice(0, 8),
    diagram: null,
    report: null,
  };
}

async function overview(f: Focus): Promise<Analysis> {
  const report = await analyzeStructure(f.generationId, f.scope, f.keep);
  const imported = report.topImported.slice(0, 3);
  const anchor = await fileAnchors(
    f.generationId,
    imported.map((t) => t.path),
    new Map(report.topImported.map((t) => [t.path, t.lines])),
  );
  const sentences = [
    `${f.scope ? code(f.scope) : "The repository"} (${f.leftOut}) spans ${report.modules.filter((m) => m.files > 0).length} folder${report.modules.length === 1 ? "" : "s"}`,
  ];
  if (imported.length)
    sentences[0] += `; the most depended-on files are ${joinWords(imported.map((t, i) => `${code(t.path)} (${t.importers}${i === 0 ? " importers" : ""}; ${anchor(t.path)})`))}`;
  const hub = report.topFanIn[0];
  if (hub)
    sentences[0] += `; the function with the most callers is ${code(hub.qualifiedName)} (${hub.fanIn}; ${cite(hub)})`;
  sentences[0] += ".";
  sentences.push(
    report.fileCycles.length
      ? `${report.fileCycles.length} import cycle${report.fileCycles.length === 1 ? "" : "s"}, e.g. ${[...(report.fileCycles[0]?.loop ?? []), report.fileCycles[0]?.loop[0] ?? ""].map(code).join(" → ")}.`
      : "No import cycle.",
  );
  const worst = report.findings.find((x) => x.severity === "high") ?? report.findings[0];
  if (worst?.path)
    sentences.push(
      `Most pressing finding: ${worst.title} (${worst.path}${worst.startLine ? `:${worst.startLine}-${worst.endLine}` : ""}).`,
    );
  return {
    answer: sentences.join(" "),
    lines: [],
    files: [
      ...report.topImported.slice(0, 5).map((t) => t.path),
      ...report.topFanIn.slice(0, 3).map((s) => s.path),
    ],
    symbols: [...report.topFanIn.slice(0, 3), ...report.topFanOut.slice(0, 2)],
    diagram: report.diagram,
    report,
  };
}

/** The files' imports among themselves, at most a dozen files, the highlighted ones outlined. */
function importDiagram(
  title: string,
  files: string[],
  imports: { srcPath: string; dstPath: string }[],
  lines: Map<string, number>,
  highlighted: string[],
): DiagramPart | null {
  const nodes = [...new Set(files)].slice(0, 12);
  if (nodes.length < 2) return null;
  const ids = new Map(nodes.map((p, i) => [p, `f${i}`]));
  const counts = new Map<string, number>();
  for (const e of imports) {
    if (!ids.has(e.srcPath) || !ids.has(e.dstPath) || e.srcPath === e.dstPath) continue;
    const key = `${ids.get(e.srcPath)} --> ${ids.get(e.dstPath)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const out = ["graph LR", ...nodes.map((p) => `  ${ids.get(p)}["${p.replace(/["<>]/g, "'")}"]`)];
  for (const [edge, n] of counts) out.push(`  ${edge.replace(" --> ", ` -->|${n}| `)}`);
  const marked = nodes.filter((p) => highlighted.includes(p)).map((p) => ids.get(p));
  if (marked.length)
    out.push("  classDef cycle stroke:#b42318,stroke-width:2px", `  class ${marked.join(",")} cycle`);
  return {
    kind: "dependencies",
    title,
    mermaid: out.join("\n"),
    nodes: nodes.map((p) => ({
      id: ids.get(p) as string,
      label: p,
      path: p,
      startLine: 1,
      endLine: lines.get(p) ?? 1,
    })),
  };
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

export function renderReport(report: StructureReport): string {
  const lines: string[] = [];
  lines.push(`Scope: ${report.scope ?? "the whole repository"}`);
  if (report.topImported.length)
    lines.push(
      "Most imported files: " +
        report.topImported
          .slice(0, 6)
          .map((f) => `${f.path} (${f.importers} importers) [${f.path}:1-${f.lines}]`)
          .join(", "),
    );
  lines.push(`Modules (${report.modules.length}):`);
  for (const m of report.modules.slice(0, 12))
    lines.push(`- ${m.name}: ${m.files} files, imported by ${m.fanIn} modules, imports ${m.fanOut}`);
  if (report.moduleEdges.length) {
    lines.push("Module dependencies (count of file imports):");
    for (const e of report.moduleEdges.slice(0, 15)) lines.push(`- ${e.from} → ${e.to} (${e.count})`);
  }
  if (report.boundary) {
    const b = report.boundary;
    const others = (list: { module: string; edges: number }[]) =>
      list.length
        ? list
            .slice(0, 6)
            .map((d) => `${d.module} (${d.edges})`)
            .join(", ")
        : "none";
    lines.push(
      `Boundary of ${b.scope} (${b.files} files): ${b.importsIn} imports and ${b.callsIn} calls come in, ${b.importsOut} imports and ${b.callsOut} calls go out`,
    );
    lines.push(`- depended on by: ${others(b.dependents)}`);
    lines.push(`- depends on: ${others(b.dependencies)}`);
  }
  if (report.coupling.length) {
    lines.push(
      "Coupling between modules (afferent = modules depending on it, efferent = modules it depends on):",
    );
    for (const c of report.coupling.slice(0, 10))
      lines.push(
        `- ${c.module}: afferent ${c.afferent}, efferent ${c.efferent}, instability ${c.instability}, calls in ${c.callsIn}, calls out ${c.callsOut}`,
      );
  }
  const cycles = [
    ...report.cycles.map((c) => c.join(" ↔ ")),
    ...report.fileCycles.map(
      (c) => `${[...c.loop, c.loop[0]].join(" → ")}${c.files > c.loop.length ? ` (${c.files} files)` : ""}`,
    ),
  ];
  lines.push(cycles.length ? `Cycles: ${cycles.slice(0, 6).join("; ")}` : "Cycles: none found");
  lines.push(
    "Highest fan-out: " +
      report.topFanOut
        .slice(0, 5)
        .map((s) => `${s.qualifiedName} (${s.fanOut}) [${s.path}:${s.startLine}-${s.endLine}]`)
        .join(", "),
  );
  lines.push(
    "Highest fan-in: " +
      report.topFanIn
        .slice(0, 5)
        .map((s) => `${s.qualifiedName} (${s.fanIn}) [${s.path}:${s.startLine}-${s.endLine}]`)
        .join(", "),
  );
  if (report.findings.length) {
    const counts = report.findingCounts.map((c) => `${c.count} ${c.severity} ${c.category}`).join(", ");
    lines.push(`Findings (issues store${counts ? `: ${counts}` : ""}), high severity first:`);
    for (const f of report.findings.slice(0, 12)) {
      lines.push(
        `- [${f.severity}] ${f.category}: ${f.title}${f.path ? ` [${f.path}${f.startLine ? `:${f.startLine}-${f.endLine}` : ""}]` : ""}`,
      );
    }
  } else {
    lines.push("Findings: none above the thresholds");
  }
  return lines.join("\n");
}
