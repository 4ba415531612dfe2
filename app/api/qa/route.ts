import { createUIMessageStream, createUIMessageStreamResponse } from "ai";
import { conversationsOf } from "@/lib/auth/conversation-owner";
import { withLayout } from "@/lib/diagrams/layout";
import { removeLastExchange } from "@/lib/db/sessions";
import { asDatabaseUnavailable, askQuestion, prepareResume, validateAskRequest } from "@/lib/qa/ask";
import type { WayfinderUIMessage } from "@/lib/qa/types";
import { WayfinderError, asWayfinderError } from "@/lib/errors";
import { apiRoute } from "../api-route";
import { readJsonBody } from "../parse-request";
import { MAX_BODY_BYTES, qaRequestSchema, questionOf } from "./schema";

export const dynamic = "force-dynamic";
export const maxDuration = 300;

/** POST /api/qa: one question in, one UI message stream out (classification, passes, answer, citations). */
export const POST = apiRoute(
  { access: "reader", limit: "question", mapError: asDatabaseUnavailable },
  async (request, identity) => {
    const json = await readJsonBody(request, { surface: "json", maxBytes: MAX_BODY_BYTES });
    const parsed = qaRequestSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new WayfinderError(
        "bad_request:qa",
        `Invalid request: ${issue?.path.join(".") || "body"} ${issue?.message ?? ""}`.trim(),
      );
    }
    const body = parsed.data;
    const sessionId = body.sessionId ?? body.id;
    const gapAnswers = body.gapAnswers;
    const question = questionOf(parsed.data) ?? "";
    // Whose conversations the caller may continue; a browser without an id gets one now.
    const { access: conversations, setCookie } = conversationsOf(request.headers, identity, request);
    // Refuse what we can before streaming: once the stream starts the status is 200.
    if (gapAnswers) {
      // Continuing an answer: every gap and location is checked now, so a bad one is a 4xx
      // and the answer on screen stays as it was.
      await prepareResume({
        repository: body.repositoryId,
        sessionId,
        gapAnswers,
        answerId: body.messageId,
        conversations,
      });
    } else {
      if (!question.trim()) throw new WayfinderError("bad_request:question", "The question is empty.");
      await validateAskRequest({ repository: body.repositoryId, question, sessionId, conversations });
      // Retry (useChat regenerate) replaces the last exchange rather than storing the question twice.
      if (body.trigger === "regenerate-message" && sessionId) await removeLastExchange(sessionId, question);
    }
    const stream = createUIMessageStream<WayfinderUIMessage>({
      execute: async ({ writer }) => {
        await askQuestion(
          {
            repository: body.repositoryId,
            question,
            sessionId,
            overrides: body.options,
            signal: request.signal,
            conversations,
            gapAnswers,
            answerId: body.messageId,
          },
          writer,
          { drawDiagram: withLayout },
        );
      },
      onError: (error) => {
        const e = asWayfinderError(error);
        if (e.type === "internal" || e.type === "unavailable")
          console.error("[wayfinder] /api/qa failed:", e.cause ?? error);
        return e.message;
      },
    });
    return createUIMessageStreamResponse({
      stream,
      headers: setCookie ? { "set-cookie": setCookie } : undefined,
    });
  },
);
