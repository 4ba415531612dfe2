/** GET the issues store of a repository's serving generation, filtered by category and severity. */
import { WayfinderError } from "@/lib/errors";
import { apiRoute } from "../../../api-route";
import { loadIssuesView } from "@/lib/wiki/browse";
import { repositoryParamsSchema } from "../schema";
import { issuesQuerySchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ params: Promise<{ id: string }> }>(
  { access: "reader" },
  async (request, _identity, context) => {
    const params = repositoryParamsSchema.safeParse(await context.params);
    if (!params.success) throw new WayfinderError("not_found:repository", "No such repository.");
    const search = new URL(request.url).searchParams;
    const query = issuesQuerySchema.safeParse({
      category: search.get("category") ?? undefined,
      severity: search.get("severity") ?? undefined,
    });
    if (!query.success)
      throw new WayfinderError(
        "bad_request:issues_filter",
        query.error.issues[0]?.message ?? "Invalid filter.",
      );
    const view = await loadIssuesView(params.data.id, {
      category: query.data.category ?? null,
      severity: query.data.severity ?? null,
    });
    if (!view) throw new WayfinderError("not_found:repository", "No indexed repository with this id.");
    return Response.json({
      generationId: view.generationId,
      total: view.total,
      byCategory: view.byCategory,
      bySeverity: view.bySeverity,
      findings: view.findings,
    });
  },
);
