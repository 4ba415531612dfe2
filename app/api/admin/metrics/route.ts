/**
 * GET /api/admin/metrics?range=24h|7d|30d|all&repositoryId=…: dashboard numbers and recent
 * questions (the text and link only of conversations the admin may read).
 */
import { loadDashboard } from "@/lib/admin/metrics";
import { conversationsOf } from "@/lib/auth/conversation-owner";
import { WayfinderError } from "@/lib/errors";
import { apiRoute, searchParamsOf } from "../../api-route";
import { metricsQuerySchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = apiRoute({ access: "admin" }, async (request, identity) => {
  const query = metricsQuerySchema.safeParse(searchParamsOf(request));
  if (!query.success)
    throw new WayfinderError("bad_request:metrics", query.error.issues[0]?.message ?? "Invalid query.");
  const conversations = conversationsOf(request.headers, identity).access;
  return Response.json(await loadDashboard({ ...query.data, conversations }));
});
