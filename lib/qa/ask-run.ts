/**
 * What every answer shares, whether a new question or a continued one: the request and
 * result shapes, the writer that streams parts and keeps the message as streamed, the
 * settings a question runs under, the CGRAG loop wired to the index, the answerer and
 * the stream, and finishing an answer (citations verified, diagram drawn, metadata,
 * message, session state and metric stored).
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { InferUIMessageChunk } from "ai";
import { recordQuestionMetric } from "../db/metrics.ts";
import { type MessageRow } from "../db/sessions.ts";
import { env } from "../env.ts";
import type { Answerer } from "../answerers/contract.ts";
import { EvidenceEngine } from "../answerers/evidence-engine.ts";
import { ModelAnswerer } from "../answerers/model-answerer.ts";
import type { ConfiguredModel } from "../answerers/providers.ts";
import { extractAnchors } from "../search/anchors.ts";
import { effectiveConfig, type CgragConfig, type RequestOverrides } from "../settings/config.ts";
import { loadEngineSettings, loadStoredPatch } from "../settings/load.ts";
import { SourceReader } from "./context.ts";
import { buildEvidenceGraph } from "./evidence-graph.ts";
import { focusQuery } from "./focus.ts";
import { type GapAnswer } from "./gap-answers.ts";
import { resolveGaps } from "./gap-resolution.ts";
import { runLoop, type LoopResult, type LoopResume } from "./loop.ts";
import { passLimit } from "./passes.ts";
import { retrieveForMode } from "./retrievers/index.ts";
import { type ConversationAccess } from "./conversations.ts";
import { persistSession, type SessionState } from "./session.ts";
import type {
  AnswerMetadata,
  CitationPart,
  ClassificationPart,
  DiagramPart,
  NoticePart,
  Quality,
  WayfinderUIMessage,
} from "./types.ts";
import { verifyAnswerCitations } from "./verify.ts";

export type MessageChunk = InferUIMessageChunk<WayfinderUIMessage>;

export interface PartWriter {
  write(part: MessageChunk): void;
}

export interface AskRequest {
  repository: string;
  question: string;
  sessionId?: string;
  overrides?: RequestOverrides;
  signal?: AbortSignal;
  /**
   * Whose conversations the asker may continue (lib/qa/conversations.ts). HTTP callers
   * pass the caller's; in-process callers (CLI, stdio MCP, benchmarks, golden runs) see
   * every conversation, the default.
   */
  conversations?: ConversationAccess;
  /** continue the session's last answer from what the user provided for its open gaps */
  gapAnswers?: GapAnswer[];
  /** the answer meant to be continued (refused unless it is still the session's last) */
  answerId?: string;
}

export interface AskDependencies {
  /** the model to classify, rewrite and answer with; null = offline evidence engine; default: the configured one (lib/settings) */
  model?: ConfiguredModel | null;
  /** the stored settings patch, applied over env overrides (null: none); default: the admin's (lib/settings) */
  settings?: unknown;
  /** replaces the answerer (tests script a model through ModelAnswerer) */
  answerer?: Answerer;
  /** benchmarks and scripts: no session, message or metric rows are written */
  ephemeral?: boolean;
  /** lays out the answer's diagram for drawing (the web app); others get its mermaid source */
  drawDiagram?: (diagram: DiagramPart) => Promise<DiagramPart>;
}

export interface AskResult {
  sessionId: string;
  messageId: string;
  metadata: AnswerMetadata;
  classification: ClassificationPart;
  loop: LoopResult;
  citations: CitationPart[];
  message: WayfinderUIMessage;
}

/** Collects the parts written so the finished message can be stored as streamed. */
export class MessageAssembler implements PartWriter {
  readonly parts: WayfinderUIMessage["parts"] = [];
  private readonly texts = new Map<string, { type: "text"; text: string; state?: "streaming" | "done" }>();
  metadata: Partial<AnswerMetadata> = {};

  constructor(private readonly next?: PartWriter) {}

  write(part: MessageChunk): void {
    this.next?.write(part);
    switch (part.type) {
      case "text-start": {
        const text = { type: "text" as const, text: "", state: "streaming" as const };
        this.texts.set(part.id, text);
        this.parts.push(text);
        break;
      }
      case "text-delta": {
        const text = this.texts.get(part.id);
        if (text) text.text += part.delta;
        break;
      }
      case "text-end": {
        const text = this.texts.get(part.id);
        if (text) text.state = "done";
        break;
      }
      case "source-url":
        this.parts.push({ type: "source-url", sourceId: part.sourceId, url: part.url, title: part.title });
        break;
      case "start":
      case "finish":
      case "message-metadata":
        if (part.messageMetadata)
          this.metadata = { ...this.metadata, ...(part.messageMetadata as Partial<AnswerMetadata>) };
        break;
      default:
        if (part.type.startsWith("data-")) {
          const data = part as { type: string; id?: string; data: unknown };
          const index = data.id
            ? this.parts.findIndex((p) => "id" in p && p.id === data.id && p.type === data.type)
            : -1;
          const entry = {
            type: data.type,
            id: data.id,
            data: data.data,
          } as WayfinderUIMessage["parts"][number];
          if (index >= 0) this.parts[index] = entry;
          else this.parts.push(entry);
        }
    }
  }
}

/**
 * The admin's settings and model choice, read for each question so a change applies
 * without a restart; what the caller gave (tests, scripts) stands.
 */
export async function withSettings(deps: AskDependencies): Promise<AskDependencies> {
  if (deps.settings !== undefined && deps.model !== undefined) return deps;
  const engine = await loadEngineSettings();
  return {
    ...deps,
    settings: deps.settings === undefined ? (engine.settings ?? null) : deps.settings,
    model: deps.model === undefined ? engine.model : deps.model,
  };
}

/**
 * The configuration a question runs with: defaults ← CGRAG_* ← stored settings (the
 * caller's, else the admin's) ← quality preset ← the request's overrides.
 */
export async function questionConfig(
  overrides: RequestOverrides | undefined,
  deps: Pick<AskDependencies, "settings"> = {},
): Promise<CgragConfig> {
  const settings = deps.settings === undefined ? await loadStoredPatch() : deps.settings;
  return effectiveConfig({ envOverrides: env().cgragOverrides, settings, overrides });
}

/** Writes an answer's parts (to the stream and the stored message) and its notices, timing the first. */
export class AnswerWriter {
  readonly messageId = randomUUID();
  readonly assembler: MessageAssembler;
  readonly notices: NoticePart[] = [];
  firstPartMs = -1;

  constructor(
    writer: PartWriter,
    private readonly t0: number,
  ) {
    this.assembler = new MessageAssembler(writer);
  }

  emit(part: MessageChunk): void {
    if (this.firstPartMs < 0) this.firstPartMs = Math.round(performance.now() - this.t0);
    this.assembler.write(part);
  }

  notice(n: NoticePart): void {
    this.notices.push(n);
    this.emit({ type: "data-notice", id: `notice-${this.notices.length}`, data: n });
  }
}

export interface LoopSetup {
  question: string;
  repositoryId: string;
  generationId: string;
  classification: ClassificationPart;
  config: CgragConfig;
  session: SessionState;
  model: ConfiguredModel | null;
  signal?: AbortSignal;
  resume?: LoopResume;
}

/** The CGRAG loop wired to the index, the answerer and the stream; a failure still records a metric. */
export async function runAnswerLoop(
  setup: LoopSetup,
  out: AnswerWriter,
  deps: AskDependencies,
  timing: { quality: Quality; classifyMs: number; t0: number },
): Promise<LoopResult & { reader: SourceReader }> {
  const { classification, config, generationId, repositoryId, session, model } = setup;
  const anchors = extractAnchors(setup.question);
  const reader = new SourceReader(generationId);
  const fallback = new EvidenceEngine();
  const answerer =
    deps.answerer ?? (model ? new ModelAnswerer(model.model, model.label, model.timeoutMs) : fallback);
  try {
    const result = await runLoop(
      {
        question: setup.question,
        mode: classification.mode,
        secondaryMode: classification.secondaryMode,
        anchors,
        config,
        cache: session.cache,
        notFound: session.notFound,
        history: session.history,
        signal: setup.signal,
        resume: setup.resume,
      },
      {
        retrieve: (pass) =>
          retrieveForMode(
            {
              repositoryId,
              generationId,
              question: setup.question,
              mode: classification.mode,
              scope: classification.scope,
              anchors,
              config,
              reader,
              pass,
            },
            classification.secondaryMode,
          ),
        resolveGaps: (input) =>
          resolveGaps({ ...input, generationId, repositoryId, reader, config, mode: classification.mode }),
        buildGraph: (items) => buildEvidenceGraph(generationId, items),
        answerer,
        fallback,
      },
      {
        onPass: (pass) => out.emit({ type: "data-pass", id: `pass-${pass.pass}`, data: pass }),
        onTextStart: (pass) => out.emit({ type: "text-start", id: `answer-${pass}` }),
        onTextDelta: (pass, delta) => out.emit({ type: "text-delta", id: `answer-${pass}`, delta }),
        onTextEnd: (pass) => out.emit({ type: "text-end", id: `answer-${pass}` }),
        onFallback: (reason) =>
          out.notice({
            level: "warning",
            code: "provider_fallback",
            message: `${reason} Answering with the offline evidence engine instead.`,
          }),
      },
    );
    return { ...result, reader };
  } catch (error) {
    if (deps.ephemeral) throw error;
    await recordQuestionMetric({
      repositoryId,
      sessionId: session.id,
      mode: classification.mode,
      forcedMode: classification.forced,
      quality: timing.quality,
      passes: 0,
      gapsIdentified: 0,
      gapsResolved: 0,
      gapsUnresolved: 0,
      tokens: 0,
      latencyMs: Math.round(performance.now() - timing.t0),
      phases: { classifyMs: timing.classifyMs },
      fallback: false,
      error: error instanceof Error ? error.message.slice(0, 500) : String(error),
    }).catch(() => undefined);
    throw error;
  }
}

export interface FinishInput {
  question: string;
  repositoryId: string;
  generationId: string;
  classification: ClassificationPart;
  config: CgragConfig;
  quality: Quality;
  session: SessionState;
  /** the answer loop's result, with the file text it read (citations are checked against the same reads) */
  loop: LoopResult & { reader?: SourceReader };
}

/** The stored answer row (without its time: a new exchange and a continued answer place it differently). */
export interface StoredAnswer {
  askedAt: Date;
  row: Omit<MessageRow, "createdAt" | "id"> & { id: string };
}

/** Citations, diagram and metadata; the message, session state and metric stored; the stream finished. */
export async function finishAnswer(
  input: FinishInput,
  out: AnswerWriter,
  deps: AskDependencies,
  how: { classifyMs: number; t0: number; store: (answer: StoredAnswer) => Promise<void> },
): Promise<AskResult> {
  const { config, classification, session, repositoryId, generationId } = input;
  const { reader, ...loop } = input.loop;
  // Snippets show the lines that match the question asked (after follow-up rewriting).
  const asked = classification.rewrittenQuestion ?? input.question;
  const query = focusQuery(asked, extractAnchors(asked));
  const citations = await verifyAnswerCitations(
    loop.answer,
    generationId,
    reader ?? new SourceReader(generationId),
    query,
  );
  for (const c of citations.filter((x) => x.verified)) {
    out.emit({
      type: "source-url",
      sourceId: `${c.path}:${c.startLine}-${c.endLine}`,
      url: `/repos/${repositoryId}/source?path=${encodeURIComponent(c.path)}&lines=${c.startLine}-${c.endLine}&generation=${generationId}`,
      title: `${c.path}:${c.startLine}-${c.endLine}`,
    });
  }
  out.emit({ type: "data-citations", id: "citations", data: { items: citations } });
  if (loop.diagram) {
    const diagram = deps.drawDiagram ? await deps.drawDiagram(loop.diagram) : loop.diagram;
    out.emit({ type: "data-diagram", id: "diagram", data: diagram });
  }

  const totalMs = Math.round(performance.now() - how.t0);
  const userPasses = loop.passes.filter((p) => p.part.source === "user").length;
  const metadata: AnswerMetadata = {
    sessionId: session.id,
    repositoryId,
    generationId,
    mode: classification.mode,
    forcedMode: classification.forced,
    quality: input.quality,
    engine: loop.engine,
    passesUsed: loop.passesUsed,
    maxPasses: passLimit(config) + userPasses,
    ...(userPasses ? { userPasses } : {}),
    stopReason: loop.stopReason,
    gapsIdentified: loop.gapsIdentified,
    gapsResolved: loop.gapsResolved,
    gapsUnresolved: loop.gapsUnresolved,
    contextFromCache: loop.contextFromCache,
    confidence: confidenceOf(loop, citations, config),
    budget: loop.budget,
    timings: {
      totalMs,
      classifyMs: how.classifyMs,
      passesMs: loop.passes.map((p) => p.part.durationMs ?? 0),
      firstPartMs: Math.max(0, out.firstPartMs),
    },
    fallback: loop.fallback ? { reason: loop.fallback } : null,
    createdAt: new Date().toISOString(),
  };
  const { messageId, assembler } = out;
  // Only the final answer is kept as the message's text; earlier drafts stay in the stream.
  const finalTextIndex = assembler.parts.map((p) => p.type).lastIndexOf("text");
  const storedParts = assembler.parts.filter((p, i) => p.type !== "text" || i === finalTextIndex);
  const message: WayfinderUIMessage = { id: messageId, role: "assistant", metadata, parts: storedParts };
  const result = { sessionId: session.id, messageId, metadata, classification, loop, citations, message };
  if (deps.ephemeral) {
    out.emit({ type: "finish", messageMetadata: metadata });
    return result;
  }
  await how.store({
    // The answer is stamped a millisecond after its question so history order never ties.
    askedAt: new Date(),
    row: {
      id: messageId,
      sessionId: session.id,
      role: "assistant",
      content: loop.answer,
      parts: JSON.stringify(storedParts),
      metadata: JSON.stringify(metadata),
      generationId,
    },
  });
  await persistSession(session, loop.context, config.sessionMaxCachedSources);
  await recordQuestionMetric({
    repositoryId,
    sessionId: session.id,
    mode: classification.mode,
    forcedMode: classification.forced,
    quality: input.quality,
    passes: loop.passesUsed,
    gapsIdentified: loop.gapsIdentified.length,
    gapsResolved: loop.gapsResolved.length,
    gapsUnresolved: loop.gapsUnresolved.length,
    tokens: loop.budget.used,
    latencyMs: totalMs,
    phases: {
      classifyMs: how.classifyMs,
      passesMs: metadata.timings.passesMs,
      firstPartMs: metadata.timings.firstPartMs,
    },
    fallback: loop.fallback !== null,
    error: null,
  });
  out.emit({ type: "finish", messageMetadata: metadata });
  return result;
}

/** Confidence from the evidence: verified citations, resolved gaps, and how much was found. */
export function confidenceOf(
  loop: LoopResult,
  citations: CitationPart[],
  thresholds: Pick<CgragConfig, "highConfidenceThreshold" | "mediumConfidenceThreshold">,
): AnswerMetadata["confidence"] {
  const symbols = loop.context.filter((i) => i.facts).length;
  if (loop.context.length === 0 || citations.length === 0) return "low";
  const verified = citations.filter((c) => c.verified).length / citations.length;
  const gapRatio = loop.gapsIdentified.length ? loop.gapsUnresolved.length / loop.gapsIdentified.length : 0;
  const score = verified * 0.6 + (1 - gapRatio) * 0.25 + Math.min(1, symbols / 4) * 0.15;
  if (score >= thresholds.highConfidenceThreshold) return "high";
  if (score >= thresholds.mediumConfidenceThreshold) return "medium";
  return "low";
}
