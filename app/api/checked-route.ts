/**
 * The shape of a route that checks its caller first: the check runs before anything
 * else (so a refused caller learns nothing, not even whether its body was valid), then
 * the handler with the identity the check returned; errors become the usual JSON
 * error, and nothing is cached on the way. adminRoute and readerRoute are this shape
 * with their own check.
 */
import { errorResponse } from "@/lib/errors";

export function checkedRoute<Identity>(check: (request: Request) => Identity) {
  return <Context>(
      handler: (request: Request, identity: Identity, context: Context) => Promise<Response>,
    ): ((request: Request, context: Context) => Promise<Response>) =>
    async (request, context) => {
      let response: Response;
      try {
        response = await handler(request, check(request), context);
      } catch (error) {
        response = errorResponse(error);
      }
      response.headers.set("cache-control", "no-store");
      return response;
    };
}
