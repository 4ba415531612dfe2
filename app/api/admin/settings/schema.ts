/**
 * Request schema of PUT /api/admin/settings. Only the envelope is checked here; the
 * engine settings themselves are validated field by field in lib/admin/settings so
 * every bad field comes back with its own message.
 */
import { z } from "zod";

export const saveSettingsSchema = z
  .object({
    cgrag: z.record(z.string(), z.unknown(), { error: "cgrag must be an object of settings." }).optional(),
    llm: z.record(z.string(), z.unknown(), { error: "llm must be an object." }).optional(),
  })
  .strict();
