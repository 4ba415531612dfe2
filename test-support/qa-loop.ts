/**
 * runLoop wired exactly as askQuestion wires it (real mode retrieval, real gap
 * resolution, real evidence graph over an indexed generation), with the gap resolver
 * wrapped so tests can see every call the loop makes to it.
 */
import type { Answerer } from "../lib/answerers/contract.ts";
import { EvidenceEngine } from "../lib/answerers/evidence-engine.ts";
import { extractAnchors } from "../lib/search/anchors.ts";
import { effectiveConfig, type RequestOverrides } from "../lib/settings/config.ts";
import { SourceReader } from "../lib/qa/context.ts";
import { buildEvidenceGraph } from "../lib/qa/evidence-graph.ts";
import { resolveGaps } from "../lib/qa/gap-resolution.ts";
import type { LoopDependencies, LoopInput } from "../lib/qa/loop.ts";
import { retrieveForMode } from "../lib/qa/retrievers/index.ts";
import type { QueryMode } from "../lib/qa/types.ts";
import type { IndexedFixture } from "./qa-env.ts";

export interface RealLoop {
  input: LoopInput;
  deps: LoopDependencies;
  /** the gaps passed to each resolver call, in order */
  resolverCalls: string[][];
}

export function realLoop(
  fx: IndexedFixture,
  options: {
    question: string;
    mode: QueryMode;
    /** a close runner-up retrieved beside the mode */
    secondaryMode?: QueryMode;
    answerer: Answerer;
    settings?: unknown;
    overrides?: RequestOverrides;
    notFound?: Set<string>;
  },
): RealLoop {
  const config = effectiveConfig({ settings: options.settings, overrides: options.overrides });
  const anchors = extractAnchors(options.question);
  const reader = new SourceReader(fx.generationId);
  const resolverCalls: string[][] = [];
  const input: LoopInput = {
    question: options.question,
    mode: options.mode,
    secondaryMode: options.secondaryMode ?? null,
    anchors,
    config,
    cache: [],
    notFound: options.notFound ?? new Set(),
    history: [],
  };
  const deps: LoopDependencies = {
    retrieve: (pass) =>
      retrieveForMode(
        {
          repositoryId: fx.repositoryId,
          generationId: fx.generationId,
          question: options.question,
          mode: options.mode,
          scope: null,
          anchors,
          config,
          reader,
          pass,
        },
        options.secondaryMode ?? null,
      ),
    resolveGaps: (gapInput) => {
      resolverCalls.push([...gapInput.gaps]);
      return resolveGaps({
        ...gapInput,
        generationId: fx.generationId,
        repositoryId: fx.repositoryId,
        reader,
        config,
        mode: options.mode,
      });
    },
    buildGraph: (items) => buildEvidenceGraph(fx.generationId, items),
    answerer: options.answerer,
    fallback: new EvidenceEngine(),
  };
  return { input, deps, resolverCalls };
}
