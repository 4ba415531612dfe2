/**
 * One question, end to end: pin the repository's generation, open the session,
 * rewrite a follow-up, classify, run the CGRAG loop, verify citations, and emit
 * every step as typed UI message parts through the writer. The finished message,
 * the session state and a metrics row are stored before the stream finishes.
 * With gap answers, the session's last answer is continued instead, from context the
 * user provided for the gaps it left open (lib/qa/gap-answers.ts).
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { InferUIMessageChunk } from "ai";
import { getGeneration } from "../db/generations.ts";
import { requireRepository } from "../db/repositories.ts";
import { recordQuestionMetric } from "../db/metrics.ts";
import { appendExchange, getSession, lastExchange, replaceAnswer, type MessageRow } from "../db/sessions.ts";
import { env } from "../env.ts";
import { WayfinderError } from "../errors.ts";
import type { Answerer } from "../answerers/contract.ts";
import { EvidenceEngine } from "../answerers/evidence-engine.ts";
import { ModelAnswerer } from "../answerers/model-answerer.ts";
import type { ConfiguredModel } from "../answerers/providers.ts";
import { extractAnchors } from "../search/anchors.ts";
import { classifyQuestion } from "./classify.ts";
import { effectiveConfig, type CgragConfig, type RequestOverrides } from "../settings/config.ts";
import { loadEngineSettings, loadStoredPatch } from "../settings/load.ts";
import { SourceReader } from "./context.ts";
import { buildEvidenceGraph } from "./evidence-graph.ts";
import { answersOf, provideGapAnswers, type GapAnswer } from "./gap-answers.ts";
import { resolveGaps } from "./gap-resolution.ts";
import { resumePassNumber, runLoop, type LoopResult, type LoopResume } from "./loop.ts";
import { fillableGaps, passLimit } from "./passes.ts";
import { retrieveForMode } from "./retrievers/index.ts";
import { standaloneQuestion } from "./rewrite.ts";
import { assertMayContinue, EVERYONE, type ConversationAccess } from "./conversations.ts";
import { openSession, persistSession, type SessionState } from "./session.ts";
import type {
  AnswerMetadata,
  CitationPart,
  ClassificationPart,
  DiagramPart,
  NoticePart,
  PassPart,
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
 * Everything that can refuse a question before any part is written: the question,
 * the repository and its index, and the session's owner. The /api/qa route calls it
 * before opening the stream so these come back as a 4xx status, not an in-stream error.
 */
export async function validateAskRequest(
  request: Pick<AskRequest, "repository" | "question" | "sessionId" | "conversations">,
) {
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
  // Someone else's conversation is "no such session", before its repository is compared.
  if (existing) assertMayContinue(existing, request.conversations ?? EVERYONE);
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
    return await answerQuestion(request, writer, await withSettings(deps));
  } catch (error) {
    throw asDatabaseUnavailable(error);
  }
}

async function answerQuestion(
  request: AskRequest,
  writer: PartWriter,
  deps: AskDependencies,
): Promise<AskResult> {
  if (request.gapAnswers) return resumeAnswer(request, request.gapAnswers, writer, deps);
  const t0 = performance.now();
  const { question, repository, generationId } = await validateAskRequest(request);
  const out = new AnswerWriter(writer, t0);
  const quality: Quality = request.overrides?.quality ?? "balanced";
  const config = await questionConfig(request.overrides, deps);
  const model = deps.model ?? null;
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
        conversations: request.conversations,
      });
  out.emit({
    type: "start",
    messageId: out.messageId,
    messageMetadata: { sessionId: session.id, repositoryId: repository.id, generationId },
  });
  if (session.expired) {
    out.notice({
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
  out.emit({ type: "data-classification", id: "classification", data: classification });
  if (modelError) {
    out.notice({
      level: "warning",
      code: "classifier_fallback",
      message: `The model could not classify the question (${modelError}); the trained classifier did.`,
    });
  }

  const loop = await runAnswerLoop(
    {
      question: rewrite.question,
      repositoryId: repository.id,
      generationId,
      classification,
      config,
      session,
      model,
      signal: request.signal,
    },
    out,
    deps,
    { quality, classifyMs, t0 },
  );
  return finishAnswer(
    { question, repositoryId: repository.id, generationId, classification, config, quality, session, loop },
    out,
    deps,
    {
      classifyMs,
      t0,
      store: (answer) =>
        appendExchange(
          {
            createdAt: answer.askedAt,
            sessionId: session.id,
            role: "user",
            content: question,
            parts: JSON.stringify([{ type: "text", text: question }]),
            metadata: JSON.stringify({ overrides: request.overrides ?? {} }),
            generationId,
          },
          { ...answer.row, createdAt: new Date(answer.askedAt.getTime() + 1) },
        ),
    },
  );
}

/**
 * The admin's settings and model choice, read for each question so a change applies
 * without a restart; what the caller gave (tests, scripts) stands.
 */
async function withSettings(deps: AskDependencies): Promise<AskDependencies> {
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
class AnswerWriter {
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

interface LoopSetup {
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
async function runAnswerLoop(
  setup: LoopSetup,
  out: AnswerWriter,
  deps: AskDependencies,
  timing: { quality: Quality; classifyMs: number; t0: number },
): Promise<LoopResult> {
  const { classification, config, generationId, repositoryId, session, model } = setup;
  const anchors = extractAnchors(setup.question);
  const reader = new SourceReader(generationId);
  const fallback = new EvidenceEngine();
  const answerer =
    deps.answerer ?? (model ? new ModelAnswerer(model.model, model.label, model.timeoutMs) : fallback);
  try {
    return await runLoop(
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

interface FinishInput {
  question: string;
  repositoryId: string;
  generationId: string;
  classification: ClassificationPart;
  config: CgragConfig;
  quality: Quality;
  session: SessionState;
  loop: LoopResult;
}

/** The stored answer row (without its time: a new exchange and a continued answer place it differently). */
interface StoredAnswer {
  askedAt: Date;
  row: Omit<MessageRow, "createdAt" | "id"> & { id: string };
}

/** Citations, diagram and metadata; the message, session state and metric stored; the stream finished. */
async function finishAnswer(
  input: FinishInput,
  out: AnswerWriter,
  deps: AskDependencies,
  how: { classifyMs: number; t0: number; store: (answer: StoredAnswer) => Promise<void> },
): Promise<AskResult> {
  const { loop, config, classification, session, repositoryId, generationId } = input;
  const citations = await verifyAnswerCitations(loop.answer, generationId, new SourceReader(generationId));
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

// ------------------------------------------------------------- continuing an answer

/** What continuing the session's last answer needs, all checked before anything is written. */
export interface PreparedResume {
  sessionId: string;
  question: string;
  /** the answer being continued */
  answerId: string;
  generationId: string;
  overrides: RequestOverrides;
  classification: ClassificationPart;
  /** its stored parts that stay: classification, notices and the passes before the resuming one */
  keptParts: WayfinderUIMessage["parts"];
  resume: LoopResume;
}

function storedJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/**
 * Checks a request to continue the session's last answer with gaps the user filled:
 * the session and its last answer exist (and are the one asked about), each gap is one
 * that answer left open, the generation it was checked against is still kept, and every
 * named location is in that generation. Refuses with a clear error otherwise.
 */
export async function prepareResume(
  request: Pick<AskRequest, "repository" | "sessionId" | "answerId" | "gapAnswers" | "conversations">,
  deps: Pick<AskDependencies, "settings"> = {},
): Promise<PreparedResume> {
  const gapAnswers = request.gapAnswers ?? [];
  const repository = await requireRepository(request.repository);
  if (!request.sessionId)
    throw new WayfinderError(
      "bad_request:gap_answer",
      "Filling a gap continues an answer: name its session.",
    );
  const session = await getSession(request.sessionId);
  if (!session || session.repositoryId !== repository.id)
    throw new WayfinderError("not_found:session", "No such session in this repository.");
  // Continuing an answer adds to the conversation: only its owner may.
  assertMayContinue(session, request.conversations ?? EVERYONE);
  const exchange = await lastExchange(session.id);
  if (!exchange)
    throw new WayfinderError("conflict:gap_answer", "This conversation has no answer to continue.");
  if (request.answerId && request.answerId !== exchange.answer.id)
    throw new WayfinderError(
      "conflict:gap_answer",
      "Only the latest answer of a conversation can be continued: the questions after it built on it.",
    );
  const parts = storedJson<WayfinderUIMessage["parts"]>(exchange.answer.parts, []);
  const passes = new Map<number, PassPart>();
  let classification: ClassificationPart | null = null;
  for (const part of parts) {
    if (part.type === "data-pass") passes.set((part.data as PassPart).pass, part.data as PassPart);
    if (part.type === "data-classification") classification = part.data as ClassificationPart;
  }
  const priorPasses = [...passes.values()].sort((a, b) => a.pass - b.pass);
  if (!classification || priorPasses.length === 0)
    throw new WayfinderError("conflict:gap_answer", "This answer was stored without its passes; ask again.");
  const open = new Set(fillableGaps(priorPasses));
  for (const answer of gapAnswers) {
    if (!open.has(answer.gap))
      throw new WayfinderError(
        "bad_request:gap_answer",
        `"${answer.gap}" is not a gap this answer left open (open: ${[...open].join(", ") || "none"}).`,
      );
  }
  const generation = await getGeneration(exchange.answer.generationId);
  if (!generation || (generation.status !== "ready" && generation.status !== "superseded"))
    throw new WayfinderError(
      "conflict:gap_answer",
      "The index this answer was checked against has been replaced since; ask the question again.",
    );
  const overrides =
    storedJson<{ overrides?: RequestOverrides }>(exchange.question.metadata, {}).overrides ?? {};
  const config = await questionConfig(overrides, deps);
  const pass = resumePassNumber(priorPasses);
  const reader = new SourceReader(generation.id);
  const indexName = `${repository.name} (generation ${generation.number})`;
  const locateAt = (number: number) => ({
    generationId: generation.id,
    reader,
    budget: config.perGapBudget * 2,
    pass: number,
    indexName,
  });
  const provided = await provideGapAnswers(gapAnswers, locateAt(pass));
  const earlier = (
    await Promise.all(
      priorPasses
        .filter((p) => p.source === "user" && p.pass < pass)
        .map((p) => provideGapAnswers(answersOf(p.gaps), locateAt(p.pass)).catch(() => ({ items: [] }))),
    )
  ).flatMap((r) => r.items);
  const keptParts = parts.filter(
    (p) =>
      p.type === "data-classification" ||
      p.type === "data-notice" ||
      (p.type === "data-pass" && (p.data as PassPart).pass < pass),
  );
  return {
    sessionId: session.id,
    question: exchange.question.content,
    answerId: exchange.answer.id,
    generationId: generation.id,
    overrides,
    classification,
    keptParts,
    resume: { priorPasses, pass, provided, earlier },
  };
}

/**
 * Continues the session's last answer from context the user provided for its open
 * gaps: its earlier passes are shown as they were, a pass answers from what the user
 * gave, and the loop goes on; the continued answer replaces the stored one.
 */
async function resumeAnswer(
  request: AskRequest,
  gapAnswers: GapAnswer[],
  writer: PartWriter,
  deps: AskDependencies,
): Promise<AskResult> {
  const t0 = performance.now();
  const prepared = await prepareResume({ ...request, gapAnswers }, deps);
  const repository = await requireRepository(request.repository);
  const config = await questionConfig(prepared.overrides, deps);
  const quality: Quality = prepared.overrides.quality ?? "balanced";
  const model = deps.model ?? null;
  const session = await openSession({
    sessionId: prepared.sessionId,
    repositoryId: repository.id,
    generationId: prepared.generationId,
    title: prepared.question.slice(0, 120),
    ttlMinutes: config.sessionTtlMinutes,
  });
  const out = new AnswerWriter(writer, t0);
  out.emit({
    type: "start",
    messageId: out.messageId,
    messageMetadata: {
      sessionId: session.id,
      repositoryId: repository.id,
      generationId: prepared.generationId,
    },
  });
  for (const part of prepared.keptParts) {
    if (part.type === "data-notice") out.notice(part.data as NoticePart);
    else out.emit(part as MessageChunk);
  }
  const classification = prepared.classification;
  const question = classification.rewrittenQuestion ?? prepared.question;
  const loop = await runAnswerLoop(
    {
      question,
      repositoryId: repository.id,
      generationId: prepared.generationId,
      classification,
      config,
      session,
      model,
      signal: request.signal,
      resume: prepared.resume,
    },
    out,
    deps,
    { quality, classifyMs: 0, t0 },
  );
  return finishAnswer(
    {
      question: prepared.question,
      repositoryId: repository.id,
      generationId: prepared.generationId,
      classification,
      config,
      quality,
      session,
      loop,
    },
    out,
    deps,
    { classifyMs: 0, t0, store: (answer) => replaceAnswer(prepared.answerId, answer.row) },
  );
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
