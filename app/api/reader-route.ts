/**
 * The shape of routes that read repositories' content outside the pages (today the MCP
 * endpoint): the reader check first, then the handler; errors become the usual JSON
 * error, and nothing is cached on the way. `requireReader` is the one place a route
 * asks whether the caller may read, so the access policy can change without touching
 * the handlers.
 */
import { requireReader, type ReaderIdentity } from "@/lib/admin/auth";
import { errorResponse } from "@/lib/errors";

export function readerRoute<Context>(
  handler: (request: Request, reader: ReaderIdentity, context: Context) => Promise<Response>,
): (request: Request, context: Context) => Promise<Response> {
  return async (request, context) => {
    let response: Response;
    try {
      response = await handler(request, requireReader(request), context);
    } catch (error) {
      response = errorResponse(error);
    }
    response.headers.set("cache-control", "no-store");
    return response;
  };
}
