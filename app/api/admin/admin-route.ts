/**
 * The shape of every admin route: authenticate first (so a refused caller learns
 * nothing, not even whether its body was valid), then the handler; errors become the
 * usual JSON error, and nothing is cached on the way.
 */
import { requireAdmin, type AdminIdentity } from "@/lib/admin/auth";
import { errorResponse } from "@/lib/errors";

export function adminRoute<Context>(
  handler: (request: Request, admin: AdminIdentity, context: Context) => Promise<Response>,
): (request: Request, context: Context) => Promise<Response> {
  return async (request, context) => {
    let response: Response;
    try {
      response = await handler(request, requireAdmin(request), context);
    } catch (error) {
      response = errorResponse(error);
    }
    response.headers.set("cache-control", "no-store");
    return response;
  };
}

/** First problem of a query string as a 400, like parseJsonBody does for bodies. */
export function searchParamsOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}
