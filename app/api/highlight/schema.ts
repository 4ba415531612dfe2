/** Request schema of POST /api/highlight: a batch of snippets (bounded, it runs on the server). */
import { z } from "zod";

export const highlightSchema = z.object({
  items: z
    .array(
      z.object({
        code: z.string().max(40_000, "A snippet is at most 40,000 characters."),
        language: z.string().max(40).nullable(),
        firstLine: z.number().int().min(1).max(10_000_000).default(1),
      }),
    )
    .min(1, "Nothing to highlight.")
    .max(60, "At most 60 snippets per request."),
});

/** Room for the largest batch the schema allows (60 snippets of 40,000 characters, JSON-escaped). */
export const MAX_HIGHLIGHT_BODY_BYTES = 8 * 1024 * 1024;
