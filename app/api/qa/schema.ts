import { z } from "zod";
import { askOptionsShape, sessionIdSchema } from "@/lib/qa/ask-options";
import { gapAnswersSchema } from "@/lib/qa/gap-answers";

const options = z.object(askOptionsShape).strict().optional();

const textPart = z.object({ type: z.literal("text"), text: z.string() }).passthrough();

/**
 * Accepts useChat's default body ({ id, messages, … } plus our repositoryId/options)
 * or a plain { repositoryId, question, sessionId } for scripts; with `gapAnswers`, the
 * session's last answer is continued instead (the chat sends it as a regenerate of that
 * answer, scripts as { repositoryId, sessionId, gapAnswers }).
 */
export const qaRequestSchema = z
  .object({
    id: sessionIdSchema.optional(),
    sessionId: sessionIdSchema.optional(),
    repositoryId: z.string().min(1).max(200),
    question: z.string().optional(),
    messages: z
      .array(
        z
          .object({
            id: z.string().optional(),
            role: z.enum(["user", "assistant", "system"]),
            parts: z.array(z.union([textPart, z.object({ type: z.string() }).passthrough()])),
          })
          .passthrough(),
      )
      .max(500)
      .optional(),
    options,
    trigger: z.string().optional(),
    messageId: z.string().optional(),
    /** continue the session's last answer from what the user provided for its open gaps */
    gapAnswers: gapAnswersSchema.optional(),
  })
  .passthrough();

export type QaRequest = z.infer<typeof qaRequestSchema>;

/** The question: explicit, or the text of the last user message. */
export function questionOf(body: QaRequest): string | null {
  if (body.question !== undefined) return body.question;
  const last = [...(body.messages ?? [])].reverse().find((m) => m.role === "user");
  if (!last) return null;
  return last.parts
    .filter(
      (p): p is { type: "text"; text: string } =>
        p.type === "text" && typeof (p as { text?: unknown }).text === "string",
    )
    .map((p) => p.text)
    .join("\n");
}

/** Requests above this size are refused before parsing (the question limit is separate). */
export const MAX_BODY_BYTES = 512 * 1024;
