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
import { ProviderError, type Answerer } from "../answerers/contract.ts";
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
import type { DiagramPart, GapReport, PassPart, QueryMode, StopReason } from "./types.ts";

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
  budget: {
    limit: number;
    used: number;
    initial: number;
    perPass: number[];
    gapBudget: number;
    gapUsed: number;
  };
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
  const { config, resume } = input;
  const userPasses = (resume?.priorPasses.filter((p) => p.source === "user").length ?? 0) + (resume ? 1 : 0);
  const maxPasses = passLimit(config) + userPasses;
  const context = new ContextSet();
  const passes: PassRecord[] = [];
  const reasoning: string[] = [];
  const gapsIdentified: string[] = [];
  const gapsResolved: string[] = [];
  const gapsUnresolved = new Set<string>();
  let answerer = deps.answerer;
  let fallback: string | null = null;
  let answer = "";
  let stopReason: StopReason = "max-passes";
  let pendingGaps: string[] = [];
  let subQueries = new Map<string, string>();
  let gapUsed = 0;
  const perPass: number[] = [];

  // What the gap resolution of a pass may spend: its own share, capped by what is left overall.
  const gapBudgetLeft = (pass: number) =>
    Math.min(
      gapBudgetForPass(config, pass),
      config.gapResolutionBudget - gapUsed,
      config.totalContextBudget - context.tokens,
    );

  const started = performance.now();
  const retrievedFor = input.secondaryMode
    ? `${input.mode} or ${input.secondaryMode}: retrieved for both`
    : `${input.mode} context`;
  // Mode retrieval can take a while: say so before it starts, as later passes do (a
  // resumed answer shows its first pass as it was).
  if (!resume)
    events.onPass?.({
      pass: 1,
      phase: "retrieving",
      label: `Retrieving ${retrievedFor}…`,
      gapsIdentified: [],
      gaps: [],
      added: [],
      addedTokens: 0,
      contextTokens: 0,
      reasoning: null,
      durationMs: null,
      stopReason: null,
    });
  await yieldToEventLoop();
  const retrieval = await deps.retrieve(1);
  const cached = relevantCache(
    input.cache,
    input.question,
    input.anchors,
    Math.floor(config.initialRetrievalBudget / 3),
  );
  for (const item of cached) context.add(item);
  for (const item of retrieval.items) context.add(item);
  const initialTokens = context.tokens;
  perPass.push(initialTokens);
  const contextFromCache = cached.length > 0;

  // Resuming: the earlier passes' lookups again, without answering, so the context is
  // the one the answer had; their parts stay as they were shown.
  for (const prior of resume?.priorPasses ?? []) {
    gapsIdentified.push(...prior.gapsIdentified.filter((g) => !gapsIdentified.includes(g)));
    if (prior.pass >= resume!.pass) continue;
    if (prior.source !== "user" && prior.pass > 1 && prior.gaps.length) {
      const replayed = await deps.resolveGaps({
        gaps: prior.gaps.map((g) => g.gap),
        context,
        notFound: input.notFound,
        pass: prior.pass,
        budget: gapBudgetLeft(prior.pass),
        subQueries,
      });
      gapUsed += replayed.tokens;
    }
    for (const r of prior.gaps) {
      if (r.status === "resolved") gapsResolved.push(r.gap);
      else if (r.status === "unresolved") gapsUnresolved.add(r.gap);
    }
    if (prior.reasoning) reasoning.push(prior.reasoning);
    passes.push({ part: prior, files: [], symbols: [], answer: isLookupOnly(prior) ? null : "" });
  }
  // Gaps the user filled are answered for the rest of this answer: never named or looked up again.
  const filled = new Set(
    [
      ...(resume?.priorPasses ?? []).filter((p) => p.source === "user"),
      ...(resume ? [{ gaps: resume.provided.reports }] : []),
    ]
      .flatMap((p) => p.gaps)
      .filter((r) => r.via === "user")
      .map((r) => normalizeGap(r.gap)),
  );
  if (resume) {
    for (const item of resume.earlier) context.add(item);
    pendingGaps = [];
    for (const g of resume.provided.reports) input.notFound.delete(normalizeGap(g.gap));
  }

  for (let pass = resume?.pass ?? 1; pass <= maxPasses; pass++) {
    const passStart = pass === 1 ? started : performance.now();
    const fromUser = resume?.pass === pass;
    const part: PassPart = {
      pass,
      ...(fromUser ? { source: "user" as const } : {}),
      phase: "retrieving",
      label: fromUser
        ? "Reading the context you provided…"
        : pass === 1
          ? `Retrieving ${retrievedFor}…`
          : "Retrieving additional context…",
      gapsIdentified: [],
      gaps: [],
      added: [],
      addedTokens: 0,
      contextTokens: context.tokens,
      reasoning: null,
      durationMs: null,
      stopReason: null,
    };
    let added: ContextItem[];
    if (fromUser) {
      events.onPass?.({ ...part });
      await yieldToEventLoop();
      // Everything the user provided is this pass's context, even lines the loop had already.
      added = resume.provided.items;
      for (const item of added) context.put(item);
      perPass.push(added.reduce((n, i) => n + i.tokens, 0));
      const replaced = resume.priorPasses.find((p) => p.pass === pass);
      const filled = new Set(resume.provided.reports.map((r) => r.gap));
      // A lookup this pass replaces keeps the reports of the gaps the user did not fill.
      part.gaps = [...resume.provided.reports, ...(replaced?.gaps ?? []).filter((r) => !filled.has(r.gap))];
      for (const r of resume.provided.reports) {
        gapsResolved.push(r.gap);
        gapsUnresolved.delete(r.gap);
      }
    } else if (pass === 1) {
      added = context.list();
    } else {
      events.onPass?.({ ...part });
      await yieldToEventLoop();
      const budget = gapBudgetLeft(pass);
      const resolved = await deps.resolveGaps({
        gaps: pendingGaps,
        context,
        notFound: input.notFound,
        pass,
        budget,
        subQueries,
      });
      added = resolved.items;
      gapUsed += resolved.tokens;
      perPass.push(resolved.tokens);
      part.gaps = resolved.reports;
      for (const r of resolved.reports) {
        if (r.status === "resolved") {
          gapsResolved.push(r.gap);
          gapsUnresolved.delete(r.gap);
        } else gapsUnresolved.add(r.gap);
      }
      if (added.length === 0 && config.stopOnNoNewContext) {
        stopReason = "no-new-context";
        part.phase = "done";
        part.label = "No new context found; keeping the previous answer";
        part.stopReason = stopReason;
        part.durationMs = Math.round(performance.now() - passStart);
        part.contextTokens = context.tokens;
        events.onPass?.({ ...part });
        await yieldToEventLoop();
        passes.push({ part, files: [], symbols: [], answer: null });
        break;
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
    part.addedTokens = added.reduce((n, i) => n + i.tokens, 0);
    part.contextTokens = context.tokens;
    part.phase = "answering";
    part.label = fromUser
      ? "Answering with the context you provided…"
      : pass === 1
        ? "Answering…"
        : `Refining the answer with ${added.length} new item${added.length === 1 ? "" : "s"}…`;
    events.onPass?.({ ...part });
    await yieldToEventLoop();

    const items = context.list();
    const graph = await deps.buildGraph(items);
    const answerInput = {
      question: input.question,
      mode: input.mode,
      pass,
      maxPasses,
      context: items,
      graph,
      anchors: input.anchors,
      reasoningHistory: [...reasoning],
      notFound: filled.size ? new Set([...input.notFound, ...filled]) : input.notFound,
      history: input.history,
    };
    let draft = "";
    events.onTextStart?.(pass);
    let output;
    try {
      output = await answerer.answer(
        answerInput,
        (d) => {
          draft += d;
          events.onTextDelta?.(pass, d);
        },
        input.signal,
      );
    } catch (error) {
      if (!(error instanceof ProviderError) || answerer === deps.fallback) throw error;
      fallback = error.message;
      events.onFallback?.(error.message);
      answerer = deps.fallback;
      if (draft) events.onTextDelta?.(pass, "\n\n---\n\n");
      output = await answerer.answer(answerInput, (d) => events.onTextDelta?.(pass, d), input.signal);
    }
    events.onTextEnd?.(pass);
    answer = output.answer;
    reasoning.push(output.reasoning);
    subQueries = output.subQueries;
    const gaps = output.gaps.filter((g) => !filled.has(normalizeGap(g)));
    gapsIdentified.push(...gaps.filter((g) => !gapsIdentified.includes(g)));
    part.gapsIdentified = gaps;
    part.reasoning = output.reasoning;

    // Stop conditions, in priority order.
    let stop: StopReason | null = null;
    if (gaps.length === 0) stop = output.sufficient ? "sufficient" : "no-gaps";
    else if (gaps.every((g) => input.notFound.has(normalizeGap(g)))) stop = "all-gaps-unresolvable";
    else if (pass >= maxPasses) stop = "max-passes";
    // Too little budget left for even one gap: another pass could add nothing.
    else if (gapBudgetLeft(pass + 1) < MIN_GAP_BUDGET) stop = "budget-exhausted";
    if (stop) {
      for (const g of gaps) if (!gapsResolved.includes(g)) gapsUnresolved.add(g);
    }
    part.phase = "done";
    part.label = fromUser
      ? `Answered with what you provided (${added.length} item${added.length === 1 ? "" : "s"})`
      : pass === 1
        ? `Answered from the initial retrieval${input.secondaryMode ? ` (${retrievedFor})` : ""}`
        : `Answered with ${added.length} more item${added.length === 1 ? "" : "s"}`;
    part.stopReason = stop;
    part.durationMs = Math.round(performance.now() - passStart);
    events.onPass?.({ ...part });
    await yieldToEventLoop();
    passes.push({
      part,
      files: rankedFiles(pass === 1 ? retrieval.rankedFiles : [], added),
      symbols:
        pass === 1 ? retrieval.rankedSymbols : added.flatMap((i) => (i.facts ? [i.facts.qualifiedId] : [])),
      answer,
    });
    if (stop) {
      stopReason = stop;
      break;
    }
    pendingGaps = gaps.filter((g) => !input.notFound.has(normalizeGap(g)));
    if (pendingGaps.length === 0) {
      stopReason = "all-gaps-unresolvable";
      break;
    }
  }
  const resolvedSet = new Set(gapsResolved);
  return {
    answer,
    passes,
    passesUsed: answeredPasses(passes.map((p) => p.part)),
    context: context.list(),
    stopReason,
    gapsIdentified,
    gapsResolved: [...resolvedSet],
    gapsUnresolved: [...gapsUnresolved].filter((g) => !resolvedSet.has(g)),
    contextFromCache,
    diagram: retrieval.diagram,
    retrieval,
    budget: {
      limit: config.totalContextBudget,
      used: context.tokens,
      initial: initialTokens,
      perPass,
      gapBudget: config.gapResolutionBudget,
      gapUsed,
    },
    fallback,
    engine: answerer.name,
    reasoning,
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
