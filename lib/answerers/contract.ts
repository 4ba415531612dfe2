/**
 * The answerers' contract: what answers a pass. Given the question, its mode and the
 * context gathered so far (items of source and docs, the evidence graph over them),
 * an answerer writes an answer (streamed as deltas) and names what is still missing.
 * Two kinds exist: a language model through the AI SDK, and the offline evidence
 * engine. lib/qa gathers the context and runs the loop; it depends on this module,
 * never the other way round.
 */
import type { Anchors } from "../search/anchors.ts";

/** The kinds of question, spelled once: every schema, table and loop over modes reads this list. */
export const QUERY_MODE_LIST = ["conceptual", "diagnostic", "exploratory", "analytical"] as const;
export type QueryMode = (typeof QUERY_MODE_LIST)[number];

export type ContextKind = "symbol" | "doc" | "file" | "flow" | "structure" | "wiki";

/** Facts about a symbol the offline engine and the evidence graph use. */
export interface SymbolFacts {
  qualifiedId: string;
  qualifiedName: string;
  kind: string;
  signature: string;
  docstring: string;
  raises: string[];
  mutates: string[];
  errorStrings: string[];
  /** raw calls as written */
  calls: string[];
  fanIn: number;
  fanOut: number;
}

export interface ContextItem {
  /** dedupe key: a symbol's qualified id, or `path:start-end` */
  key: string;
  kind: ContextKind;
  path: string | null;
  startLine: number;
  endLine: number;
  title: string;
  text: string;
  tokens: number;
  /** why it is here, shown in the timeline ("raises PaymentDeclined", "caller of …") */
  reason: string;
  score: number;
  /** "user": named or pasted by the user for a gap (a pasted excerpt has no path: it is not verified) */
  origin: "initial" | "gap" | "cache" | "user";
  pass: number;
  facts: SymbolFacts | null;
  truncated: boolean;
  /**
   * The lines of a long item that answer the question (a condition and its raise inside
   * a 200-line function): what a citation of the item points at, so it shows the matched
   * lines rather than the item's first ones. Absent when the whole item is the answer.
   */
  focus?: { startLine: number; endLine: number };
}

export type Relation = "calls" | "called_by" | "raises" | "mutates" | "emits";

export interface Triple {
  subject: string;
  relation: Relation;
  object: string;
  /** where the object is defined, when it is a symbol of the repository */
  objectPath: string | null;
  objectLines: [number, number] | null;
  /** whether the object symbol is already in the context */
  inContext: boolean;
  confidence: number;
}

export interface EvidenceGraph {
  triples: Triple[];
}

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
