/** Request schema of POST /api/sessions/[id]/gap-answers: what the user provides for open gaps of an answer. */
import { z } from "zod";
import { gapAnswersSchema } from "@/lib/qa/gap-answers";

export const gapAnswersCheckSchema = z
  .object({
    repositoryId: z.string().min(1).max(200),
    /** the answer whose gaps these fill (must still be the session's last) */
    answerId: z.string().min(1).max(200).optional(),
    gapAnswers: gapAnswersSchema,
  })
  .strict();
