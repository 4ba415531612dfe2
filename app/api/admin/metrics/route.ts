/** GET /api/admin/metrics?range=24h|7d|30d|all&repositoryId=…: dashboard numbers and recent questions. */
import { loadDashboard } from "@/lib/admin/metrics";
import { WayfinderError } from "@/lib/errors";
import { apiRoute, searchParamsOf } from "../../api-route";
import { metricsQuerySchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = apiRoute({ access: "admin" }, async (request) => {
  const query = metricsQuerySchema.safeParse(searchParamsOf(request));
  if (!query.success)
    throw new WayfinderError("bad_request:metrics", query.error.issues[0]?.message ?? "Invalid query.");
  return Response.json(await loadDashboard(query.data));
});
