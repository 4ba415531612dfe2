/**
 * Shared request parsing for route handlers: a JSON body checked against the route's
 * zod schema, turned into a `bad_request:<surface>` WayfinderError whose message
 * names the first problem, so every route answers bad input the same way.
 */
import type { z } from "zod";
import { WayfinderError } from "@/lib/errors";

export async function parseJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  surface: string,
): Promise<z.infer<S>> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw new WayfinderError(`bad_request:${surface}`, "The request body must be JSON.");
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new WayfinderError(`bad_request:${surface}`, issue?.message ?? "Invalid request.");
  }
  return result.data;
}
