/**
 * What answers a pass: given the question and the context gathered so far, write
 * an answer (streamed as deltas) and name what is still missing. Two kinds exist:
 * a language model through the AI SDK, and the offline evidence engine.
 */
import type { Anchors } from "../qa/anchors.ts";
import type { ContextItem } from "../qa/context.ts";
import type { EvidenceGraph } from "../qa/evidence-graph.ts";
import type { QueryMode } from "../qa/types.ts";

export interface AnswerInput {
  question: string;
  mode: QueryMode;
  pass: number;
  maxPasses: number;
  context: ContextItem[];
  graph: EvidenceGraph;
  anchors: Anchors;
  /** reasoning recorded in earlier passes of this question */
  reasoningHistory: string[];
  /** normalized gaps already known to be unresolvable */
  notFound: Set<string>;
  /** earlier turns of the session, oldest first */
  history: { question: string; answer: string }[];
}

export interface AnswerOutput {
  answer: string;
  gaps: string[];
  reasoning: string;
  /** the answerer's own judgment that the context suffices */
  sufficient: boolean;
  /** for fuzzy gaps: a search query that would find them */
  subQueries: Map<string, string>;
}

export interface Answerer {
  /** e.g. "evidence" or "openai:gpt-4o-mini" */
  readonly name: string;
  readonly kind: "evidence" | "llm";
  answer(input: AnswerInput, onDelta: (text: string) => void, signal?: AbortSignal): Promise<AnswerOutput>;
}

/** Thrown by model-backed answerers; the loop falls back to the evidence engine on it. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly reason: "timeout" | "provider" | "malformed",
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ProviderError";
  }
}
