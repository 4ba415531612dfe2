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
import { requireRepository } from "../db/repositories.ts";
import { appendExchange, getSession } from "../db/sessions.ts";
import { env } from "../env.ts";
import { WayfinderError } from "../errors.ts";
import { classifyQuestion } from "./classify.ts";
import { standaloneQuestion } from "./rewrite.ts";
import { assertMayContinue, EVERYONE } from "./conversations.ts";
import { openSession } from "./session.ts";
import type { ClassificationPart, Quality } from "./types.ts";
import {
  AnswerWriter,
  finishAnswer,
  questionConfig,
  runAnswerLoop,
  withSettings,
  type AskDependencies,
  type AskRequest,
  type AskResult,
  type PartWriter,
} from "./ask-run.ts";
import { resumeAnswer } from "./resume.ts";

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

// The question's API in one place for its callers (routes, CLI, MCP, bench, tests).
export {
  confidenceOf,
  questionConfig,
  type AskDependencies,
  type AskRequest,
  type AskResult,
  type MessageChunk,
  type PartWriter,
} from "./ask-run.ts";
export { prepareResume, type PreparedResume } from "./resume.ts";
