/**
 * The shape of every API route: check access first (so a refused caller learns
 * nothing, not even whether its body was valid), count rate-limited actions, run the
 * handler, turn errors into the usual JSON error, and log one line per call. Nothing
 * is cached on the way.
 *
 *   export const POST = apiRoute({ access: "reader", limit: "question" }, async (request, identity) => …);
 */
import type { Identity } from "@/lib/auth/identity";
import { requireAccess, type Access } from "@/lib/auth/guards";
import { consumeRateLimit, type LimitedAction } from "@/lib/auth/rate-limit";
import { logRequest } from "@/lib/auth/request-log";
import { errorResponse } from "@/lib/errors";

export interface RouteOptions {
  access: Access;
  /** counted against the client's limit before the handler runs */
  limit?: LimitedAction;
  /** what errors are mapped through before they become a response */
  mapError?: (error: unknown) => unknown;
}

export function apiRoute<Context, Caller extends Identity | null = Identity>(
  options: RouteOptions & { access: Access },
  handler: (request: Request, identity: Caller, context: Context) => Promise<Response>,
): (request: Request, context?: Context) => Promise<Response> {
  return async (request, context) => {
    const started = performance.now();
    let identity: Identity | null = null;
    let response: Response;
    try {
      identity = await requireAccess(request, options.access);
      if (options.limit) await consumeRateLimit(request, identity, options.limit);
      response = await handler(request, identity as Caller, context as Context);
    } catch (error) {
      response = errorResponse(options.mapError ? options.mapError(error) : error);
    }
    if (!response.headers.has("cache-control")) {
      // Response.redirect() (Auth.js uses it) has immutable headers: copy it first.
      try {
        response.headers.set("cache-control", "no-store");
      } catch {
        response = new Response(response.body, response);
        response.headers.set("cache-control", "no-store");
      }
    }
    logRequest(request, response.status, performance.now() - started, identity);
    return response;
  };
}

/** Every query parameter as a plain object (the route's zod schema checks it). */
export function searchParamsOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}
