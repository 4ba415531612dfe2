/** Request schema of PUT /api/repos/[id]/schedule: minutes between polls of the Git remote, or null for none. */
import { z } from "zod";

/** One week: a longer interval is better served by a webhook or a manual re-index. */
export const MAX_POLL_MINUTES = 7 * 24 * 60;

export const scheduleSchema = z.object({
  pollMinutes: z
    .number({ error: "pollMinutes must be a number of minutes or null." })
    .int("pollMinutes must be a whole number of minutes.")
    .min(1, "Poll at most once a minute.")
    .max(MAX_POLL_MINUTES, `Poll at least once a week (${MAX_POLL_MINUTES} minutes).`)
    .nullable(),
});
