/** Schema pieces the tools share: the repository argument and the index a result comes from. */
import { z } from "zod";

export const repository = z
  .string()
  .min(1)
  .max(4096)
  .describe("Repository name or id (see list_repositories).");

export const indexRef = z
  .object({
    repositoryId: z.string(),
    repository: z.string(),
    generation: z.number().int().describe("index generation the result was read from"),
    commit: z.string().nullable().describe("commit that generation indexed"),
  })
  .describe("The index the result comes from.");

/** A repository's source as list_repositories and index_status show it. */
export const source = {
  kind: z.enum(["folder", "git"]),
  url: z.string().nullable(),
  branch: z.string().nullable(),
};
