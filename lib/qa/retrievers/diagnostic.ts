/**
 * Diagnostic retrieval: a symptom rarely reads like its cause, so start from error
 * anchors (stack frames, quoted messages, exception types, named code) in the code
 * index, walk callers backwards (mutators first: state that went wrong upstream),
 * and only then add lexical and vector evidence and a little documentation.
 */
import "server-only";
import {
  callEdgesOfMany,
  filesBySuffix,
  nameFrequencies,
  symbolsByName,
  symbolsByQualifiedIds,
  symbolsByQualifiedName,
  symbolsByQualifiedNameLoose,
  symbolsInFile,
  symbolsRaising,
  type ChunkHit,
  type SymbolRecord,
} from "../../db/code-graph.ts";
import { withoutEnvironment } from "../../search/anchors.ts";
import { normalizePath } from "../../search/written-paths.ts";
import { framesInnermostFirst, functionFrames } from "../../search/stack-frames.ts";
import { hybridSearch, lexicalSearch } from "../../search/hybrid.ts";
import { parseJsonList } from "../context.ts";
import { answeringCandidates, questionFocus } from "./answering.ts";
import { filesForModule, pathIndex } from "./file-index.ts";
import { conceptTerms } from "../concepts.ts";
import {
  chunkCandidate,
  definitionCandidates,
  docsItems,
  demoteAuxiliary,
  fuseSignals,
  lookupNames,
  packCandidates,
  fuseFiles,
  fileScores,
  fileChunk,
  signalFiles,
  wholeFileSignal,
  symbolCandidate,
  withFilePrior,
  auxiliaryFactor,
  retrievalTopics,
  type Candidate,
  type RetrievalInput,
  type RetrievalOutput,
  type SignalList,
} from "./shared.ts";
import {
  creditTestedFiles,
  literalCandidates,
  oneSlotEach,
  sourceFilesFirst,
  withPartnerFiles,
} from "./diagnostic-files.ts";
import { messageSignals } from "./diagnostic-messages.ts";
import { compilerSignal } from "./diagnostic-compiler.ts";
import { statusCandidates } from "./diagnostic-status.ts";
import { localeSignal } from "./locale-files.ts";
import { secondPlaces, withSecondPlaces, wordsOf } from "./diagnostic-deciders.ts";
import { guardingCallers } from "./diagnostic-callers.ts";
import { decidingSites, SITES_READ, withLeads } from "./diagnostic-leads.ts";
import { withEnclosers, withOptionDeciders } from "./diagnostic-deciding.ts";

/** Stack frames read from a report, and frames inside the repository used. */
const MAX_FRAMES_READ = 60;
const MAX_FRAMES_USED = 12;
const NO_TOPICS = { tests: false, docs: false };
/** The signals finding where a quoted message is written (its error string, template or words). */
const MESSAGE_LISTS = new Set(["messages", "inner-messages", "message-text"]);

/** Exception types so common that raising them says little about where a bug is. */
const COMMON_EXCEPTIONS = new Set([
  "Exception",
  "ValueError",
  "TypeError",
  "KeyError",
  "RuntimeError",
  "Error",
  "AttributeError",
  "IndexError",
  "AssertionError",
  "NotImplementedError",
  "runtime_error",
  "logic_error",
  "invalid_argument",
  "out_of_range",
  "exception",
]);

export async function retrieveDiagnostic(input: RetrievalInput): Promise<RetrievalOutput> {
  const { generationId, anchors, config } = input;
  // Tests, docs and examples are not where a fix goes; vendored, generated and minified files
  // (as stored) neither, unless the question names one.
  const topics = await retrievalTopics(input, NO_TOPICS);
  const namedPaths: string[] = [];
  const report = withoutEnvironment(input.question);
  const lists: SignalList[] = [
    ...(await frameSignals(input, topics, namedPaths)),
    ...(await messageSignals(input)),
    await compilerSignal(input),
    // 2e. An HTTP status the report speaks of, where code writes it.
    { name: "status", weight: 3, candidates: await statusCandidates(input, topics) },
    // 2c. Options and configuration keys the report names, where code writes them as literals.
    { name: "literals", weight: 3, candidates: await literalCandidates(input, topics) },
    ...(await exceptionSignals(input)),
    await namedSignal(input),
    await pathSignal(input, namedPaths),
    await localeSignal(input),
    ...(await textSignals(input, report, topics)),
  ];

  // 6a. The functions that answer inside the leading files: a report is fixed in the
  // function whose own lines carry it, wherever the lexical index ranked that function.
  const leadingFiles = fuseFiles(lists, namedPaths, 30, topics);
  const answering = await answeringCandidates(
    generationId,
    input.reader,
    leadingFiles,
    questionFocus(input.reader, report, anchors),
  );
  const fileLists = [...lists];
  const messagePlaces = lists
    .filter((l) => MESSAGE_LISTS.has(l.name))
    .flatMap((l) => l.candidates.flatMap((c) => [c.symbol ?? c.chunk].filter((p) => p !== null)));
  // The functions writing the quoted message, as the message signals found them.
  const writers = new Set(
    lists
      .filter((l) => MESSAGE_LISTS.has(l.name))
      .flatMap((l) => l.candidates.flatMap((c) => (c.symbol ? [c.symbol.qualifiedId] : []))),
  );
  lists.push({ name: "body", weight: 3, candidates: answering });

  let ranked = demoteAuxiliary(fuseSignals(lists), namedPaths, topics);
  await attachSymbols(
    generationId,
    ranked.map((r) => r.candidate),
  );

  if (config.features.useCallGraph && config.maxCallGraphHops > 0) {
    const callers = {
      name: "callers",
      weight: 0.5,
      candidates: await callerWalk(input, fileLists, namedPaths),
    };
    lists.push(callers);
    fileLists.push(callers);
    ranked = demoteAuxiliary(fuseSignals(lists), namedPaths, topics);
    await attachSymbols(
      generationId,
      ranked.map((r) => r.candidate),
    );
  }

  // 7b. What decides a named option: the code testing what its setter stores.
  if (config.features.useCallGraph) ranked = await withOptionDeciders(input, ranked, leadingFiles);

  // Whole files over source files only: a report's many words match change logs and
  // documentation best, and the fix is in the code.
  fileLists.push(await wholeFileSignal(input, 0.5, { query: report, kind: "code" }));
  const rankedFiles = sourceFilesFirst(
    await withPartnerFiles(
      input,
      creditTestedFiles(fileScores(fileLists, namedPaths, topics), await pathIndex(generationId), namedPaths),
      namedPaths,
    ),
    namedPaths,
    topics,
  );
  const rankedSymbols = await withWhatDecides(
    input,
    report,
    // Functions in the files that localize best first: the fix of a report is in its file.
    oneSlotEach(
      await withEnclosers(
        generationId,
        membersFirst(
          withFilePrior(ranked, rankedFiles).flatMap((r) => (r.candidate.symbol ? [r.candidate.symbol] : [])),
          answering.flatMap((c) => (c.symbol ? [c.symbol] : [])),
        ),
      ),
      writers,
    ),
  ).then((ids) => ids.slice(0, 50));

  const budget = config.modeBudgets.diagnostic;
  const source = Math.min(budget.source, config.initialRetrievalBudget);
  const items = await withLeads(
    input,
    await packCandidates(input, ranked, source),
    ranked,
    rankedSymbols,
    source,
    messagePlaces,
  );
  items.push(
    ...(await docsItems(input, report, {
      budget: budget.docs,
      used: items.reduce((n, i) => n + i.tokens, 0),
      limit: 3,
    })),
  );
  return {
    items,
    diagram: null,
    rankedFiles,
    signals: signalFiles(fileLists),
    rankedSymbols,
  };
}

/**
 * 8. What decided each leading site's report (its guard's callee, or the caller handling
 * it), and the caller under whose condition the site runs, right after it.
 */
async function withWhatDecides(input: RetrievalInput, report: string, ids: string[]): Promise<string[]> {
  const { generationId, config } = input;
  if (!config.features.useCallGraph || config.maxCallGraphHops === 0) return ids;
  const top = ids.slice(0, 3);
  const leading = await decidingSites(input, ids.slice(0, SITES_READ));
  const words = new Set(wordsOf(report));
  const places = await secondPlaces(generationId, input.reader, leading, {
    words,
    exceptionTypes: input.anchors.exceptionTypes.filter((t) => !COMMON_EXCEPTIONS.has(t)),
  });
  const taken = new Set([
    ...top,
    ...leading.map((s) => s.qualifiedId),
    ...places.map((p) => p.symbol.qualifiedId),
  ]);
  // Two places in all come up beside the sites: more would push the sites' neighbours in rank out.
  const room = 2 - places.length;
  const callers = await guardingCallers(generationId, input.reader, leading, words, taken, room);
  return withSecondPlaces(ids, [...places, ...callers]);
}

type Topics = Awaited<ReturnType<typeof retrievalTopics>>;

/**
 * 1. Stack frames that point into this repository, innermost first. Frames in the
 * standard library or third-party packages are skipped before any cap, so a deep
 * stack below the repository's own code (argparse → re → sre_parse) cannot crowd it out.
 * The paths the frames point at are added to `namedPaths`.
 */
async function frameSignals(
  input: RetrievalInput,
  topics: Topics,
  namedPaths: string[],
): Promise<SignalList[]> {
  const { generationId, anchors } = input;
  const frameCandidates: Candidate[] = [];
  let resolvedFrames = 0;
  for (const frame of framesInnermostFirst(anchors.stackFrames, input.question).slice(0, MAX_FRAMES_READ)) {
    if (resolvedFrames >= MAX_FRAMES_USED) break;
    const files = await filesOfFrame(generationId, frame.path);
    if (files.length === 0) continue;
    resolvedFrames++;
    namedPaths.push(...pointedAt(frame.path, files));
    for (const file of files) {
      const symbols = await symbolsInFile(generationId, file);
      const hit =
        symbols.find((s) => frame.func !== null && namesFunction(s, frame.func)) ??
        symbols.find(
          (s) =>
            frame.line !== null && s.startLine <= frame.line && s.endLine >= frame.line && s.kind !== "class",
        );
      const reason = `in the stack trace (${file}${frame.line ? `:${frame.line}` : ""})`;
      // A frame in module-level code, or in a built copy whose lines differ, still names its file.
      frameCandidates.push(hit ? symbolCandidate(hit, reason) : chunkCandidate(fileChunk(file), reason));
    }
  }
  // 1b. Frames naming a function without its file (a glog failure trace, gdb without debug
  // information): the function of the repository's own code each names, innermost first.
  const traced = new Set(frameCandidates.flatMap((c) => (c.symbol ? [c.symbol.qualifiedId] : [])));
  for (const func of functionFrames(input.question).slice(0, MAX_FRAMES_READ)) {
    if (resolvedFrames >= MAX_FRAMES_USED) break;
    const name = func.split(".").pop() ?? func;
    const hits = (await symbolsByName(generationId, name, 8)).filter(
      (s) => s.kind !== "class" && namesFunction(s, func) && !traced.has(s.qualifiedId),
    );
    // A name several unrelated functions share says nothing about which one ran.
    if (hits.length === 0 || hits.length > 2) continue;
    resolvedFrames++;
    for (const hit of hits) {
      traced.add(hit.qualifiedId);
      frameCandidates.push(symbolCandidate(hit, `in the stack trace (${func})`));
    }
  }
  // The innermost frame in the repository's own code is where the error surfaced: the
  // likeliest place of the fix, so it counts apart from the frames that merely passed
  // through. Vendored copies of other projects and tests are passed over, as the
  // standard library is: a fix goes into the code that called them wrongly.
  const errorSite = frameCandidates.find(
    (c) => auxiliaryFactor(c.symbol?.path ?? c.chunk?.path ?? "", topics) === 1,
  );
  return [
    { name: "stack", weight: 4, candidates: frameCandidates },
    { name: "error-site", weight: 4, candidates: errorSite ? [errorSite] : [] },
  ];
}

/** 3. Exception types raised (rarer types weigh more). */
async function exceptionSignals(input: RetrievalInput): Promise<SignalList[]> {
  const { generationId, anchors, config } = input;
  if (!config.features.useCodeIndex || !anchors.exceptionTypes.length) return [];
  const specific = anchors.exceptionTypes.filter((t) => !COMMON_EXCEPTIONS.has(t));
  const generic = anchors.exceptionTypes.filter((t) => COMMON_EXCEPTIONS.has(t));
  const raisers = await symbolsRaising(generationId, specific, 20);
  const lists: SignalList[] = [
    {
      name: "raises",
      weight: 3,
      candidates: raisers.map((s) =>
        symbolCandidate(s, `raises ${intersect(parseJsonList(s.raises), specific).join(", ")}`),
      ),
    },
  ];
  if (generic.length) {
    const genericRaisers = await symbolsRaising(generationId, generic, 40);
    lists.push({
      name: "raises-generic",
      weight: 0.5,
      candidates: genericRaisers.map((s) => symbolCandidate(s, `raises ${generic.join(", ")}`)),
    });
  }
  return lists;
}

/** 4. Code named in the question (weighted by how specific the name is). */
async function namedSignal(input: RetrievalInput): Promise<SignalList> {
  const { generationId, anchors } = input;
  const names = lookupNames(anchors);
  const frequencies = await nameFrequencies(
    generationId,
    names.filter((n) => !n.includes(".")),
  );
  const named: { s: SymbolRecord; weight: number; name: string }[] = [];
  for (const name of names) {
    const matches = name.includes(".")
      ? await symbolsByQualifiedName(generationId, name, 5).then(async (m) =>
          m.length ? m : symbolsByQualifiedNameLoose(generationId, name, 5),
        )
      : await symbolsByName(generationId, name, 8);
    const count = name.includes(".") ? matches.length : (frequencies.get(name) ?? matches.length);
    for (const s of matches) named.push({ s, weight: 1 / Math.max(1, count), name });
  }
  named.sort((a, b) => b.weight - a.weight);
  return {
    name: "named",
    weight: 3,
    candidates: named.map((n) => symbolCandidate(n.s, `named in the question (${n.name})`)),
  };
}

/**
 * 5. Paths named in the question. A bare file name that several files of the repository
 * share (`__init__.py`, `index.js`, `a.py` of a reproduction) names none of them.
 */
async function pathSignal(input: RetrievalInput, namedPaths: string[]): Promise<SignalList> {
  const { generationId, anchors } = input;
  const pathCandidates: Candidate[] = [];
  for (const p of anchors.paths.slice(0, 6)) {
    const bySuffix = await filesBySuffix(generationId, trimPath(p), 2);
    // A module path of the package itself (`require('dayjs/plugin/utc')`) names its source.
    const files = bySuffix.length ? bySuffix : filesForModule(await pathIndex(generationId), p);
    if (!trimPath(p).includes("/") && files.length > 1) continue;
    for (const file of files) {
      namedPaths.push(...pointedAt(p, [file]));
      const symbols = (await symbolsInFile(generationId, file)).filter((x) => !x.parentId).slice(0, 4);
      for (const s of symbols) pathCandidates.push(symbolCandidate(s, `in ${file}, named in the question`));
      // A file of module-level code (a plugin's default export) still counts as named.
      if (symbols.length === 0)
        pathCandidates.push(chunkCandidate(fileChunk(file), `${file}, named in the question`));
    }
  }
  return { name: "paths", weight: 2.5, candidates: pathCandidates };
}

/**
 * 6. Lexical evidence over code and file summaries, hybrid search, and definitions named
 * by the report's words, on the report without its environment dumps (their package
 * names lead to the version printer).
 */
async function textSignals(input: RetrievalInput, report: string, topics: Topics): Promise<SignalList[]> {
  const { generationId } = input;
  const lexical = await lexicalSearch(generationId, report, {
    limit: 80,
    kinds: ["code", "file"],
    stems: true,
  });
  const semantic = await hybridSearch(input.repositoryId, generationId, report, {
    limit: 10,
    kinds: ["code"],
  });
  return [
    {
      name: "bm25",
      weight: 2,
      candidates: lexical.slice(0, 30).map((c) => chunkCandidate(c, "matches the question's terms")),
    },
    // Files where many chunks match (the whole file is about the symptom), best chunk standing for the file.
    {
      name: "bm25-files",
      weight: 1.5,
      candidates: filesByChunkMass(lexical).map((c) => chunkCandidate(c, "many parts of the file match")),
    },
    {
      name: "semantic",
      weight: 0.8,
      candidates: semantic.map((c) => chunkCandidate(c, "similar to the question")),
    },
    // Code whose names carry the report's words (its title first): a recall path for reports
    // that describe behaviour without quoting the code.
    {
      name: "definitions",
      weight: 1.5,
      candidates: await definitionCandidates(generationId, conceptTerms(report), 20, topics),
    },
  ];
}

/**
 * 7. Walk callers backwards from the strongest error sites, mutators first. The sites
 * are those the report's own signals rank (what answers in a file is for ranking
 * functions, not for choosing where the walk starts).
 */
async function callerWalk(
  input: RetrievalInput,
  fileLists: SignalList[],
  namedPaths: string[],
): Promise<Candidate[]> {
  const { generationId, config } = input;
  const bySignals = demoteAuxiliary(fuseSignals(fileLists), namedPaths);
  await attachSymbols(
    generationId,
    bySignals.map((r) => r.candidate),
  );
  const sites = bySignals.filter((r) => r.candidate.symbol).slice(0, 3);
  const callerLists: Candidate[] = [];
  let frontier = sites.map((r) => r.candidate.symbol as SymbolRecord);
  const seen = new Set(frontier.map((s) => s.qualifiedId));
  for (let hop = 1; hop <= Math.min(config.maxCallGraphHops, 3) && frontier.length; hop++) {
    const next: SymbolRecord[] = [];
    // One read of the hop's callers and their symbols (not two per site); each site then
    // takes its own, in the order a read of its own gives, less those an earlier site took.
    const { callers: edgesTo } = await callEdgesOfMany(
      generationId,
      frontier.map((s) => s.qualifiedId),
      { callees: 0, callers: 20 },
    );
    const hopCallers = await symbolsByQualifiedIds(generationId, [
      ...new Set([...edgesTo.values()].flat().flatMap((e) => (seen.has(e.srcId) ? [] : [e.srcId]))),
    ]);
    for (const site of frontier) {
      const ids = new Set(
        (edgesTo.get(site.qualifiedId) ?? []).map((e) => e.srcId).filter((id) => !seen.has(id)),
      );
      const callers = hopCallers.filter((c) => ids.has(c.qualifiedId));
      const ordered = callers
        .sort((a, b) => mutationWeight(b, config) - mutationWeight(a, config))
        .slice(0, config.maxCallersPerHop);
      for (const c of ordered) {
        seen.add(c.qualifiedId);
        const mutates = parseJsonList(c.mutates);
        callerLists.push(
          symbolCandidate(
            c,
            `calls ${site.qualifiedName}${mutates.length ? ` and mutates ${mutates.slice(0, 3).join(", ")}` : ""}`,
          ),
        );
        next.push(c);
      }
    }
    frontier = next;
  }
  return callerLists;
}

/**
 * Ranked symbols at the function level: a class (or other container) gives its place to
 * its best-answering member when the answering functions of the leading files hold one,
 * and is left out when one of its members already ranks above it.
 */
function membersFirst(symbols: SymbolRecord[], answering: SymbolRecord[]): string[] {
  const out: string[] = [];
  const listed = new Set<string>();
  const push = (s: SymbolRecord) => {
    if (listed.has(s.qualifiedId)) return;
    listed.add(s.qualifiedId);
    out.push(s.qualifiedId);
  };
  const memberOf = (container: SymbolRecord) => (s: SymbolRecord) =>
    s.path === container.path && s.parentId === container.qualifiedName;
  for (const s of symbols) {
    const isMember = memberOf(s);
    if (symbols.some((m) => isMember(m) && listed.has(m.qualifiedId))) continue;
    const member = answering.find(isMember);
    push(member ?? s);
  }
  return out;
}

/** One chunk per file, files ordered by the summed BM25 of their matching chunks. */
function filesByChunkMass(hits: ChunkHit[]): ChunkHit[] {
  const byFile = new Map<string, { best: ChunkHit; mass: number }>();
  for (const h of hits) {
    const entry = byFile.get(h.path);
    if (!entry) byFile.set(h.path, { best: h, mass: h.score });
    else entry.mass += h.score;
  }
  return [...byFile.values()]
    .sort((a, b) => b.mass - a.mass)
    .map((e) => ({ ...e.best, title: `${e.best.path} (file)` }));
}

function mutationWeight(s: SymbolRecord, config: RetrievalInput["config"]): number {
  if (!config.prioritizeMutatingFunctions) return 0;
  return s.mutates === "[]" ? 0 : 1;
}

/**
 * Whether a symbol is the function a frame names (`Server.Start`, `Layer.on_event`,
 * `jq_next`): its qualified name ends with the name, or a bare name is its own.
 */
export function namesFunction(symbol: Pick<SymbolRecord, "name" | "qualifiedName">, func: string): boolean {
  if (symbol.qualifiedName === func || symbol.qualifiedName.endsWith(`.${func}`)) return true;
  return !func.includes(".") && symbol.name === func;
}

/** Fills in the symbol of chunk candidates that belong to one (so source can be fetched). */
export async function attachSymbols(generationId: string, candidates: Candidate[]): Promise<void> {
  const missing = candidates
    .filter((c) => !c.symbol && c.chunk?.symbolId)
    .map((c) => c.chunk?.symbolId as string);
  if (missing.length === 0) return;
  const symbols = await symbolsByQualifiedIds(generationId, [...new Set(missing)]);
  const byId = new Map(symbols.map((s) => [s.qualifiedId, s]));
  for (const c of candidates) {
    if (!c.symbol && c.chunk?.symbolId) c.symbol = byId.get(c.chunk.symbolId) ?? null;
  }
}

/**
 * The files a written path points at, as far as they say what the question is about. A
 * bare file name (`test_x.py` from a user's own traceback) is too weak to say the
 * question is about this repository's tests; so is a short path that only matched the
 * end of a test fixture's path (`a/__init__.py` of a reproduction, found under
 * `tests/data/…`): a test, doc or vendored file counts only when the path as written
 * already looks like one.
 */
export function pointedAt(written: string, files: string[]): string[] {
  const trimmed = trimPath(written);
  if (!trimmed.includes("/")) return [];
  const writtenFactor = auxiliaryFactor(written.replace(/\\/g, "/"), NO_TOPICS);
  return files.filter((f) => auxiliaryFactor(f, NO_TOPICS) === 1 || writtenFactor < 1);
}

/**
 * The repository files a frame's path can be: its last three segments, else two (the
 * path as printed starts wherever the reporter's checkout was, often with the
 * repository's own folder name: `/home/me/src/app/rest/server.go`), else, for a bare
 * file name, the one file that has it, else the source of the built module it is
 * (`node_modules/dayjs/plugin/utc.js` → `src/plugin/utc/index.js`).
 */
async function filesOfFrame(generationId: string, written: string): Promise<string[]> {
  const parts = trimPath(written).split("/");
  // A bare name matches by itself only as written: `C:\Python38\lib\pathlib.py` is the
  // interpreter's, whatever file of the repository shares its name.
  const shortest = written.includes("/") || written.includes("\\") ? 2 : 1;
  for (let keep = Math.min(parts.length, 3); keep >= shortest; keep--) {
    const files = await filesBySuffix(generationId, parts.slice(-keep).join("/"), 3);
    if (files.length > 0 && (keep > 1 || files.length === 1)) return files;
  }
  return filesForModule(await pathIndex(generationId), normalizePath(written));
}

function trimPath(p: string): string {
  // Absolute paths from someone else's machine: keep the part that can exist in the repo.
  const parts = p.replace(/\\/g, "/").split("/").filter(Boolean);
  const site = parts.lastIndexOf("site-packages");
  return (site >= 0 ? parts.slice(site + 1) : parts.slice(-3)).join("/");
}

function intersect(a: string[], b: string[]): string[] {
  return a.filter((x) => b.includes(x));
}
