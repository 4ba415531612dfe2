/**
 * Shared request parsing for route handlers: a JSON body checked against the route's
 * zod schema, turned into a `bad_request:<surface>` WayfinderError whose message
 * names the first problem, so every route answers bad input the same way.
 *
 * The body is read as a stream and abandoned as soon as it passes the route's byte
 * limit, so an oversized or endless body costs at most that much memory. A declared
 * non-JSON content type is refused before reading: form and text/plain posts are
 * what a cross-site page can send without a preflight.
 */
import type { z } from "zod";
import { WayfinderError } from "@/lib/errors";

/** Default body limit for routes that take a small JSON document. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

function isJsonContentType(value: string): boolean {
  const media = value.split(";")[0]?.trim().toLowerCase() ?? "";
  return media === "application/json" || /^application\/[\w.+-]+\+json$/.test(media);
}

function tooLarge(maxBytes: number): WayfinderError {
  const limit = maxBytes >= 1024 * 1024 ? `${maxBytes / (1024 * 1024)} MiB` : `${maxBytes / 1024} KiB`;
  return new WayfinderError("payload_too_large:body", `The request is too large (limit ${limit}).`);
}

/** Reads at most `maxBytes` of the body as bytes; throws 413 past that without reading the rest. */
export async function readBoundedBody(request: Request, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

async function readBoundedText(request: Request, maxBytes: number): Promise<string> {
  return (await readBoundedBody(request, maxBytes)).toString("utf8");
}

/**
 * The request body as parsed JSON (not yet validated). Errors: 400
 * `bad_request:content_type` for a declared non-JSON type, 413 `payload_too_large:body`
 * past `maxBytes`, 400 `bad_request:<surface>` for text that is not JSON.
 */
export async function readJsonBody(
  request: Request,
  options: { surface: string; maxBytes?: number },
): Promise<unknown> {
  const type = request.headers.get("content-type");
  if (type !== null && !isJsonContentType(type)) {
    throw new WayfinderError(
      "bad_request:content_type",
      "Send the request body as JSON (content-type: application/json).",
    );
  }
  const text = await readBoundedText(request, options.maxBytes ?? DEFAULT_MAX_BODY_BYTES);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new WayfinderError(`bad_request:${options.surface}`, "The request body must be JSON.");
  }
}

export async function parseJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  surface: string,
  options: { maxBytes?: number } = {},
): Promise<z.infer<S>> {
  return validateBody(await readJsonBody(request, { surface, maxBytes: options.maxBytes }), schema, surface);
}

/** A parsed body checked against a schema: `bad_request:<surface>` naming the first problem. */
export function validateBody<S extends z.ZodType>(body: unknown, schema: S, surface: string): z.infer<S> {
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new WayfinderError(`bad_request:${surface}`, issue?.message ?? "Invalid request.");
  }
  return result.data;
}
