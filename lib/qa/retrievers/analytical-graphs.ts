/**
 * Analyses about named code: a symbol's callers and callees, what calls into a part, a
 * file's neighbours, import and call cycles among named files or in a scope, named symbols
 * ranked, and the imports and calls between two parts.
 */
import "server-only";
import { callEdgesOfMany, symbolsByQualifiedIds, type SymbolRecord } from "../../db/code-graph.ts";
import { symbolsCallingNames } from "../../db/structure-queries.ts";
import { splitIdentifier } from "../../db/tokenize.ts";
import { loadCallsTouching, loadImportEdges, loadWikiFiles } from "../../db/wiki-inputs.ts";
import { findCycles, cyclePath } from "../../wiki/graph.ts";
import { inScope, moduleOf } from "../../wiki/structure.ts";
import { asksConstruction, ranksFolders } from "./analytical-intent.ts";
import { renderSubjectGraph, subjectDiagram, subjectGraph, type SubjectGraph } from "./subject-graph.ts";
import { namespaceCallEdges } from "./analytical-dependencies.ts";
import {
  cite,
  code,
  fileAnchors,
  fileLines,
  importDiagram,
  importWord,
  joinWords,
  named,
  where,
  type Analysis,
  type Focus,
} from "./analytical-focus.ts";

export async function symbolGraph(f: Focus, target: Focus["symbols"][number]): Promise<Analysis> {
  const creation = asksConstruction(f.question);
  const g = askedKindFirst(
    await subjectGraph(f.generationId, target.symbol, f.keep, creation, f.keepName),
    f.question,
  );
  const verb = creation ? { one: "creates", many: "create" } : { one: "calls", many: "call" };
  const label = target.label;
  const direct = g.callers.filter((c) => c.depth === 1);
  const further = g.callers.filter((c) => c.depth === 2);
  const callees = g.callees.filter((c) => c.depth === 1);
  const named = (list: typeof direct, n: number, at = (c: (typeof direct)[number]) => cite(c.symbol)) =>
    list.slice(0, n).map((c) => `${code(c.symbol.qualifiedName)} (${at(c)})`);
  const sentences: string[] = [];
  const asksCallees = ASKS_CALLEES.test(f.question);
  if (direct.length === 0) {
    sentences.push(
      `Nothing in ${where(f)} ${verb.one} ${subjectRef(g, label)} through a resolved call (${f.leftOut}).`,
    );
  } else {
    const files = g.callerFiles;
    sentences.push(
      `${direct.length} function${direct.length === 1 ? "" : "s"} in ${files.length} file${files.length === 1 ? "" : "s"} ${direct.length === 1 ? verb.one : verb.many} ${subjectRef(g, label)} ${g.byName ? "by name (calls the index resolves to no other definition)" : "directly"}${further.length ? ` and ${further.length} more call${further.length === 1 ? "s" : ""} those` : ""}: ${joinWords(named(direct, 3, citeAtCall))}${direct.length > 3 ? ` and ${direct.length - 3} more` : ""}.`,
    );
  }
  // Asked what it calls and not who calls it ("what does parse_args call?"), its callees are the figure and lead.
  const calleesFirst = asksCallees && (!f.asks.includes("callers") || !ASKS_CALLERS.test(f.question));
  // "Who calls X, and in which files are they?", "which functions create one, in which files?":
  // the callers and where they are are the list asked for, not the subject the question names
  // (one it only describes is part of the answer, and leads; asked only "who calls X?", the
  // subject keeps its place first).
  const listsCallers =
    !calleesFirst &&
    !target.described &&
    direct.length > 0 &&
    listsCallersOf(f.question) &&
    ASKS_FILES.test(f.question);
  const spread = byFileFirst(direct).map((c) => c.symbol);
  const further2 = g.callees.filter((c) => c.depth === 2);
  // "Who calls X, and in which files are they?": the callers' files are the files asked for.
  const callerFilesFirst = !asksCallees && direct.length > 0 && ASKS_FILES.test(f.question);
  const self = `${code(label)} (${citeSubject(g.subject, callees.slice(0, 3))})`;
  if (calleesFirst)
    sentences.unshift(
      callees.length
        ? `${self} calls ${callees.length} function${callees.length === 1 ? "" : "s"} outside itself: ${joinWords(named(callees, 3))}${callees.length > 3 ? ` and ${callees.length - 3} more` : ""}.${further2.length ? ` Through those it reaches ${further2.length} more, among them ${joinWords(named(further2, 3))}.` : ""}`
        : `${self} calls no function outside itself that the index resolves.`,
    );
  else if (callees.length && (asksCallees || f.asks.includes("dependencies")))
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
    files: graphFiles(g, callees, asksCallees, callerFilesFirst),
    ...(callerFilesFirst ? { leadFiles: Math.min(MAX_LEAD_FILES, g.callerFiles.length) } : {}),
    ...(listsCallers ? { leadSymbols: Math.min(LISTED_CALLERS, direct.length) + 1 } : {}),
    symbols: listsCallers
      ? // The callers are the list asked for (one of each file first); the subject follows them.
        [
          ...spread.slice(0, LISTED_CALLERS),
          target.symbol,
          ...spread.slice(LISTED_CALLERS),
          ...g.used.slice(0, 2).map((u) => u.symbol),
          ...further.slice(0, 3).map((c) => c.symbol),
          ...callees.slice(0, 4).map((c) => c.symbol),
        ]
      : // What it is used for, then who uses it: both are the answer.
        [
          target.symbol,
          ...g.used.slice(0, 1).map((u) => u.symbol),
          ...direct.slice(0, 3).map((c) => c.symbol),
          ...g.used.slice(1, 3).map((u) => u.symbol),
          ...direct.slice(3).map((c) => c.symbol),
          ...further.slice(0, 3).map((c) => c.symbol),
          ...callees.slice(0, 4).map((c) => c.symbol),
        ],
    diagram: subjectDiagram(g, label, { calleesFirst }),
    report: null,
  };
}

/**
 * "Which middlewares call X?": when the kind of caller asked for is also the name of a
 * folder (`middleware/`, `handlers/`, `commands/`), the callers in such a folder come
 * first, and their files — the ones the question asks to name — before the others.
 */
export function askedKindFirst(g: SubjectGraph, question: string): SubjectGraph {
  const plural = /\b(?:which|what)\s+(?:[\w-]+\s+){0,2}?([a-z][\w-]{2,}s)\b/i
    .exec(question)?.[1]
    ?.toLowerCase();
  if (!plural) return g;
  const names = new Set([plural, plural.slice(0, -1), plural.replace(/es$/, "")]);
  const under = (path: string) =>
    path
      .split("/")
      .slice(0, -1)
      .some((seg) => names.has(seg.toLowerCase()));
  const inFolder = g.callerFiles.filter((x) => under(x.path));
  if (inFolder.length === 0 || inFolder.length === g.callerFiles.length) return g;
  const first = <T>(list: T[], path: (x: T) => string) => [
    ...list.filter((x) => under(path(x))),
    ...list.filter((x) => !under(path(x))),
  ];
  const callers = [
    ...first(
      g.callers.filter((c) => c.depth === 1),
      (c) => c.symbol.path,
    ),
    ...g.callers.filter((c) => c.depth !== 1),
  ];
  return { ...g, callers, callerFiles: first(g.callerFiles, (x) => x.path) };
}

/**
 * The figure's files in the order the question asks for them: asked who calls the subject,
 * the callers' files, most calls first, with the subject's own file after the busiest of
 * them (where the figure is anchored, not what was asked for); asked what the subject
 * calls, its file, then its callees' files.
 */
/** "What does X call", "which functions does X call or use": the callees are asked for. */
const ASKS_CALLEES =
  /\b(?:what|which)\b(?:\s+[\w-]+){0,3}?\s+(?:does|do|did)\s+.{1,60}?\b(?:call|depend on|use|invoke)\b/i;
/** Words that ask for callers even beside "what does X call": "who calls", "its callers", "called by". */
const ASKS_CALLERS = /\bcallers?\b|\bwho (?:calls|uses|invokes)\b|\bcalled (?:by|from)\b/i;

/** A question asking for the files its figure is in: "in which files", "which files", "where are they". */
const ASKS_FILES =
  /\bwhich files?\b|\bwhat files\b|\bwhere are (?:they|those|these)\b|\bfiles? (?:are|is) (?:they|it|those) in\b/i;

/**
 * A question asking for the list of callers or creators ("who calls X", "which functions
 * create one", "which middlewares reach into X") rather than how a subject and its users
 * fit together ("which parts call into X, and how do they depend on each other").
 */
export function listsCallersOf(question: string): boolean {
  if (/\bdepend on each other\b|\bhow do (?:they|those|these)\b|\bcall(?:s|ing)? into\b/i.test(question))
    return false;
  return /\bwho (?:else )?(?:calls|uses|invokes|creates|constructs|builds|instantiates)\b|\bcalled (?:by|from)\b|\b(?:list|name) (?:the |all |every )?callers\b|\b(?:which|what) (?:[\w-]+ ){0,2}?(?:functions?|methods?|callers|call sites|places|code paths?|constructors?|routines|middlewares?|handlers?|hooks?|commands?|classes|components|parts|modules|files)\b[^?]{0,60}?\b(?:calls?|create|creates|construct|constructs|instantiate|build|builds|uses?|invokes?|reach(?:es)?|funnel|go(?:es)? through)\b/i.test(
    question,
  );
}

/** How many callers lead the symbols when the question lists them. */
const LISTED_CALLERS = 5;

/** Callers with one of each file first (busiest file first), then the rest in their order. */
function byFileFirst<T extends { symbol: { path: string } }>(list: T[]): T[] {
  const seen = new Set<string>();
  const first: T[] = [];
  const rest: T[] = [];
  for (const c of list) {
    if (seen.has(c.symbol.path)) rest.push(c);
    else {
      seen.add(c.symbol.path);
      first.push(c);
    }
  }
  return [...first, ...rest];
}

/** The most caller files that lead the ranking when the question asks for them. */
const MAX_LEAD_FILES = 5;

function graphFiles(
  g: SubjectGraph,
  callees: SubjectGraph["callees"],
  asksCallees: boolean,
  callerFilesFirst = false,
): string[] {
  const subject = g.subject.path;
  const callers = g.callerFiles.map((x) => x.path);
  const called = callees.map((c) => c.symbol.path);
  const order =
    asksCallees || callers.length === 0
      ? [subject, ...called, ...callers]
      : callerFilesFirst
        ? [...callers, subject, ...called]
        : [...callers.slice(0, 1), subject, ...callers.slice(1), ...called];
  return [...new Set(order)];
}

/**
 * The subject as the figure names it: a function with its span; a class too long to read
 * at once by the members the others call most (what they use it for).
 */
function subjectRef(g: SubjectGraph, label: string): string {
  const s = g.subject;
  if (s.endLine - s.startLine < LONG_SPAN || g.used.length === 0)
    return `${code(label)} (${citeSubject(s, [])})`;
  const most = g.used
    .slice(0, 2)
    .map(
      (u) =>
        `${code(u.symbol.qualifiedName)} (${cite(u.symbol)}, ${u.calls} call${u.calls === 1 ? "" : "s"})`,
    );
  return `${code(label)} (${s.path}), mostly ${joinWords(most)},`;
}

/** A span longer than this is cited by its parts. */
const LONG_SPAN = 150;

/**
 * The subject cited whole, or when longer than LONG_SPAN by the lines that make the calls
 * named beside it (from the first to the last, when they are fewer than LONG_SPAN lines
 * apart; else around the first), or with none named by its definition's first lines.
 */
function citeSubject(s: SymbolRecord, named: SubjectGraph["callees"]): string {
  if (s.endLine - s.startLine < LONG_SPAN) return cite(s);
  const lines = named.flatMap((c) =>
    c.line && c.line >= s.startLine && c.line <= s.endLine ? [c.line] : [],
  );
  if (lines.length === 0) return `${s.path}:${s.startLine}-${s.startLine + HEAD_LINES}`;
  const [first, last] = [Math.min(...lines), Math.max(...lines)];
  return last - first < LONG_SPAN
    ? `${s.path}:${first}-${last}`
    : `${s.path}:${Math.max(s.startLine, first - 2)}-${Math.min(s.endLine, first + 2)}`;
}

/** The lines of a long definition cited when no call in it is named: its signature and first statements. */
const HEAD_LINES = 5;

/** A caller cited whole, or when longer than LONG_SPAN, by the lines around its call. */
function citeAtCall(c: SubjectGraph["callers"][number]): string {
  const s = c.symbol;
  if (s.endLine - s.startLine < LONG_SPAN || !c.line || c.line < s.startLine || c.line > s.endLine)
    return cite(s);
  return `${s.path}:${Math.max(s.startLine, c.line - 2)}-${Math.min(s.endLine, c.line + 2)}`;
}

/** Callers grouped by file, busiest first, with the imports among those files. */
export async function callerFiles(
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
export async function externalCallers(f: Focus, name: string): Promise<Analysis> {
  // A variant the question names too ("directly or through the with-selector shim").
  const asked = new Set(f.question.toLowerCase().match(/[a-z0-9]+/g) ?? []);
  const variant = (called: string) =>
    called === name ||
    (called.startsWith(name) &&
      /^[A-Z_]/.test(called.slice(name.length)) &&
      splitIdentifier(called.slice(name.length)).every((w) => asked.has(w)));
  const callers = (await symbolsCallingNames(f.generationId, name, variant))
    .filter((s) => f.keep(s.path) && inScope(s.path, f.scope))
    .sort((a, b) => a.path.localeCompare(b.path) || a.startLine - b.startLine);
  const { files, imports } = await callerFiles(f.generationId, callers, []);
  const further = await upstreamOf(f, callers);
  const answer = callers.length
    ? `${callers.length} function${callers.length === 1 ? "" : "s"} in ${files.length} file${files.length === 1 ? "" : "s"} call ${code(name)}, which the repository does not define: ${joinWords(callers.slice(0, 3).map((s) => `${code(s.qualifiedName)} (${cite(s)})`))}${callers.length > 3 ? ` and ${callers.length - 3} more` : ""}.${further.length ? ` ${further.length} more call those: ${joinWords(further.slice(0, 3).map((s) => `${code(s.qualifiedName)} (${cite(s)})`))}.` : ""} ${importsSentence(imports)}`
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
      ...further.slice(0, 6).map((s) => `- 2 hops: ${named(s)}`),
      `Imports among these files: ${imports.map((e) => `${e.from} → ${e.to} (${e.count})`).join(", ") || "none"}`,
    ],
    files: [...files.map((x) => x.path), ...new Set(further.slice(0, 3).map((s) => s.path))],
    symbols: [...callers.slice(0, 8), ...further.slice(0, 3)],
    diagram: null,
    report: null,
  };
}

/** The functions calling the callers (one hop further up), most calls first. */
async function upstreamOf(f: Focus, callers: SymbolRecord[]): Promise<SymbolRecord[]> {
  const ids = new Set(callers.map((s) => s.qualifiedId));
  const edges = await callEdgesOfMany(f.generationId, [...ids].slice(0, 60), { callers: 12, callees: 0 });
  const up = byCount(
    [...edges.callers.values()]
      .flat()
      .filter((e) => !ids.has(e.srcId) && f.keep(e.srcPath) && inScope(e.srcPath, f.scope))
      .map((e) => e.srcId),
  );
  return inOrder(await symbolsByQualifiedIds(f.generationId, up.slice(0, 12)), up);
}

/** Ids by how often they occur, most first (ties in first-seen order). */
function byCount(ids: string[]): string[] {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}

function inOrder(symbols: SymbolRecord[], ids: string[]): SymbolRecord[] {
  const rank = new Map(ids.map((id, i) => [id, i]));
  return [...symbols].sort((a, b) => (rank.get(a.qualifiedId) ?? 0) - (rank.get(b.qualifiedId) ?? 0));
}

/** Who calls into a folder or file from outside it, and which of its files they reach most. */
export async function callersInto(f: Focus, part: string): Promise<Analysis> {
  const wiki = await loadWikiFiles(f.generationId);
  const lines = new Map(wiki.map((w) => [w.path, Math.max(1, w.lines)]));
  const inside = wiki.map((w) => w.path).filter((p) => inScope(p, part));
  const calls = (await loadCallsTouching(f.generationId, inside)).filter(
    (c) => inScope(c.dstPath, part) && !inScope(c.srcPath, part) && f.keep(c.srcPath),
  );
  // The busiest callers first, and the part's functions they call most: both are the answer.
  const callerIds = byCount(calls.map((c) => c.srcId));
  const calledIds = byCount(calls.map((c) => c.dstId));
  const [callerRows, calledRows] = await Promise.all([
    symbolsByQualifiedIds(f.generationId, callerIds.slice(0, 200)),
    symbolsByQualifiedIds(f.generationId, calledIds.slice(0, 3)),
  ]);
  const callers = inOrder(callerRows, callerIds);
  const called = inOrder(calledRows, calledIds);
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
    ? `${callers.length} function${callers.length === 1 ? "" : "s"} in ${files.length} file${files.length === 1 ? "" : "s"} outside ${code(part)} ${callers.length === 1 ? "calls" : "call"} into it, most from ${code(busiest?.path ?? "")} (${busiest?.callers}${firstCaller ? `, e.g. ${code(firstCaller.qualifiedName)} ${cite(firstCaller)}` : ""}); the calls reach ${joinWords(targets.slice(0, 3).map(([p, n]) => `${code(p)} (${n}; ${anchor(p)})`))}. ${importsSentence(imports)}`
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
    symbols: [...called, ...callers.slice(0, 8)],
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

export async function fileNeighbours(f: Focus, file: string): Promise<Analysis> {
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
    ranksFiles: true,
  };
}

export async function cycles(f: Focus): Promise<Analysis> {
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
  // C# files import namespaces, not files: their calls into each other are their dependencies.
  const viaCalls = await namespaceCallEdges(f, wiki, (p) =>
    named ? named.includes(p) : inScope(p, f.scope),
  );
  const areaEdges = [...edges, ...viaCalls].filter((e) => inArea(e.from) && inArea(e.to) && e.from !== e.to);
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
  const word = viaCalls.length ? { verb: "call", past: "called" } : importWord(f.question);
  const noun = viaCalls.length ? "dependency" : word.verb;
  const through = viaCalls.length ? " (through calls: C# `using`s name namespaces, not files)" : "";
  const answer = loops.length
    ? `${loops.length === 1 ? `One ${noun} cycle` : `${loops.length} ${noun} cycles`}${through} ${named ? "among" : "in"} ${area}: ${loopText(loops[0]?.path ?? [])}${loops[0] && loops[0].files > (loops[0].path.length ?? 0) ? ` (one loop through ${loops[0].files} files that ${word.verb} each other)` : ""} (${(loops[0]?.path ?? []).map(anchor).join("; ")}).`
    : `No ${noun} cycle ${named ? "among" : "in"} ${area}: ${named ? "none of these files reaches another and is reached back" : `no file ${word.verb}s one that ${word.verb}s it back, directly or through others`} (${f.leftOut}).${oneWay(imports, inArea, noun)}`;
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

/**
 * With no cycle, the imports that run one way, each cited at its line ("`src/lib.rs` →
 * `src/dent.rs` (src/lib.rs:112)"): the evidence a "no" rests on.
 */
function oneWay(
  imports: { srcPath: string; dstPath: string; line: number }[],
  inArea: (path: string) => boolean,
  noun: string,
): string {
  const seen = new Set<string>();
  const shown: string[] = [];
  let count = 0;
  for (const e of imports) {
    const key = `${e.srcPath}>${e.dstPath}`;
    if (e.srcPath === e.dstPath || !inArea(e.srcPath) || !inArea(e.dstPath) || seen.has(key)) continue;
    seen.add(key);
    count++;
    if (shown.length < ONE_WAY_SHOWN)
      shown.push(`${code(e.srcPath)} → ${code(e.dstPath)} (${e.srcPath}:${Math.max(1, e.line)})`);
  }
  if (count === 0) return "";
  return ` The ${count === 1 ? `one ${noun} among them runs` : `${count} ${noun}s among them run`} one way: ${joinWords(shown)}${count > shown.length ? ` and ${count - shown.length} more` : ""}.`;
}

const ONE_WAY_SHOWN = 3;

/** The shortest loop through the named files of a cycle (so the answer shows the files asked about). */
function shortestLoop(component: string[], edges: { from: string; to: string }[], named: string[]): string[] {
  const inside = named.filter((n) => component.includes(n));
  const start = inside[0] ?? component[0] ?? "";
  // Two named files in one cycle: the shortest way from the first to the second and back,
  // so the loop shown passes through both.
  const other = inside[1];
  if (other) {
    const within = new Set(component);
    const there = shortestPath(start, other, edges, within);
    const back = shortestPath(other, start, edges, within);
    if (there && back) return [...there.slice(0, -1), ...back.slice(0, -1)];
  }
  return cyclePath([start, ...component.filter((c) => c !== start)], edges);
}

/** The shortest chain of edges from one file to another inside a set of files (both ends included), or null. */
function shortestPath(
  from: string,
  to: string,
  edges: { from: string; to: string }[],
  within: Set<string>,
): string[] | null {
  const next = new Map<string, string[]>();
  for (const e of edges)
    if (within.has(e.from) && within.has(e.to)) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const previous = new Map<string, string>([[from, from]]);
  const queue = [from];
  while (queue.length) {
    const at = queue.shift() as string;
    if (at === to) break;
    for (const n of next.get(at) ?? [])
      if (!previous.has(n)) {
        previous.set(n, at);
        queue.push(n);
      }
  }
  if (!previous.has(to)) return null;
  const path = [to];
  while (path[0] !== from) path.unshift(previous.get(path[0] as string) as string);
  return path;
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

export async function rankNamedSymbols(f: Focus): Promise<Analysis> {
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
export async function between(f: Focus, from: string, others: string[]): Promise<Analysis> {
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
 * Who uses a named part most ("which modules import core/logx the most"): the files (or
 * folders, when the question asks about packages) outside it, ranked by their imports of
 * it, then their calls into it, each cited by its function that calls into it most.
 */
export async function importersOf(f: Focus, part: string): Promise<Analysis> {
  const wiki = await loadWikiFiles(f.generationId);
  const lines = new Map(wiki.map((w) => [w.path, Math.max(1, w.lines)]));
  const inside = wiki.map((w) => w.path).filter((p) => inScope(p, part));
  const from = (src: string) => !inScope(src, part) && f.keep(src) && inScope(src, f.scope);
  const [imports, calls] = await Promise.all([
    loadImportEdges(f.generationId, { touching: inside }),
    loadCallsTouching(f.generationId, inside),
  ]);
  const into = {
    imports: imports.filter((e) => inScope(e.dstPath, part) && from(e.srcPath)),
    calls: calls.filter((c) => inScope(c.dstPath, part) && from(c.srcPath)),
  };
  const folders = ranksFolders(f.question);
  const unit = (p: string) => (folders ? moduleOf(p) : p);
  const users = new Map<string, { imports: number; calls: number }>();
  const count = (p: string, kind: "imports" | "calls") => {
    const n = users.get(unit(p)) ?? { imports: 0, calls: 0 };
    n[kind]++;
    users.set(unit(p), n);
  };
  for (const e of into.imports) count(e.srcPath, "imports");
  for (const c of into.calls) count(c.srcPath, "calls");
  const ranked = [...users]
    .map(([name, n]) => ({ name, ...n }))
    .sort((a, b) => b.imports - a.imports || b.calls - a.calls || a.name.localeCompare(b.name));
  // Each user cited by its function calling into the part most; the part by what they call most.
  const callerIds = byCount(into.calls.map((c) => c.srcId));
  const calledIds = byCount(into.calls.map((c) => c.dstId));
  const [callerRows, calledRows] = await Promise.all([
    symbolsByQualifiedIds(f.generationId, callerIds.slice(0, 200)),
    symbolsByQualifiedIds(f.generationId, calledIds.slice(0, 3)),
  ]);
  const callers = inOrder(callerRows, callerIds);
  const called = inOrder(calledRows, calledIds);
  const fileOf = (name: string) =>
    folders ? (callers.find((c) => unit(c.path) === name)?.path ?? name) : name;
  const citeUser = (name: string) => {
    const s = callers.find((c) => unit(c.path) === name);
    return s ? `${code(s.qualifiedName)}, ${cite(s)}` : `${fileOf(name)}:1-${lines.get(fileOf(name)) ?? 1}`;
  };
  const word = importWord(f.question);
  const kind = folders ? (/\bpackages?\b/i.test(f.question) ? "packages" : "folders") : "files";
  const top = ranked.slice(0, 5);
  const answer = top.length
    ? `${ranked.length} ${ranked.length === 1 ? kind.replace(/s$/, "") : kind} outside ${code(part)} ${ranked.length === 1 ? `${word.verb}s or calls` : `${word.verb} or call`} it (${f.leftOut}); the most: ${joinWords(
        top.map(
          (r, i) =>
            `${code(r.name)} (${r.imports}${i === 0 ? ` ${word.verb}${r.imports === 1 ? "" : "s"}` : ""}, ${r.calls}${i === 0 ? ` call${r.calls === 1 ? "" : "s"}` : ""}; ${citeUser(r.name)})`,
        ),
      )}.${called[0] ? ` What they call most: ${joinWords(called.slice(0, 2).map((s) => `${code(s.qualifiedName)} (${cite(s)})`))}.` : ""}`
    : `Nothing outside ${code(part)} ${word.verb}s or calls it (${f.leftOut}).`;
  const files = top.map((r) => fileOf(r.name));
  return {
    answer,
    lines: [
      `Users of ${part} from outside it: ${ranked.length} ${kind}`,
      ...ranked
        .slice(0, 12)
        .map(
          (r) =>
            `- ${r.name}: ${r.imports} ${word.verb}${r.imports === 1 ? "" : "s"}, ${r.calls} call${r.calls === 1 ? "" : "s"}`,
        ),
      ...callers.slice(0, 10).map((s) => `- caller ${named(s)}`),
    ],
    // As for callers into a part: what of the part they use leads, then who uses it.
    files: [...called.slice(0, 1).map((s) => s.path), ...files, ...called.map((s) => s.path)],
    symbols: [
      ...called.slice(0, 1),
      ...callers.filter((c) => top.some((r) => r.name === unit(c.path))).slice(0, 6),
      ...called.slice(1),
    ],
    diagram: importDiagram(
      `Who ${word.verb}s ${part}`,
      [...files.slice(0, 9), ...new Set(called.map((s) => s.path))],
      into.imports,
      lines,
      [],
    ),
    report: null,
    ranksFiles: true,
  };
}
