/**
 * POST checks what a user provides for an answer's open gaps before the answer is
 * continued (the conversation's owner; 404 for anyone else): every gap must be open and every named location in the answer's
 * index generation. Returns where each location led, or the 4xx the continuation would
 * get; nothing is written. The chat's "I know where this is" form asks this first, so a
 * mistyped path is reported beside the form and the answer on screen stays.
 */
import { conversationsOf } from "@/lib/auth/conversation-owner";
import { prepareResume } from "@/lib/qa/ask";
import { apiRoute } from "../../../api-route";
import { parseJsonBody } from "../../../parse-request";
import { gapAnswersCheckSchema } from "./schema";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ params: Promise<{ id: string }> }>(
  { access: "reader" },
  async (request, identity, context) => {
    const { id } = await context.params;
    const body = await parseJsonBody(request, gapAnswersCheckSchema, "gap_answer");
    const prepared = await prepareResume({
      repository: body.repositoryId,
      sessionId: id,
      answerId: body.answerId,
      gapAnswers: body.gapAnswers,
      conversations: conversationsOf(request.headers, identity).access,
    });
    return Response.json({
      pass: prepared.resume.pass,
      gaps: prepared.resume.provided.reports.map((r) => ({
        gap: r.gap,
        found: r.found,
        note: r.note,
        excerpt: r.excerpt !== undefined,
      })),
    });
  },
);
