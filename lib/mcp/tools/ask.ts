/**
 * ask: one question through the same orchestrator as /api/qa and the CLI
 * (lib/qa/ask.ts), with progress per pass, reshaped as structured evidence: claims
 * with their verified citations, gaps resolved and unresolved, mode, passes, and the
 * generation and commit the answer was pinned to. sessionId + gapAnswers continues the
 * session's last answer from what the caller provides for its open gaps.
 */
import "server-only";
import { z } from "zod";
import { getGeneration } from "../../db/generations.ts";
import { askOptionsShape, modeSchema, sessionIdSchema } from "../../qa/ask-options.ts";
import { askQuestion, prepareResume, questionConfig, type AskResult } from "../../qa/ask.ts";
import { claimsOf, type Claim } from "../../qa/claims.ts";
import type { ConversationAccess } from "../../qa/conversations.ts";
import { gapAnswersSchema, type GapAnswer } from "../../qa/gap-answers.ts";
import { gapReportsOf } from "../../qa/loop.ts";
import { passLimit } from "../../qa/passes.ts";
import type { CitationPart, Quality, QueryMode } from "../../qa/types.ts";
import { ProgressWriter, progressNotifier, type AskProgress } from "../ask-progress.ts";
import { pin, type IndexRef } from "../pin.ts";
import { indexRef, repository } from "../schemas.ts";
import { defineTool } from "../tool.ts";

const citation = z.object({
  path: z.string(),
  startLine: z.number().int(),
  endLine: z.number().int(),
  verified: z.boolean().describe("the file, lines and named symbol exist in the index generation"),
  symbol: z.string().nullable(),
  reason: z.string().nullable().describe("why an unverified citation failed"),
  snippet: z
    .string()
    .nullable()
    .describe(
      "the lines of the span that answer, as indexed (verified citations only; they are at shownLines)",
    ),
  shownLines: z
    .object({ startLine: z.number().int(), endLine: z.number().int() })
    .nullable()
    .describe(
      "where the snippet's lines are inside the span: what matches the question, else the body's first lines",
    ),
});

const input = {
  repository,
  question: z
    .string()
    .max(200_000)
    .optional()
    .describe("The question; not needed when gapAnswers continues the session's last answer."),
  ...askOptionsShape,
  sessionId: sessionIdSchema.optional().describe("Continue a conversation (follow-ups reuse its context)."),
  gapAnswers: gapAnswersSchema
    .optional()
    .describe(
      "Fill unresolved gaps of the session's last answer, which then continues from that pass: per gap, " +
        "a location of the repository (file, folder, symbol or path:start-end, checked against the index) " +
        "or a short code excerpt (marked as provided by the user, not verified).",
    ),
};

const output = {
  index: indexRef,
  answer: z.string(),
  claims: z.array(z.object({ text: z.string(), verified: z.boolean(), citations: z.array(citation) })),
  citations: z.array(citation),
  gaps: z.object({
    identified: z.array(z.string()),
    resolved: z.array(
      z.object({
        gap: z.string(),
        via: z.string().nullable(),
        found: z.array(z.string()),
        note: z.string().nullable(),
      }),
    ),
    unresolved: z.array(
      z.object({ gap: z.string(), searched: z.array(z.string()), note: z.string().nullable() }),
    ),
  }),
  mode: modeSchema,
  scope: z.string().nullable(),
  passes: z.object({
    used: z.number().int(),
    max: z.number().int(),
    stopReason: z.string().nullable(),
  }),
  confidence: z.enum(["high", "medium", "low"]),
  engine: z.string(),
  fallback: z.string().nullable(),
  sessionId: z.string(),
};

interface AskInput {
  repository: string;
  question?: string;
  mode?: QueryMode;
  quality?: Quality;
  maxPasses?: number;
  sessionId?: string;
  gapAnswers?: GapAnswer[];
}

interface AskOptions {
  signal?: AbortSignal;
  onProgress?: (p: AskProgress) => void;
  /** whose conversations `sessionId` may continue (HTTP: the caller's) */
  conversations?: ConversationAccess;
}

/**
 * The pass limit progress is reported against. Continuing an answer: it keeps the
 * options it was asked with, and each pass answered from what a user provided adds one
 * to the limit, as the answer's metadata counts it (checked here, before any progress
 * is sent).
 */
async function progressTotal(input: AskInput, index: IndexRef, options: AskOptions): Promise<number> {
  const overrides = { mode: input.mode, quality: input.quality, maxPasses: input.maxPasses };
  const resumed = input.gapAnswers
    ? await prepareResume({
        repository: index.repositoryId,
        sessionId: input.sessionId,
        gapAnswers: input.gapAnswers,
        conversations: options.conversations,
      })
    : null;
  const userPasses = resumed
    ? resumed.resume.priorPasses.filter((p) => p.source === "user" && p.pass < resumed.resume.pass).length + 1
    : 0;
  return passLimit(await questionConfig(resumed?.overrides ?? overrides)) + userPasses;
}

const citationView = (c: CitationPart) => ({
  path: c.path,
  startLine: c.startLine,
  endLine: c.endLine,
  verified: c.verified,
  symbol: c.symbol,
  reason: c.reason,
  snippet: c.snippet,
  shownLines: c.shown ?? null,
});

/** The orchestrator's result as the tool's structured output. */
async function answerView(result: AskResult, index: IndexRef) {
  const m = result.metadata;
  // The generation the answer was pinned to (a re-index may have flipped since `pin`).
  const generation = await getGeneration(m.generationId);
  // Each gap's latest report: one the user filled after the loop could not is resolved.
  const reports = [...new Map(gapReportsOf(result.loop.passes).map((g) => [g.gap, g])).values()];
  const claims: Claim[] = claimsOf(result.loop.answer, result.citations);
  return {
    index: {
      ...index,
      generation: generation?.number ?? index.generation,
      commit: generation?.commitSha ?? index.commit,
    },
    answer: result.loop.answer,
    claims: claims.map((c) => ({
      text: c.text,
      verified: c.verified,
      citations: c.citations.map(citationView),
    })),
    citations: result.citations.map(citationView),
    gaps: {
      identified: m.gapsIdentified,
      resolved: reports
        .filter((g) => g.status === "resolved")
        .map((g) => ({ gap: g.gap, via: g.via, found: g.found, note: g.note })),
      unresolved: reports
        .filter((g) => g.status !== "resolved")
        .map((g) => ({ gap: g.gap, searched: g.searched, note: g.note })),
    },
    mode: m.mode,
    scope: result.classification.scope,
    passes: { used: m.passesUsed, max: m.maxPasses, stopReason: m.stopReason },
    confidence: m.confidence,
    engine: m.engine,
    fallback: m.fallback?.reason ?? null,
    sessionId: m.sessionId,
  };
}

async function ask(input: AskInput, options: AskOptions = {}) {
  const { index } = await pin(input.repository);
  const total = await progressTotal(input, index, options);
  const writer = new ProgressWriter(total, (p) => options.onProgress?.(p));
  const result = await askQuestion(
    {
      repository: index.repositoryId,
      question: input.question ?? "",
      sessionId: input.sessionId,
      overrides: { mode: input.mode, quality: input.quality, maxPasses: input.maxPasses },
      signal: options.signal,
      conversations: options.conversations,
      gapAnswers: input.gapAnswers,
    },
    writer,
  );
  return answerView(result, index);
}

export const askTool = defineTool({
  name: "ask",
  title: "Ask",
  description:
    "Answer a question with the CGRAG loop: claims with verified citations, gaps resolved and unresolved, " +
    "mode and passes; progress per pass. sessionId + gapAnswers continues its last answer.",
  input,
  output,
  async handle(args, { options, extra }) {
    await options.ask?.before();
    return ask(args, {
      signal: extra.signal,
      conversations: options.ask?.conversations,
      onProgress: progressNotifier(extra),
    });
  },
});
