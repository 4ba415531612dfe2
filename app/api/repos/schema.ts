/** Request schema of POST /api/repos: a local folder to index, with an optional display name. */
import { z } from "zod";

export const addRepositorySchema = z.object({
  path: z
    .string({ error: "A repository path is required." })
    .trim()
    .min(1, "A repository path is required.")
    .max(4096, "That path is too long.")
    // A relative path would be resolved against the server's working folder, which the
    // person typing it cannot see: only absolute paths are taken over HTTP.
    .refine((p) => p.startsWith("/"), "Give the folder's absolute path (starting with /)."),
  name: z
    .string()
    .trim()
    .max(80, "Names are at most 80 characters.")
    .regex(/^[A-Za-z0-9._ -]*$/, "Use letters, digits, spaces, dots, dashes or underscores in the name.")
    .optional()
    .transform((name) => (name ? name : undefined)),
});

export type AddRepositoryRequest = z.infer<typeof addRepositorySchema>;
