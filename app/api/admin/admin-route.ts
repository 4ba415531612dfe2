/**
 * The shape of every admin route: authenticate first (so a refused caller learns
 * nothing, not even whether its body was valid), then the handler; errors become the
 * usual JSON error, and nothing is cached on the way.
 */
import { requireAdmin } from "@/lib/admin/auth";
import { checkedRoute } from "../checked-route";

export const adminRoute = checkedRoute(requireAdmin);

/** First problem of a query string as a 400, like parseJsonBody does for bodies. */
export function searchParamsOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}
