/**
 * One question, end to end: pin the repository's generation, open the session,
 * rewrite a follow-up, classify, run the CGRAG loop, verify citations, and emit
 * every step as typed UI message parts through the writer. The finished message,
 * the session state and a metrics row are stored before the stream finishes.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { InferUIMessageChunk } from "ai";
import { requireRepository } from "../db/index-store.ts";
import { recordQuestionMetric } from "../db/metrics.ts";
import { appendExchange, getSession } from "../db/sessions.ts";
import { env } from "../env.ts";
import { WayfinderError } from "../errors.ts";
import type { Answerer } from "../answerers/contract.ts";
import { EvidenceEngine } from "../answerers/evidence-engine.ts";
import { ModelAnswerer } from "../answerers/model-answerer.ts";
import { createLanguageModel, providerFromEnv, type ConfiguredModel } from "../answerers/providers.ts";
import { extractAnchors } from "../search/anchors.ts";
import { classifyQuestion } from "./classify.ts";
import { effectiveConfig, type CgragConfig, type RequestOverrides } from "./config.ts";
import { SourceReader } from "./context.ts";
import { buildEvidenceGraph } from "./evidence-graph.ts";
import { resolveGaps } from "./gap-resolution.ts";
import { runLoop, type LoopResult } from "./loop.ts";
import { retrieveForMode } from "./retrievers/index.ts";
import { standaloneQuestion } from "./rewrite.ts";
import { openSession, persistSession } from "./session.ts";
import type {
  AnswerMetadata,
  CitationPart,
  ClassificationPart,
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
}

export interface AskDependencies {
  /** the model to classify, rewrite and answer with; null = offline evidence engine */
  model?: ConfiguredModel | null;
  /** admin settings patch, applied over env overrides */
  settings?: unknown;
  /** replaces the answerer (tests script a model through ModelAnswerer) */
  answerer?: Answerer;
  /** benchmarks and scripts: no session, message or metric rows are written */
  ephemeral?: boolean;
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

/** The model configured for this process (null when offline). */
export function defaultModel(): Promise<ConfiguredModel | null> {
  return createLanguageModel(providerFromEnv());
}

/**
 * Everything that can refuse a question before any part is written: the question,
 * the repository and its index, and the session's owner. The /api/qa route calls it
 * before opening the stream so these come back as a 4xx status, not an in-stream error.
 */
export async function validateAskRequest(request: Pick<AskRequest, "repository" | "question" | "sessionId">) {
  const question = request.question.trim();
  if (!question) throw new WayfinderError("bad_request:question", "The question is empty.");
  const maxChars = env().WAYFINDER_MAX_QUESTION_CHARS;
  if (question.length > maxChars) {
    throw new WayfinderError(
      "payload_too_large:question",
      `The question is too long (${question.length} characters; the limit is ${maxChars}).`,
    );
  }
  const repository = await requireRepository(request.repository);
  const generationId = repository.activeGenerationId;
  if (!generationId) {
    throw new WayfinderError(
      "conflict:not_indexed",
      `Repository "${repository.name}" has no finished index yet.`,
    );
  }
  const existing = request.sessionId ? await getSession(request.sessionId) : null;
  if (existing && existing.repositoryId !== repository.id) {
    throw new WayfinderError("bad_request:session", "This session belongs to another repository.");
  }
  return { question, repository, generationId };
}

export const DATABASE_UNAVAILABLE =
  "The database is unavailable, so this answer could not be finished or saved. " +
  "Your earlier conversations are kept; try again in a moment.";

/**
 * A failure of the database layer (a lost or closed connection, a file that cannot be
 * opened, a locked database) as the one clear, retryable error the chat shows; other
 * errors pass through. The cause is kept for the server log.
 */
export function asDatabaseUnavailable(error: unknown): unknown {
  const fromDatabase =
    (error instanceof WayfinderError && error.code === "unavailable:database") ||
    (error instanceof Error && /^(PrismaClient\w*Error|LibsqlError|DriverAdapterError)$/.test(error.name));
  return fromDatabase
    ? new WayfinderError("unavailable:database", DATABASE_UNAVAILABLE, { cause: error })
    : error;
}

export async function askQuestion(
  request: AskRequest,
  writer: PartWriter,
  deps: AskDependencies = {},
): Promise<AskResult> {
  try {
    return await answerQuestion(request, writer, deps);
  } catch (error) {
    throw asDatabaseUnavailable(error);
  }
}

async function answerQuestion(
  request: AskRequest,
  writer: PartWriter,
  deps: AskDependencies,
): Promise<AskResult> {
  const t0 = performance.now();
  const { question, repository, generationId } = await validateAskRequest(request);
  const messageId = randomUUID();
  const assembler = new MessageAssembler(writer);
  let firstPartMs = -1;
  const emit = (part: MessageChunk) => {
    if (firstPartMs < 0) firstPartMs = Math.round(performance.now() - t0);
    assembler.write(part);
  };
  const quality: Quality = request.overrides?.quality ?? "balanced";
  const config: CgragConfig = effectiveConfig({
    envOverrides: env().cgragOverrides,
    settings: deps.settings,
    overrides: request.overrides,
  });
  const model = deps.model === undefined ? await defaultModel() : deps.model;
  const session = deps.ephemeral
    ? {
        id: randomUUID(),
        isNew: true,
        expired: false,
        generationId,
        cache: [],
        notFound: new Set<string>(),
        history: [],
      }
    : await openSession({
        sessionId: request.sessionId,
        repositoryId: repository.id,
        generationId,
        title: question.slice(0, 120),
        ttlMinutes: config.sessionTtlMinutes,
      });
  emit({
    type: "start",
    messageId,
    messageMetadata: { sessionId: session.id, repositoryId: repository.id, generationId },
  });

  const notices: NoticePart[] = [];
  const notice = (n: NoticePart) => {
    notices.push(n);
    emit({ type: "data-notice", id: `notice-${notices.length}`, data: n });
  };
  if (session.expired) {
    notice({
      level: "info",
      code: "session_refreshed",
      message: "This session's cached context expired or the index changed, so retrieval starts fresh.",
    });
  }

  const tClassify = performance.now();
  const rewrite = config.features.useQuestionRewrite
    ? await standaloneQuestion(question, session.history, model)
    : { question, rewritten: false };
  const { classification: classified, modelError } = await classifyQuestion(rewrite.question, {
    forcedMode: request.overrides?.mode,
    model,
    signal: request.signal,
  });
  const classification: ClassificationPart = {
    ...classified,
    rewrittenQuestion: rewrite.rewritten ? rewrite.question : null,
  };
  const classifyMs = Math.round(performance.now() - tClassify);
  emit({ type: "data-classification", id: "classification", data: classification });
  if (modelError) {
    notice({
      level: "warning",
      code: "classifier_fallback",
      message: `The model could not classify the question (${modelError}); the trained classifier did.`,
    });
  }

  const anchors = extractAnchors(rewrite.question);
  const reader = new SourceReader(generationId);
  const fallback = new EvidenceEngine();
  const answerer =
    deps.answerer ?? (model ? new ModelAnswerer(model.model, model.label, model.timeoutMs) : fallback);
  let loop: LoopResult;
  try {
    loop = await runLoop(
      {
        question: rewrite.question,
        mode: classification.mode,
        secondaryMode: classification.secondaryMode,
        anchors,
        config,
        cache: session.cache,
        notFound: session.notFound,
        history: session.history,
        signal: request.signal,
      },
      {
        retrieve: (pass) =>
          retrieveForMode(
            {
              repositoryId: repository.id,
              generationId,
              question: rewrite.question,
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
          resolveGaps({
            ...input,
            generationId,
            repositoryId: repository.id,
            reader,
            config,
            mode: classification.mode,
          }),
        buildGraph: (items) => buildEvidenceGraph(generationId, items),
        answerer,
        fallback,
      },
      {
        onPass: (pass) => emit({ type: "data-pass", id: `pass-${pass.pass}`, data: pass }),
        onTextStart: (pass) => emit({ type: "text-start", id: `answer-${pass}` }),
        onTextDelta: (pass, delta) => emit({ type: "text-delta", id: `answer-${pass}`, delta }),
        onTextEnd: (pass) => emit({ type: "text-end", id: `answer-${pass}` }),
        onFallback: (reason) =>
          notice({
            level: "warning",
            code: "provider_fallback",
            message: `${reason} Answering with the offline evidence engine instead.`,
          }),
      },
    );
  } catch (error) {
    if (deps.ephemeral) throw error;
    await recordQuestionMetric({
      repositoryId: repository.id,
      sessionId: session.id,
      mode: classification.mode,
      forcedMode: classification.forced,
      quality,
      passes: 0,
      gapsIdentified: 0,
      gapsResolved: 0,
      gapsUnresolved: 0,
      tokens: 0,
      latencyMs: Math.round(performance.now() - t0),
      phases: { classifyMs },
      fallback: false,
      error: error instanceof Error ? error.message.slice(0, 500) : String(error),
    }).catch(() => undefined);
    throw error;
  }

  const citations = await verifyAnswerCitations(loop.answer, generationId, reader);
  for (const c of citations.filter((x) => x.verified)) {
    emit({
      type: "source-url",
      sourceId: `${c.path}:${c.startLine}-${c.endLine}`,
      url: `/repos/${repository.id}/source?path=${encodeURIComponent(c.path)}&lines=${c.startLine}-${c.endLine}&generation=${generationId}`,
      title: `${c.path}:${c.startLine}-${c.endLine}`,
    });
  }
  emit({ type: "data-citations", id: "citations", data: { items: citations } });
  if (loop.diagram) emit({ type: "data-diagram", id: "diagram", data: loop.diagram });

  const totalMs = Math.round(performance.now() - t0);
  const metadata: AnswerMetadata = {
    sessionId: session.id,
    repositoryId: repository.id,
    generationId,
    mode: classification.mode,
    forcedMode: classification.forced,
    quality,
    engine: loop.engine,
    passesUsed: loop.passesUsed,
    maxPasses: config.features.useGapResolution ? config.maxPasses : 1,
    stopReason: loop.stopReason,
    gapsIdentified: loop.gapsIdentified,
    gapsResolved: loop.gapsResolved,
    gapsUnresolved: loop.gapsUnresolved,
    contextFromCache: loop.contextFromCache,
    confidence: confidenceOf(loop, citations, config),
    budget: loop.budget,
    timings: {
      totalMs,
      classifyMs,
      passesMs: loop.passes.map((p) => p.part.durationMs ?? 0),
      firstPartMs: Math.max(0, firstPartMs),
    },
    fallback: loop.fallback ? { reason: loop.fallback } : null,
    createdAt: new Date().toISOString(),
  };
  // Only the final answer is kept as the message's text; earlier drafts stay in the stream.
  const finalTextIndex = assembler.parts.map((p) => p.type).lastIndexOf("text");
  const storedParts = assembler.parts.filter((p, i) => p.type !== "text" || i === finalTextIndex);
  const message: WayfinderUIMessage = { id: messageId, role: "assistant", metadata, parts: storedParts };
  if (deps.ephemeral) {
    emit({ type: "finish", messageMetadata: metadata });
    return { sessionId: session.id, messageId, metadata, classification, loop, citations, message };
  }
  // The answer is stamped a millisecond after its question so history order never ties.
  const askedAt = new Date();
  await appendExchange(
    {
      createdAt: askedAt,
      sessionId: session.id,
      role: "user",
      content: question,
      parts: JSON.stringify([{ type: "text", text: question }]),
      metadata: JSON.stringify({ overrides: request.overrides ?? {} }),
      generationId,
    },
    {
      createdAt: new Date(askedAt.getTime() + 1),
      id: messageId,
      sessionId: session.id,
      role: "assistant",
      content: loop.answer,
      parts: JSON.stringify(storedParts),
      metadata: JSON.stringify(metadata),
      generationId,
    },
  );
  await persistSession(session, loop.context, config.sessionMaxCachedSources);
  await recordQuestionMetric({
    repositoryId: repository.id,
    sessionId: session.id,
    mode: classification.mode,
    forcedMode: classification.forced,
    quality,
    passes: loop.passesUsed,
    gapsIdentified: loop.gapsIdentified.length,
    gapsResolved: loop.gapsResolved.length,
    gapsUnresolved: loop.gapsUnresolved.length,
    tokens: loop.budget.used,
    latencyMs: totalMs,
    phases: { classifyMs, passesMs: metadata.timings.passesMs, firstPartMs: metadata.timings.firstPartMs },
    fallback: loop.fallback !== null,
    error: null,
  });
  emit({ type: "finish", messageMetadata: metadata });
  return { sessionId: session.id, messageId, metadata, classification, loop, citations, message };
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
