/** Request schema of POST /api/admin/golden/run: a repository, optionally one of its questions. */
import { z } from "zod";

export const runGoldenSchema = z.object({
  repositoryId: z.string({ error: "Choose a repository." }).min(1, "Choose a repository.").max(200),
  questionId: z.string().min(1).max(200).optional(),
});
