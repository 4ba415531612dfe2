/** Schemas of /api/admin/golden: list query and a new golden question. */
import { z } from "zod";
import { QUERY_MODE_LIST } from "@/lib/qa/types";

export const goldenListQuerySchema = z.object({
  repositoryId: z.string().min(1).max(200).optional(),
});

export const createGoldenSchema = z.object({
  repositoryId: z.string({ error: "Choose a repository." }).min(1, "Choose a repository.").max(200),
  question: z
    .string({ error: "Enter a question." })
    .trim()
    .min(3, "Enter a question.")
    .max(2000, "Golden questions are at most 2,000 characters."),
  mode: z
    .enum(QUERY_MODE_LIST, { error: `mode must be one of ${QUERY_MODE_LIST.join(", ")}.` })
    .nullable()
    .optional()
    .transform((m) => m ?? null),
  expectedFiles: z
    .array(z.string().trim().min(1).max(1000), { error: "List the files the answer must cite." })
    .min(1, "Name at least one file the answer must cite.")
    .max(20, "At most 20 expected files."),
});
