/**
 * Request schema of POST /api/repos: a local folder to index, or a Git remote (URL and
 * optional branch) to clone and follow, with an optional display name.
 */
import { z } from "zod";

const name = z
  .string()
  .trim()
  .max(80, "Names are at most 80 characters.")
  .regex(/^[A-Za-z0-9._ -]*$/, "Use letters, digits, spaces, dots, dashes or underscores in the name.")
  .optional()
  .transform((value) => (value ? value : undefined));

const folderSchema = z.object({
  path: z
    .string({ error: "A repository path is required." })
    .trim()
    .min(1, "A repository path is required.")
    .max(4096, "That path is too long.")
    // A relative path would be resolved against the server's working folder, which the
    // person typing it cannot see: only absolute paths are taken over HTTP.
    .refine((p) => p.startsWith("/"), "Give the folder's absolute path (starting with /)."),
  name,
});

const gitSchema = z.object({
  url: z
    .string({ error: "A Git URL is required." })
    .trim()
    .min(1, "A Git URL is required.")
    .max(2048, "That Git URL is too long."),
  branch: z
    .string()
    .trim()
    .max(200, "That branch name is too long.")
    .optional()
    .transform((value) => (value ? value : undefined)),
  name,
});

/** The schema for a body: a Git remote when it names a `url`, else a folder. */
export function addRepositorySchemaFor(body: unknown) {
  return body !== null && typeof body === "object" && "url" in body ? gitSchema : folderSchema;
}

export type AddRepositoryRequest = z.infer<typeof folderSchema> | z.infer<typeof gitSchema>;
