/** Request schema of POST /api/access/login: the team access token, and an optional name for the logs. */
import { z } from "zod";
import { ACTOR_PATTERN } from "@/lib/admin/auth";

export const accessLoginSchema = z.object({
  token: z.string({ error: "Enter the access token." }).min(1, "Enter the access token.").max(512),
  name: z
    .string()
    .trim()
    .max(40, "Names are at most 40 characters.")
    .refine(
      (v) => v === "" || ACTOR_PATTERN.test(v),
      "Use letters, digits, spaces, dots, dashes, @ or underscores.",
    )
    .optional(),
});
