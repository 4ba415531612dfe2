/** Query schema of GET /api/repos/[id]/wiki: which page ("" or absent for the overview). */
import { z } from "zod";

export const wikiQuerySchema = z.object({
  slug: z
    .string()
    .max(1000)
    .regex(/^(|(dir|file)\/[^\0]+)$/, "A wiki slug is empty (the overview), dir/<path> or file/<path>.")
    .default(""),
});
