/**
 * Continuing the session's last answer from context the user provided for the gaps it
 * left open (lib/qa/gap-answers.ts): everything is checked before anything is written,
 * then the loop resumes from the pass that left them open and the stored answer is
 * replaced.
 */
import "server-only";
import { getGeneration } from "../db/generations.ts";
import { requireRepository } from "../db/repositories.ts";
import { getSession, lastExchange, replaceAnswer } from "../db/sessions.ts";
import { WayfinderError } from "../errors.ts";
import type { RequestOverrides } from "../settings/config.ts";
import { SourceReader } from "./context.ts";
import { answersOf, provideGapAnswers, type GapAnswer } from "./gap-answers.ts";
import { resumePassNumber, type LoopResume } from "./loop.ts";
import { fillableGaps } from "./passes.ts";
import { assertMayContinue, EVERYONE } from "./conversations.ts";
import { openSession } from "./session.ts";
import type { ClassificationPart, NoticePart, PassPart, Quality, WayfinderUIMessage } from "./types.ts";
import {
  AnswerWriter,
  finishAnswer,
  questionConfig,
  runAnswerLoop,
  type AskDependencies,
  type AskRequest,
  type AskResult,
  type MessageChunk,
  type PartWriter,
} from "./ask-run.ts";

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
export async function resumeAnswer(
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
