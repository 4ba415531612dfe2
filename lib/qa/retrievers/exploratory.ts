/**
 * Exploratory retrieval: start where execution starts for the question (the function
 * it names, an entry point it describes — a route, a command, a program's main — or the
 * definition that fits it best; never a test unless the question is about tests), walk
 * the call graph forward into a flow tree (wide near the entry, callees named like the
 * question first), and fetch the steps nearest the entry within the source budget. A
 * question that asks who calls something ("what calls X", "where is X used") also gets
 * the callers of its entry, two hops up, as a tree of their own, and they lead.
 */
import "server-only";
import type { SymbolRecord } from "../../db/code-graph.ts";
import { hybridSearch, lexicalSearch } from "../../search/hybrid.ts";
import { baseQualifiedId } from "../../db/symbol-ids.ts";
import { conceptTerms, questionTopics, type ConceptTerm } from "../concepts.ts";
import { syntheticItem } from "../context.ts";
import { normalizeName } from "../subjects.ts";
import type { ContextItem } from "../../answerers/contract.ts";
import { ERROR_WORDS, flowEndAt } from "../../answerers/question-clauses.ts";
import { attachSymbols } from "./diagnostic.ts";
import { dispatchCandidates, entryPointCandidates } from "./entry-points.ts";
import {
  dispatchClass,
  isTestCode,
  namedSteps,
  ownerNamed,
  reachedReceiverMethod,
  relevanceOf,
  splitFlowEnds,
  workingMethod,
} from "./exploratory-steps.ts";
import {
  chunkCandidate,
  definitionCandidates,
  demoteAuxiliary,
  demoteTestSymbols,
  docsItems,
  fuseFiles,
  fuseSignals,
  isTestSymbol,
  leftOut,
  namedSymbolCandidates,
  packCandidates,
  retrievalTopics,
  signalFiles,
  subjectCandidates,
  auxiliaryFactor,
  isCodeFunction,
  isFunctionSymbol,
  symbolCandidate,
  wholeFileSignal,
  type AuxiliaryTopics,
  type Candidate,
  type Ranked,
  type RetrievalInput,
  type RetrievalOutput,
  type SignalList,
} from "./shared.ts";
import {
  flatten,
  flowDiagram,
  renderFlow,
  walkBackward,
  walkForward,
  walkToEnd,
  type FlowNode,
} from "./exploratory-walk.ts";
import { chainsFirst, flowOrder, FLOW_LEAD, spineOf } from "./exploratory-order.ts";
import { stateHop } from "./exploratory-state.ts";
import { factoryStart } from "./exploratory-factory.ts";

export async function retrieveExploratory(input: RetrievalInput): Promise<RetrievalOutput> {
  const { generationId, config, question } = input;
  const topics = await retrievalTopics(input, questionTopics(question));
  // Tests, and vendored, generated or minified code, are walked into only when the question is about them.
  const walks = (path: string) => (topics.tests || !isTestCode(path)) && !leftOut(path, topics);
  // A flow followed forward stays out of docs, examples and benchmarks too.
  const walksForward = (path: string) =>
    walks(path) && auxiliaryFactor(path, { ...topics, tests: true }) === 1;
  const terms = conceptTerms(question);
  const signals = await gatherSignals(input, terms, topics);
  const entryRanked = demoteTestSymbols(demoteAuxiliary(fuseSignals(signals.startLists), [], topics), topics);
  await attachSymbols(
    generationId,
    entryRanked.map((r) => r.candidate),
  );
  const { entries, namedWalk, namedIds, trusted, inbound } = await chooseEntries(
    generationId,
    question,
    signals,
    entryRanked,
    terms,
    topics.tests,
  );
  const relevant = relevanceOf(terms);
  const flows = await walkFlows(input, entries, terms, relevant, walksForward, leadingFiles(entryRanked));
  // Callers of the entry, when the question asks for them: the function the question
  // names if any, else the best entry.
  const callerTrees: FlowNode[] = [];
  if (config.features.useCallGraph && asksForCallers(question)) {
    const target = entries.find((e) => namedIds.has(e.qualifiedId)) ?? entries[0];
    if (target) callerTrees.push(await walkBackward(generationId, target, 0, 2, CALLERS_PER_HOP, walks));
  }
  const rankLists = flowRankLists(flows, callerTrees, signals.lists, relevant, namedWalk);
  const ranked = demoteTestSymbols(demoteAuxiliary(fuseSignals(rankLists), [], topics), topics);
  await attachSymbols(
    generationId,
    ranked.map((r) => r.candidate),
  );
  const items = await contextItems(input, entries, flows, callerTrees, ranked);
  return {
    items,
    diagram: flows.length ? flowDiagram(flows, callerTrees) : null,
    rankedFiles: fuseFiles([...rankLists, signals.wholeFile], [], 30, topics),
    signals: signalFiles([...rankLists, signals.wholeFile]),
    ...rankedSymbolIds(
      ranked,
      flows,
      // A chain runs through the steps named like the question by their own names: a helper
      // nested in a named function (`add.instanceFactorySet`) is not named by its encloser's.
      trusted && callerTrees.length === 0
        ? chainsFirst(flows, relevanceOf(terms, 0), ERROR_WORDS.test(question), inbound)
        : [],
    ),
  };
}

interface Signals {
  lists: SignalList[];
  /** the lists a start is chosen from: text search without the clause saying where the flow ends */
  startLists: SignalList[];
  named: Candidate[];
  subjects: Candidate[];
  entryPoints: Candidate[];
  /**
   * where the server hands over a request, when the question is about one arriving: only ever a
   * start, never a ranking signal (a router's `ServeHTTP` is no step of a flow started elsewhere)
   */
  dispatch: Candidate[];
  /** the question names the dispatch method's class or module ("when Flask handles a request") */
  dispatchNamed: boolean;
  /** named only where the flow ends */
  ends: Candidate[];
  wholeFile: SignalList;
}

/** What points at the code the question is about: names, subjects, entry points, definitions, text search. */
async function gatherSignals(
  input: RetrievalInput,
  terms: ConceptTerm[],
  topics: AuxiliaryTopics,
): Promise<Signals> {
  const { generationId, anchors, config, question } = input;
  const useIndex = config.features.useCodeIndex;
  // An entry point described only where the flow ends ("up to the POST /api/qa request") is no
  // start, nor is code text search finds only by that clause's words (`requestWithVars` for
  // "up to mux.Vars(r)"); the files it finds still rank, as the flow arrives there.
  const endAt = flowEndAt(question);
  const asked = endAt > 0 ? question.slice(0, endAt) : question;
  const search = (text: string) =>
    Promise.all([
      lexicalSearch(generationId, text, { limit: 25, kinds: ["code"], stems: true }),
      hybridSearch(input.repositoryId, generationId, text, { limit: 10, kinds: ["code"], stems: true }),
    ]);
  const kept = (path: string) => !isTestCode(path) && auxiliaryFactor(path, { ...topics, tests: true }) === 1;
  const [
    namedAll,
    subjectsAll,
    definitions,
    entryPoints,
    dispatch,
    [lexical, semantic],
    startText,
    wholeFile,
  ] = await Promise.all([
    useIndex ? namedSymbolCandidates(generationId, anchors) : [],
    useIndex ? subjectCandidates(generationId, question) : [],
    useIndex ? definitionCandidates(generationId, terms, 25, topics) : [],
    useIndex ? entryPointCandidates(generationId, asked, terms) : [],
    useIndex
      ? dispatchCandidates(generationId, asked, endAt > 0 ? conceptTerms(asked) : terms, kept)
      : { candidates: [], ownerNamed: false },
    search(question),
    endAt > 0 ? search(asked) : null,
    wholeFileSignal(input, 1),
  ]);
  // What the question names where the flow ends is where the walk arrives: no start, a weak signal.
  const named = splitFlowEnds(question, namedAll);
  const subjects = splitFlowEnds(question, subjectsAll);
  const textLists = ([found, similar]: Awaited<ReturnType<typeof search>>): SignalList[] => [
    {
      name: "bm25",
      weight: 1.5,
      candidates: found.map((c) => chunkCandidate(c, "matches the question's terms")),
    },
    {
      name: "semantic",
      weight: 0.8,
      candidates: similar.map((c) => chunkCandidate(c, "similar to the question")),
    },
  ];
  const lists: SignalList[] = [
    { name: "named", weight: 5, candidates: named.rest },
    { name: "subjects", weight: 4, candidates: subjects.rest },
    { name: "flow-end", weight: 1, candidates: [...named.ends, ...subjects.ends] },
    { name: "entry-points", weight: 4, candidates: entryPoints },
    { name: "definitions", weight: 3, candidates: definitions },
  ];
  const ends = [...named.ends, ...subjects.ends];
  return {
    lists: [...lists, ...textLists([lexical, semantic])],
    startLists: [...lists, ...textLists(startText ?? [lexical, semantic])],
    named: named.rest,
    subjects: subjects.rest,
    entryPoints,
    dispatch: dispatch.candidates,
    dispatchNamed: dispatch.ownerNamed,
    ends,
    wholeFile,
  };
}

/**
 * Where the walk starts: the calls the question names, in its order ("dayjs(…).add(…).format(…)",
 * "NewServer, then AddRoutes, then Start"), else the entry point or definition that fits
 * it best; never a test unless the question is about tests. A class leads to the method
 * that does its work.
 */
async function chooseEntries(
  generationId: string,
  question: string,
  signals: Signals,
  entryRanked: Ranked[],
  terms: ConceptTerm[],
  tests: boolean,
): Promise<{
  entries: SymbolRecord[];
  namedWalk: boolean;
  namedIds: Set<string>;
  trusted: boolean;
  /** the walk starts where the server hands a request over */
  inbound: boolean;
}> {
  const namedIds = new Set([...signals.named, ...signals.subjects].map((c) => c.key));
  const entryIds = new Set(signals.entryPoints.map((c) => c.key));
  const endIds = new Set(signals.ends.map((c) => c.key));
  const starts: SymbolRecord[] = await namedSteps(generationId, question, signals.subjects, terms, tests);
  // A call written on an instance a factory made (`got(url)`, `ky.post(…)`) starts in the factory.
  if (starts.length === 0) {
    const made = await factoryStart(generationId, question);
    if (made) starts.push(made);
  }
  const namedWalk = starts.length > 0;
  // A request arriving starts where the server hands it over: unless the question writes a call
  // to start from, or names a class beside the dispatching one ("when Flask handles a request" is
  // Flask's dispatch, not the Flask method sharing the word "handle").
  const dispatch = signals.dispatch[0]?.symbol;
  if (dispatch && (!namedWalk || (signals.dispatchNamed && !starts.some((s) => writesName(question, s)))))
    return { entries: [dispatch], namedWalk: false, namedIds, trusted: true, inbound: true };
  let firstScore = 0;
  let trusted = namedWalk;
  for (const r of starts.length ? [] : entryRanked) {
    const s = r.candidate.symbol;
    if (!s || starts.length >= 2 || endIds.has(s.qualifiedId)) continue;
    if (!tests && (isTestSymbol(s) || isTestCode(s.path))) continue;
    // A second start only when it fits nearly as well as the first.
    if (starts.length === 1 && r.score < firstScore * 0.6) break;
    const start =
      s.kind === "function" || s.kind === "method" ? s : await workingMethod(generationId, s, terms);
    if (!start || starts.some((x) => x.qualifiedId === start.qualifiedId)) continue;
    starts.push(start);
    firstScore ||= r.score;
    // What the question names, or an entry point it describes, is where the trace starts.
    if ((namedIds.has(s.qualifiedId) || entryIds.has(s.qualifiedId)) && starts.length === 1) {
      trusted = true;
      break;
    }
  }
  return { entries: starts, namedWalk, namedIds, trusted, inbound: false };
}

/** The question writes the step's own name, as it is spelled (`Mount`, `run`), not only a word of it. */
function writesName(question: string, s: SymbolRecord): boolean {
  return new RegExp(`(?<![\\w$])${s.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w$])`).test(question);
}

/** A method's class as a word (`FastRoute.Dispatcher.GroupCountBased.dispatch` → `groupcountbased`). */
function ownerWord(s: SymbolRecord): string {
  return s.parentId ? normalizeName(s.qualifiedName.split(".").slice(-2, -1)[0] ?? "") : "";
}

/** The call graph walked forward from each entry (an entry another walk reached is not walked again). */
async function walkFlows(
  input: RetrievalInput,
  entries: SymbolRecord[],
  terms: ConceptTerm[],
  relevant: (s: SymbolRecord) => number,
  walks: (path: string) => boolean,
  leading: string[],
): Promise<FlowNode[]> {
  const { generationId, config, question } = input;
  const stateReaders = stateHop(generationId, input.reader, leading, walks);
  const flows: FlowNode[] = [];
  const seen = new Set<string>();
  const maxDepth = Math.min(config.maxCallGraphHops, 3);
  // Named like the question by its own name, not only by its class's.
  const named = relevanceOf(terms, 0);
  let lastOptions: Parameters<typeof walkForward>[6] | null = null;
  // The class names a walk already took as its receiver ("dispatch on a GroupCountBased
  // dispatcher"): the name is used up, and a member of another class of that name starts nothing.
  const receivers = new Set<string>();
  for (const start of entries) {
    const entry =
      (ownerNamed(question, start) ? null : await reachedReceiverMethod(generationId, start, flows)) ?? start;
    if (seen.has(entry.qualifiedId) || receivers.has(ownerWord(entry))) continue;
    const dispatch = await dispatchClass(generationId, question, entry);
    if (dispatch) receivers.add(normalizeName(dispatch.name));
    const options = {
      useGraph: config.features.useCallGraph,
      relevant,
      named,
      walks,
      dispatch,
      reader: input.reader,
      depthCap: maxDepth + WRAPPER_LEVELS,
      stateReaders,
    };
    lastOptions = options;
    const flow = await walkForward(generationId, entry, 0, maxDepth, config.maxCalleesPerHop, seen, options);
    // A chain named like the question goes on past the walk's depth, one step a level, to its end
    // ("how does each route end up wrapped in middlewares": Start → … → bindRoute → buildChain…).
    const tail = spineOf(flow, (n) => relevant(n.symbol)).pop();
    if (tail && tail.depth === maxDepth && named(tail.symbol) > 0)
      tail.children = (
        await walkForward(generationId, tail.symbol, tail.depth, maxDepth + CHAIN_BEYOND, 1, seen, {
          ...options,
          only: (s) => named(s) > 0,
        })
      ).children;
    flows.push(flow);
  }
  // A flow the question says ends somewhere ("… until a connection sends the request") is
  // followed there from the last start, past the walk's depth.
  const endAt = flowEndAt(question);
  const endTerms = endAt > 0 ? conceptTerms(question.slice(endAt)) : [];
  const last = flows[flows.length - 1];
  // The last start's own walk options: its dispatch class is already known.
  if (last && lastOptions && endTerms.length > 0)
    await walkToEnd(
      generationId,
      last,
      { score: relevanceOf(endTerms), own: relevanceOf(endTerms, 0) },
      seen,
      lastOptions,
    );
  return flows;
}

/** The files the start was chosen from, best first: where the code reading a flow's stored state is looked for. */
function leadingFiles(entryRanked: Ranked[]): string[] {
  const paths = entryRanked.flatMap((r) => r.candidate.symbol?.path ?? r.candidate.chunk?.path ?? []);
  return [...new Set(paths)].slice(0, STATE_FILES);
}

/** How many leading files are searched for the readers of a flow's stored state. */
const STATE_FILES = 5;

/**
 * The symbols an answer ranks: when the walk starts at what the question names or an entry
 * point it describes, the flow's first steps lead in the flow's order (the chain the answer
 * lists, not whatever else shares the question's words); then the rest as fused.
 */
function rankedSymbolIds(
  ranked: Ranked[],
  flows: FlowNode[],
  lead: FlowNode[],
): { rankedSymbols: string[]; chainLead: number } {
  // An overload the chain passes through (a thin overload delegating to the one that does
  // the work) is one step with it: it leaves its place in the lead to the next step.
  const bases = new Set<string>();
  const first = lead
    .filter((n) => isCodeFunction(n.symbol))
    .filter((n) => {
      const base = baseQualifiedId(n.symbol.qualifiedId);
      return !bases.has(base) && !!bases.add(base);
    })
    .slice(0, FLOW_LEAD)
    .map((n) => n.symbol);
  const rest = homonymsLast(
    stepsFirst(
      ranked.flatMap((r) => (r.candidate.symbol ? [r.candidate.symbol] : [])),
      flows.length > 0,
    ),
    new Set(flows.flatMap(flatten).map((n) => n.symbol.qualifiedId)),
  );
  return {
    rankedSymbols: [...new Set([...first, ...rest].map((s) => s.qualifiedId))].slice(0, 50),
    chainLead: first.length,
  };
}

/**
 * The signal lists the answer's symbols are ranked by: once a flow is traced it is the
 * answer, so its steps lead (the spine first), then what the question names; a question
 * about callers is answered by them.
 */
function flowRankLists(
  flows: FlowNode[],
  callerTrees: FlowNode[],
  lists: SignalList[],
  relevant: (s: SymbolRecord) => number,
  namedWalk: boolean,
): SignalList[] {
  const pivotal = flowOrder(flows, relevant).map((n) =>
    symbolCandidate(
      n.symbol,
      n.depth === 0
        ? "entry point"
        : n.children.length > 1
          ? "branch point in the flow"
          : n.children.length === 0
            ? "end of the call chain"
            : "step in the flow",
    ),
  );
  const callerCandidates = callerTrees
    .flatMap((t) => flatten(t).slice(1))
    .map((n) =>
      symbolCandidate(
        n.symbol,
        n.depth === 1 ? "calls the function asked about" : "calls one of its callers",
      ),
    );
  return [
    { name: "flow", weight: 5, candidates: pivotal },
    { name: "callers", weight: 4, candidates: callerCandidates },
    ...lists,
  ].map((l) => ({
    ...l,
    weight:
      callerTrees.length && CALLER_WEIGHTS[l.name] !== undefined
        ? (CALLER_WEIGHTS[l.name] ?? l.weight)
        : flows.length
          ? ((namedWalk ? NAMED_WALK_WEIGHTS[l.name] : undefined) ?? TRACED_WEIGHTS[l.name] ?? l.weight)
          : l.weight,
  }));
}

/** The context: the flow and the callers as text, then the ranked code and docs within the budget. */
async function contextItems(
  input: RetrievalInput,
  entries: SymbolRecord[],
  flows: FlowNode[],
  callerTrees: FlowNode[],
  ranked: Ranked[],
): Promise<ContextItem[]> {
  const { config } = input;
  const budget = config.modeBudgets.exploratory;
  const flowText = flows.map((f) => renderFlow(f)).join("\n\n");
  const items = flowText
    ? [
        syntheticItem("flow:" + entries.map((e) => e.qualifiedId).join(","), "flow", "Call flow", flowText, {
          reason: "call graph walked forward from the entry points",
          score: 1,
          pass: input.pass,
          maxTokens: 600,
        }),
      ]
    : [];
  const callersText = callerTrees
    .filter((t) => t.children.length > 0)
    .map(
      (t) =>
        `Who calls ${t.symbol.qualifiedName} (each ← line calls the line above it):\n${renderFlow(t, "", "←")}`,
    )
    .join("\n\n");
  if (callersText) {
    items.push(
      syntheticItem(
        "callers:" + callerTrees.map((t) => t.symbol.qualifiedId).join(","),
        "flow",
        "Callers",
        callersText,
        {
          reason: "call graph walked backward from the function asked about",
          score: 1,
          pass: input.pass,
          maxTokens: 300,
        },
      ),
    );
  }
  items.push(
    ...(await packCandidates(
      input,
      ranked,
      Math.min(budget.source, config.initialRetrievalBudget) - items.reduce((n, i) => n + i.tokens, 0),
      { maxItems: 10 },
    )),
  );
  items.push(
    ...(await docsItems(input, input.question, {
      budget: budget.docs,
      used: items.reduce((n, i) => n + i.tokens, 0),
      limit: 2,
    })),
  );
  return items;
}

/**
 * One symbol per name leads: overloads (`f`, `f#2` …) are one step of the answer, and a
 * method named without its class (`nextToken()`) matches every class's `nextToken`, of
 * which the best ranked stands for the rest — its best ranked implementation when that
 * is a declaration that calls nothing (an interface's or abstract base's method). The
 * walked flow's other classes' homonyms keep their place; the other overloads — a flow's
 * too, as `AddMediatR(services, configuration)` → `AddMediatR(services, config)` is one
 * step of the answer — and homonyms follow everything else.
 */
export function homonymsLast<T extends Pick<SymbolRecord, "qualifiedId" | "name" | "kind" | "fanOut">>(
  symbols: T[],
  flow: ReadonlySet<string>,
): T[] {
  const implementation = new Map<string, T>();
  for (const s of symbols)
    if (s.kind === "method" && s.fanOut > 0 && !flow.has(s.qualifiedId) && !implementation.has(s.name))
      implementation.set(s.name, s);
  const names = new Set<string>();
  const bases = new Set<string>();
  const picked = new Set<string>();
  const lead: T[] = [];
  const rest: T[] = [];
  for (const s of symbols) {
    if (picked.has(s.qualifiedId)) continue;
    const base = baseQualifiedId(s.qualifiedId);
    const inFlow = flow.has(s.qualifiedId);
    if (bases.has(base) || (!inFlow && names.has(s.name))) {
      rest.push(s);
      continue;
    }
    const stand = !inFlow && s.kind === "method" && s.fanOut === 0 ? implementation.get(s.name) : undefined;
    const pick = stand && !picked.has(stand.qualifiedId) ? stand : s;
    lead.push(pick);
    picked.add(pick.qualifiedId);
    if (pick !== s) rest.push(s);
    bases.add(base).add(baseQualifiedId(pick.qualifiedId));
    names.add(s.name);
  }
  return [...lead, ...rest.filter((s) => !picked.has(s.qualifiedId))];
}

/** A traced flow's steps are functions: types and values named like the question come after them. */
function stepsFirst(symbols: SymbolRecord[], traced: boolean): SymbolRecord[] {
  if (!traced) return symbols;
  return [...symbols.filter(isFunctionSymbol), ...symbols.filter((s) => !isFunctionSymbol(s))];
}

/** How many levels past the walk's depth thin wrappers on the way may carry it. */
const WRAPPER_LEVELS = 2;

/** How many levels past the walk's depth a chain named like the question is followed. */
const CHAIN_BEYOND = 3;

/**
 * When the walk starts at the calls the question names, the walk is the answer: the other
 * symbols of the same names (other classes' methods called alike) count little.
 */
const NAMED_WALK_WEIGHTS: Record<string, number> = { flow: 6, named: 1.5, subjects: 1.5 };

/** A question about callers is answered by them; what the function itself calls comes after. */
const CALLER_WEIGHTS: Record<string, number> = { callers: 6, flow: 2 };

const TRACED_WEIGHTS: Record<string, number> = {
  flow: 5,
  callers: 4,
  named: 5,
  subjects: 4,
  "entry-points": 4,
  definitions: 2,
  bm25: 1,
  semantic: 0.5,
};

const CALLERS_PER_HOP = 6;

/** "what calls X", "who uses X", "callers of X", "where is X called/used/invoked", "call sites of X". */
const CALLER_QUESTION = new RegExp(
  [
    // what/who calls X; which functions (of the code) call/use X — not "which … does X call"
    String.raw`\b(?:who|what)\s+(?:calls|invokes|uses|triggers)\b`,
    String.raw`\bwhich(?:\s+(?!does\b|do\b|did\b)\w+){0,4}\s+(?:call|invoke|use|trigger)s?\b`,
    String.raw`\bcallers?\s+(?:of|for)\b`,
    String.raw`\bcall[- ]sites?\b`,
    String.raw`\bwhere\s+(?:is|are)\b.{1,80}?\b(?:called|invoked|used|referenced)\b`,
    String.raw`\bwhere\s+(?:does|do)\b.{1,80}?\b(?:use|call|invoke|reference)\b`,
    String.raw`\b(?:is|are)\s+\S+\s+(?:called|invoked|used)\s+(?:from|by)\b`,
  ].join("|"),
  "i",
);

export function asksForCallers(question: string): boolean {
  return CALLER_QUESTION.test(question);
}
