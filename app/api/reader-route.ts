/**
 * Routes that read repositories' content outside the pages (today the MCP endpoint):
 * `requireReader` first — the one place a route asks whether the caller may read, so
 * the access policy can change without touching the handlers.
 */
import { requireReader } from "@/lib/admin/auth";
import { checkedRoute } from "./checked-route";

export const readerRoute = checkedRoute(requireReader);
