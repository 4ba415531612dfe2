/** GET one wiki page of a repository's serving generation, with the navigation tree. */
import { WayfinderError, errorResponse } from "@/lib/errors";
import { loadWikiView } from "@/lib/wiki/browse";
import { repositoryParamsSchema } from "../schema";
import { wikiQuerySchema } from "./schema";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const params = repositoryParamsSchema.safeParse(await context.params);
    if (!params.success) throw new WayfinderError("not_found:repository", "No such repository.");
    const query = wikiQuerySchema.safeParse({
      slug: new URL(request.url).searchParams.get("slug") ?? undefined,
    });
    if (!query.success)
      throw new WayfinderError("bad_request:wiki_slug", query.error.issues[0]?.message ?? "Invalid slug.");
    const view = await loadWikiView(params.data.id, query.data.slug);
    if (!view)
      throw new WayfinderError("not_found:wiki_page", "No such wiki page in this repository's index.");
    return Response.json({
      generationId: view.generationId,
      page: view.page,
      tree: view.tree,
      findings: view.findings,
    });
  } catch (error) {
    return errorResponse(error);
  }
}
