/**
 * What a caller may set on one question, as one schema: the web API (`POST /api/qa`
 * options), MCP `ask` and the CLI's `ask` flags accept the same modes, qualities, pass
 * limit and session ids, read from the one list of each.
 */
import { z } from "zod";
import { QUERY_MODE_LIST } from "../answerers/contract.ts";
import { QUALITY_LIST } from "../settings/config.ts";

/** The most passes a caller may ask for. */
export const MAX_REQUESTED_PASSES = 8;

export const modeSchema = z.enum(QUERY_MODE_LIST);

/** Per question: a forced mode, a quality preset, a pass limit. */
export const askOptionsShape = {
  mode: modeSchema.optional(),
  quality: z.enum(QUALITY_LIST).optional(),
  maxPasses: z.number().int().min(1).max(MAX_REQUESTED_PASSES).optional(),
};

/** A conversation's id as clients send it. */
export const sessionIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "invalid session id");
