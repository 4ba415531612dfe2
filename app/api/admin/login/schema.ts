/** Request schema of POST /api/admin/login: the token, and an optional name for the change log. */
import { z } from "zod";
import { ACTOR_PATTERN } from "@/lib/admin/auth";

export const loginSchema = z.object({
  token: z.string({ error: "Enter the admin token." }).min(1, "Enter the admin token.").max(512),
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
