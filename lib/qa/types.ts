/**
 * The one message type shared by the QA engine, the /api/qa stream, the stored
 * session and the browser: an AI SDK UIMessage with Wayfinder's metadata and typed
 * data parts. Every `data-*` part the engine writes is a key of WayfinderDataParts.
 */
import type { UIMessage } from "ai";
import type { QueryMode } from "../answerers/contract.ts";
import type { Quality } from "../settings/config.ts";
import type { DiagramPart } from "../diagrams/types.ts";

// The modes belong to the answerers' contract; the message type names them too.
export { QUERY_MODE_LIST, type QueryMode } from "../answerers/contract.ts";
export type { DiagramNode, DiagramPart } from "../diagrams/types.ts";
// The qualities are presets of the engine's configuration.
export { QUALITY_LIST, type Quality } from "../settings/config.ts";

export interface ClassificationPart {
  mode: QueryMode;
  /** a close runner-up whose retrieval is fused with the mode's (the answer follows `mode`) */
  secondaryMode: QueryMode | null;
  reasoning: string;
  scope: string | null;
  /** true when the request forced the mode */
  forced: boolean;
  /** who classified: the model, or the trained classifier (offline or after a model failure) */
  source: "llm" | "classifier" | "forced";
  /** the standalone question after follow-up rewriting, when it differs */
  rewrittenQuestion: string | null;
}

/** The longest code excerpt a user may paste for a gap ("a short excerpt": a function or two). */
export const MAX_GAP_EXCERPT_CHARS = 6000;

/** How one gap was handled in a pass. */
export interface GapReport {
  gap: string;
  status: "resolved" | "unresolved" | "skipped";
  /** resolved: how it was found ("user": the user named where it is, or pasted it) */
  via: "cache" | "direct" | "file" | "function" | "mode" | "semantic" | "user" | null;
  /** resolved: where (path:start-end or qualified ids) */
  found: string[];
  /** unresolved: what was searched */
  searched: string[];
  /** skipped: why (already known unresolvable, budget); provided by the user: what they gave */
  note: string | null;
  /** a code excerpt the user pasted for this gap: provided by the user, not verified */
  excerpt?: string;
}

export interface PassPart {
  pass: number;
  /** "user": the pass answered from context the user provided for unresolved gaps */
  source?: "user";
  /** retrieving (pass 1: mode retrieval; later: gap resolution) → answering → done */
  phase: "retrieving" | "answering" | "done";
  label: string;
  /** gaps the answerer named at the end of this pass */
  gapsIdentified: string[];
  /** gaps resolved at the start of this pass (from the previous pass's list) */
  gaps: GapReport[];
  /** context items added in this pass */
  added: { title: string; path: string; startLine: number; endLine: number; reason: string; kind?: string }[];
  addedTokens: number;
  contextTokens: number;
  reasoning: string | null;
  durationMs: number | null;
  /** why the loop stopped after this pass, if it did */
  stopReason: StopReason | null;
}

export type StopReason =
  | "no-gaps"
  | "all-gaps-unresolvable"
  | "max-passes"
  | "budget-exhausted"
  | "no-new-context"
  | "sufficient";

export interface CitationPart {
  raw: string;
  path: string;
  startLine: number;
  endLine: number;
  verified: boolean;
  reason: string | null;
  /** the innermost symbol holding every cited line (qualified id), if any */
  symbol: string | null;
  /** the citation covers its whole file (absent in answers stored before it was recorded) */
  wholeFile?: boolean;
  /**
   * The lines shown for the citation, as indexed in this generation (only for verified
   * citations): the lines of the span that answer (`shown`), or in answers stored before
   * those were chosen, the span's first lines.
   */
  snippet: string | null;
  /**
   * Where the snippet's lines are, inside the span: the lines matching the question or
   * what the answer says there, else the body's first lines past its doc comment and
   * signature. The span stays what the citation links to and what is verified. Absent in
   * answers stored before it was recorded (their snippet starts at `startLine`).
   */
  shown?: { startLine: number; endLine: number };
  /**
   * Other citations of the answer this one stands for (`path:start-end` as written):
   * overlapping citations of one file are listed once, spanning them all.
   */
  alsoCites?: string[];
  language: string | null;
}

export interface NoticePart {
  level: "info" | "warning" | "error";
  code: string;
  message: string;
}

export type WayfinderDataParts = {
  classification: ClassificationPart;
  pass: PassPart;
  citations: { items: CitationPart[] };
  diagram: DiagramPart;
  notice: NoticePart;
};

export interface BudgetUsage {
  limit: number;
  used: number;
  initial: number;
  perPass: number[];
  gapBudget: number;
  gapUsed: number;
}

export interface AnswerMetadata {
  sessionId: string;
  repositoryId: string;
  generationId: string;
  mode: QueryMode;
  forcedMode: boolean;
  quality: Quality;
  engine: string;
  passesUsed: number;
  /** automatic passes allowed, plus one for each pass answered from context the user provided */
  maxPasses: number;
  /** passes answered from context the user provided (absent: none) */
  userPasses?: number;
  stopReason: StopReason | null;
  gapsIdentified: string[];
  gapsResolved: string[];
  gapsUnresolved: string[];
  contextFromCache: boolean;
  confidence: "high" | "medium" | "low";
  budget: BudgetUsage;
  timings: { totalMs: number; classifyMs: number; passesMs: number[]; firstPartMs: number };
  fallback: { reason: string } | null;
  createdAt: string;
}

export type WayfinderUIMessage = UIMessage<Partial<AnswerMetadata>, WayfinderDataParts>;
