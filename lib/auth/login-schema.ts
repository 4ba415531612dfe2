/** The body of a token sign-in (admin or team): the token, and an optional name for the logs. */
import { z } from "zod";

/** Names people type at login: short, printable, safe to show in the change log. */
export const ACTOR_PATTERN = /^[\p{L}\p{N} ._@-]{1,40}$/u;

export function tokenLoginSchema(tokenName: string) {
  return z.object({
    token: z
      .string({ error: `Enter the ${tokenName}.` })
      .min(1, `Enter the ${tokenName}.`)
      .max(512),
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
}
