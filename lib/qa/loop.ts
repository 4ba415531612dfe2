/**
 * The CGRAG loop. Pass 1 answers from mode retrieval (plus relevant session cache);
 * every later pass first resolves the gaps the previous answer named, then answers
 * again with the larger context. It stops when there are no gaps, when every gap is
 * already known to be unresolvable, at the pass limit, when the budget is spent, or
 * when a pass adds no new context. A failing model hands over to the evidence engine.
 *
 * A loop can also resume an answer whose gaps the user filled: its context is rebuilt
 * (the same retrieval, the same gap lookups, without answering), then a pass answers
 * from what the user provided, and the loop goes on as usual. Each such pass adds one
 * to the pass limit.
 */
import { ProviderError, type Answerer, type AnswerOutput } from "../answerers/contract.ts";
import type { Anchors } from "../search/anchors.ts";
import type { CgragConfig } from "../settings/config.ts";
import { gapBudgetForPass } from "../settings/config.ts";
import { ContextSet } from "./context.ts";
import { type ContextItem } from "../answerers/contract.ts";
import type { EvidenceGraph } from "../answerers/contract.ts";
import { MIN_GAP_BUDGET, type GapResolutionInput, type GapResolutionResult } from "./gap-resolution.ts";
import { normalizeGap } from "../answerers/gap-format.ts";
import { answeredPasses, isLookupOnly, passLimit } from "./passes.ts";
import type { RetrievalOutput } from "./retrievers/shared.ts";
import type { Turn } from "./rewrite.ts";
import type { BudgetUsage, DiagramPart, GapReport, PassPart, QueryMode, StopReason } from "./types.ts";

export interface LoopDependencies {
  retrieve: (pass: number) => Promise<RetrievalOutput>;
  resolveGaps: (
    input: Omit<GapResolutionInput, "generationId" | "repositoryId" | "reader" | "config" | "mode">,
  ) => Promise<GapResolutionResult>;
  buildGraph: (items: ContextItem[]) => Promise<EvidenceGraph>;
  answerer: Answerer;
  /** used when `answerer` fails with a ProviderError */
  fallback: Answerer;
}

export interface LoopEvents {
  onPass?: (pass: PassPart) => void;
  onTextStart?: (pass: number) => void;
  onTextDelta?: (pass: number, delta: string) => void;
  onTextEnd?: (pass: number) => void;
  onFallback?: (reason: string) => void;
}

/** Resuming an answer from context the user provided for its unresolved gaps. */
export interface LoopResume {
  /** the passes of the answer as they were shown, oldest first */
  priorPasses: PassPart[];
  /** the number of the pass that answers from what the user provided */
  pass: number;
  /** that context (already checked, lib/qa/gap-answers.ts) and how each gap was filled */
  provided: { items: ContextItem[]; reports: GapReport[] };
  /** context the user provided in earlier resumes of this answer, added back while replaying */
  earlier: ContextItem[];
}

/**
 * The number of the pass that resumes an answer: the next one, or the number of a last
 * lookup that found nothing (the user supplies what it could not find, so it replaces it).
 */
export function resumePassNumber(prior: PassPart[]): number {
  const last = prior.at(-1);
  if (!last) return 1;
  return isLookupOnly(last) ? last.pass : last.pass + 1;
}

export interface LoopInput {
  question: string;
  mode: QueryMode;
  /** a close runner-up retrieved beside the mode (said in the first pass's label) */
  secondaryMode?: QueryMode | null;
  anchors: Anchors;
  config: CgragConfig;
  cache: ContextItem[];
  notFound: Set<string>;
  history: Turn[];
  signal?: AbortSignal;
  resume?: LoopResume;
}

export interface PassRecord {
  part: PassPart;
  files: string[];
  symbols: string[];
  answer: string | null;
}

export interface LoopResult {
  answer: string;
  passes: PassRecord[];
  passesUsed: number;
  context: ContextItem[];
  stopReason: StopReason;
  gapsIdentified: string[];
  gapsResolved: string[];
  gapsUnresolved: string[];
  contextFromCache: boolean;
  diagram: DiagramPart | null;
  retrieval: RetrievalOutput;
  budget: BudgetUsage;
  fallback: string | null;
  engine: string;
  reasoning: string[];
}

/** Cached items worth reusing for this question: they mention one of its terms. */
export function relevantCache(
  cache: ContextItem[],
  question: string,
  anchors: Anchors,
  maxTokens: number,
): ContextItem[] {
  const needles = [...anchors.identifiers, ...anchors.keywords]
    .map((n) => n.toLowerCase())
    .filter((n) => n.length >= 4);
  if (needles.length === 0) return [];
  const out: ContextItem[] = [];
  let used = 0;
  for (const item of [...cache].reverse()) {
    const hay = `${item.title}\n${item.text}`.toLowerCase();
    if (!needles.some((n) => hay.includes(n))) continue;
    if (used + item.tokens > maxTokens) continue;
    out.push({ ...item, origin: "cache" });
    used += item.tokens;
  }
  return out;
}

export async function runLoop(
  input: LoopInput,
  deps: LoopDependencies,
  events: LoopEvents = {},
): Promise<LoopResult> {
  const state = await setUpLoop(input, deps, events);
  let stopReason: StopReason = "max-passes";
  for (let pass = input.resume?.pass ?? 1; pass <= state.maxPasses; pass++) {
    const stop = await runPass(state, pass);
    if (stop) {
      stopReason = stop;
      break;
    }
  }
  return loopResult(state, stopReason);
}

/** What the loop carries from one pass to the next. */
interface LoopState {
  readonly input: LoopInput;
  readonly deps: LoopDependencies;
  readonly events: LoopEvents;
  readonly config: CgragConfig;
  /** the pass limit, plus one for each pass that answers from context a user provided */
  readonly maxPasses: number;
  /** what the first pass retrieves, as its labels say */
  readonly retrievedFor: string;
  readonly started: number;
  readonly retrieval: RetrievalOutput;
  readonly initialTokens: number;
  readonly contextFromCache: boolean;
  readonly context: ContextSet;
  readonly passes: PassRecord[];
  readonly reasoning: string[];
  readonly gapsIdentified: string[];
  readonly gapsResolved: string[];
  readonly gapsUnresolved: Set<string>;
  readonly perPass: number[];
  /** gaps the user filled (normalized): never named or looked up again in this answer */
  filled: Set<string>;
  answerer: Answerer;
  fallback: string | null;
  answer: string;
  pendingGaps: string[];
  subQueries: Map<string, string>;
  gapUsed: number;
}

/** Pass setup: the first retrieval, the relevant cache and, when resuming, the earlier passes replayed. */
async function setUpLoop(input: LoopInput, deps: LoopDependencies, events: LoopEvents): Promise<LoopState> {
  const { config, resume } = input;
  const userPasses = (resume?.priorPasses.filter((p) => p.source === "user").length ?? 0) + (resume ? 1 : 0);
  const started = performance.now();
  const retrievedFor = input.secondaryMode
    ? `${input.mode} or ${input.secondaryMode}: retrieved for both`
    : `${input.mode} context`;
  // Mode retrieval can take a while: say so before it starts, as later passes do (a
  // resumed answer shows its first pass as it was).
  if (!resume) events.onPass?.(passPart(1, `Retrieving ${retrievedFor}…`, 0));
  await yieldToEventLoop();
  const retrieval = await deps.retrieve(1);
  const cached = relevantCache(
    input.cache,
    input.question,
    input.anchors,
    Math.floor(config.initialRetrievalBudget / 3),
  );
  const context = new ContextSet();
  for (const item of cached) context.add(item);
  for (const item of retrieval.items) context.add(item);
  const state: LoopState = {
    input,
    deps,
    events,
    config,
    maxPasses: passLimit(config) + userPasses,
    retrievedFor,
    started,
    retrieval,
    initialTokens: context.tokens,
    contextFromCache: cached.length > 0,
    context,
    passes: [],
    reasoning: [],
    gapsIdentified: [],
    gapsResolved: [],
    gapsUnresolved: new Set(),
    perPass: [context.tokens],
    filled: new Set(),
    answerer: deps.answerer,
    fallback: null,
    answer: "",
    pendingGaps: [],
    subQueries: new Map(),
    gapUsed: 0,
  };
  if (resume) await replayResume(state, resume);
  return state;
}

/**
 * Resuming: the earlier passes' lookups again, without answering, so the context is
 * the one the answer had; their parts stay as they were shown.
 */
async function replayResume(state: LoopState, resume: LoopResume): Promise<void> {
  const { input, gapsIdentified } = state;
  for (const prior of resume.priorPasses) {
    gapsIdentified.push(...prior.gapsIdentified.filter((g) => !gapsIdentified.includes(g)));
    if (prior.pass >= resume.pass) continue;
    if (prior.source !== "user" && prior.pass > 1 && prior.gaps.length) {
      const replayed = await state.deps.resolveGaps({
        gaps: prior.gaps.map((g) => g.gap),
        context: state.context,
        notFound: input.notFound,
        pass: prior.pass,
        budget: gapBudgetLeft(state, prior.pass),
        subQueries: state.subQueries,
      });
      state.gapUsed += replayed.tokens;
    }
    for (const r of prior.gaps) {
      if (r.status === "resolved") state.gapsResolved.push(r.gap);
      else if (r.status === "unresolved") state.gapsUnresolved.add(r.gap);
    }
    if (prior.reasoning) state.reasoning.push(prior.reasoning);
    state.passes.push({ part: prior, files: [], symbols: [], answer: isLookupOnly(prior) ? null : "" });
  }
  // Gaps the user filled are answered for the rest of this answer: never named or looked up again.
  state.filled = new Set(
    [...resume.priorPasses.filter((p) => p.source === "user"), { gaps: resume.provided.reports }]
      .flatMap((p) => p.gaps)
      .filter((r) => r.via === "user")
      .map((r) => normalizeGap(r.gap)),
  );
  for (const item of resume.earlier) state.context.add(item);
  for (const g of resume.provided.reports) input.notFound.delete(normalizeGap(g.gap));
}

/** What the gap resolution of a pass may spend: its own share, capped by what is left overall. */
function gapBudgetLeft(state: LoopState, pass: number): number {
  const { config } = state;
  return Math.min(
    gapBudgetForPass(config, pass),
    config.gapResolutionBudget - state.gapUsed,
    config.totalContextBudget - state.context.tokens,
  );
}

/** One pass: gather its context, answer, decide whether to stop. Returns why it stopped, if it did. */
async function runPass(state: LoopState, pass: number): Promise<StopReason | null> {
  const { events, input } = state;
  const passStart = pass === 1 ? state.started : performance.now();
  const fromUser = input.resume?.pass === pass;
  const label = fromUser
    ? "Reading the context you provided…"
    : pass === 1
      ? `Retrieving ${state.retrievedFor}…`
      : "Retrieving additional context…";
  const part = passPart(pass, label, state.context.tokens, fromUser);
  let added: ContextItem[];
  if (fromUser) added = await takeProvidedContext(state, input.resume!, part);
  else if (pass === 1) added = state.context.list();
  else {
    added = await retrieveGaps(state, pass, part);
    if (added.length === 0 && state.config.stopOnNoNewContext) {
      await stopWithoutAnswer(state, part, passStart);
      return "no-new-context";
    }
  }
  part.added = added.map((i) => ({
    title: i.title,
    path: i.path ?? "",
    startLine: i.startLine,
    endLine: i.endLine,
    reason: i.reason,
    kind: i.kind,
  }));
  part.addedTokens = tokensOf(added);
  part.contextTokens = state.context.tokens;
  part.phase = "answering";
  part.label = answeringLabel(pass, fromUser, added.length);
  events.onPass?.({ ...part });
  await yieldToEventLoop();

  const output = await answerPass(state, pass);
  state.answer = output.answer;
  state.reasoning.push(output.reasoning);
  state.subQueries = output.subQueries;
  const gaps = output.gaps.filter((g) => !state.filled.has(normalizeGap(g)));
  state.gapsIdentified.push(...gaps.filter((g) => !state.gapsIdentified.includes(g)));
  part.gapsIdentified = gaps;
  part.reasoning = output.reasoning;

  const stop = stopDecision(state, pass, gaps, output.sufficient);
  if (stop) {
    for (const g of gaps) if (!state.gapsResolved.includes(g)) state.gapsUnresolved.add(g);
  }
  part.phase = "done";
  part.label = answeredLabel(state, pass, fromUser, added.length);
  part.stopReason = stop;
  part.durationMs = Math.round(performance.now() - passStart);
  events.onPass?.({ ...part });
  await yieldToEventLoop();
  const { retrieval } = state;
  state.passes.push({
    part,
    files: rankedFiles(pass === 1 ? retrieval.rankedFiles : [], added),
    symbols:
      pass === 1 ? retrieval.rankedSymbols : added.flatMap((i) => (i.facts ? [i.facts.qualifiedId] : [])),
    answer: state.answer,
  });
  if (stop) return stop;
  state.pendingGaps = gaps.filter((g) => !input.notFound.has(normalizeGap(g)));
  return state.pendingGaps.length === 0 ? "all-gaps-unresolvable" : null;
}

/** A part as a pass starts it: retrieving, with nothing added yet. */
function passPart(pass: number, label: string, contextTokens: number, fromUser = false): PassPart {
  return {
    pass,
    ...(fromUser ? { source: "user" as const } : {}),
    phase: "retrieving",
    label,
    gapsIdentified: [],
    gaps: [],
    added: [],
    addedTokens: 0,
    contextTokens,
    reasoning: null,
    durationMs: null,
    stopReason: null,
  };
}

/** A resumed pass's context: everything the user provided, even lines the loop had already. */
async function takeProvidedContext(
  state: LoopState,
  resume: LoopResume,
  part: PassPart,
): Promise<ContextItem[]> {
  state.events.onPass?.({ ...part });
  await yieldToEventLoop();
  const added = resume.provided.items;
  for (const item of added) state.context.put(item);
  state.perPass.push(tokensOf(added));
  const replaced = resume.priorPasses.find((p) => p.pass === part.pass);
  const filled = new Set(resume.provided.reports.map((r) => r.gap));
  // A lookup this pass replaces keeps the reports of the gaps the user did not fill.
  part.gaps = [...resume.provided.reports, ...(replaced?.gaps ?? []).filter((r) => !filled.has(r.gap))];
  for (const r of resume.provided.reports) {
    state.gapsResolved.push(r.gap);
    state.gapsUnresolved.delete(r.gap);
  }
  return added;
}

/** A later pass's context: what resolving the previous answer's gaps found. */
async function retrieveGaps(state: LoopState, pass: number, part: PassPart): Promise<ContextItem[]> {
  state.events.onPass?.({ ...part });
  await yieldToEventLoop();
  const resolved = await state.deps.resolveGaps({
    gaps: state.pendingGaps,
    context: state.context,
    notFound: state.input.notFound,
    pass,
    budget: gapBudgetLeft(state, pass),
    subQueries: state.subQueries,
  });
  state.gapUsed += resolved.tokens;
  state.perPass.push(resolved.tokens);
  part.gaps = resolved.reports;
  for (const r of resolved.reports) {
    if (r.status === "resolved") {
      state.gapsResolved.push(r.gap);
      state.gapsUnresolved.delete(r.gap);
    } else state.gapsUnresolved.add(r.gap);
  }
  return resolved.items;
}

/** A lookup that found nothing new ends the loop: the previous answer stands. */
async function stopWithoutAnswer(state: LoopState, part: PassPart, passStart: number): Promise<void> {
  part.phase = "done";
  part.label = "No new context found; keeping the previous answer";
  part.stopReason = "no-new-context";
  part.durationMs = Math.round(performance.now() - passStart);
  part.contextTokens = state.context.tokens;
  state.events.onPass?.({ ...part });
  await yieldToEventLoop();
  state.passes.push({ part, files: [], symbols: [], answer: null });
}

/** Answers from the whole context, streaming; a ProviderError hands over to the fallback for good. */
async function answerPass(state: LoopState, pass: number): Promise<AnswerOutput> {
  const { input, events, deps } = state;
  const items = state.context.list();
  const graph = await deps.buildGraph(items);
  const answerInput = {
    question: input.question,
    mode: input.mode,
    pass,
    maxPasses: state.maxPasses,
    context: items,
    graph,
    anchors: input.anchors,
    reasoningHistory: [...state.reasoning],
    notFound: state.filled.size ? new Set([...input.notFound, ...state.filled]) : input.notFound,
    history: input.history,
  };
  let draft = "";
  events.onTextStart?.(pass);
  let output: AnswerOutput;
  try {
    output = await state.answerer.answer(
      answerInput,
      (d) => {
        draft += d;
        events.onTextDelta?.(pass, d);
      },
      input.signal,
    );
  } catch (error) {
    if (!(error instanceof ProviderError) || state.answerer === deps.fallback) throw error;
    state.fallback = error.message;
    events.onFallback?.(error.message);
    state.answerer = deps.fallback;
    if (draft) events.onTextDelta?.(pass, "\n\n---\n\n");
    output = await state.answerer.answer(answerInput, (d) => events.onTextDelta?.(pass, d), input.signal);
  }
  events.onTextEnd?.(pass);
  return output;
}

/** Whether to stop after this pass's answer, and why: the stop conditions in priority order. */
function stopDecision(
  state: LoopState,
  pass: number,
  gaps: string[],
  sufficient: boolean,
): StopReason | null {
  if (gaps.length === 0) return sufficient ? "sufficient" : "no-gaps";
  if (gaps.every((g) => state.input.notFound.has(normalizeGap(g)))) return "all-gaps-unresolvable";
  if (pass >= state.maxPasses) return "max-passes";
  // Too little budget left for even one gap: another pass could add nothing.
  if (gapBudgetLeft(state, pass + 1) < MIN_GAP_BUDGET) return "budget-exhausted";
  return null;
}

function answeringLabel(pass: number, fromUser: boolean, added: number): string {
  if (fromUser) return "Answering with the context you provided…";
  if (pass === 1) return "Answering…";
  return `Refining the answer with ${added} new item${added === 1 ? "" : "s"}…`;
}

function answeredLabel(state: LoopState, pass: number, fromUser: boolean, added: number): string {
  if (fromUser) return `Answered with what you provided (${added} item${added === 1 ? "" : "s"})`;
  if (pass === 1)
    return `Answered from the initial retrieval${state.input.secondaryMode ? ` (${state.retrievedFor})` : ""}`;
  return `Answered with ${added} more item${added === 1 ? "" : "s"}`;
}

function tokensOf(items: ContextItem[]): number {
  return items.reduce((n, i) => n + i.tokens, 0);
}

function loopResult(state: LoopState, stopReason: StopReason): LoopResult {
  const { config, context, passes } = state;
  const resolvedSet = new Set(state.gapsResolved);
  return {
    answer: state.answer,
    passes,
    passesUsed: answeredPasses(passes.map((p) => p.part)),
    context: context.list(),
    stopReason,
    gapsIdentified: state.gapsIdentified,
    gapsResolved: [...resolvedSet],
    gapsUnresolved: [...state.gapsUnresolved].filter((g) => !resolvedSet.has(g)),
    contextFromCache: state.contextFromCache,
    diagram: state.retrieval.diagram,
    retrieval: state.retrieval,
    budget: {
      limit: config.totalContextBudget,
      used: context.tokens,
      initial: state.initialTokens,
      perPass: state.perPass,
      gapBudget: config.gapResolutionBudget,
      gapUsed: state.gapUsed,
    },
    fallback: state.fallback,
    engine: state.answerer.name,
    reasoning: state.reasoning,
  };
}

/**
 * Lets queued writes reach the socket between steps. With the embedded database every
 * await settles as a microtask, so without this an offline answer would be computed in
 * one go and arrive all at once instead of streaming phase by phase.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function rankedFiles(initial: string[], added: ContextItem[]): string[] {
  const out = [...initial];
  for (const i of added) if (i.path && !out.includes(i.path)) out.push(i.path);
  return out;
}

export function gapReportsOf(passes: PassRecord[]): GapReport[] {
  return passes.flatMap((p) => p.part.gaps);
}
