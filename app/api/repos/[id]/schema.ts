/** Route parameter schema shared by /api/repos/[id] and its sub-routes. */
import { z } from "zod";

export const repositoryParamsSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "Not a repository id."),
});
