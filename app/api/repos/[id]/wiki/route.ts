/** GET one wiki page of a repository's serving generation, with the navigation tree. */
import { WayfinderError } from "@/lib/errors";
import { apiRoute } from "../../../api-route";
import { loadWikiView } from "@/lib/wiki/browse";
import { repositoryParamsSchema } from "../schema";
import { wikiQuerySchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ params: Promise<{ id: string }> }>(
  { access: "reader" },
  async (request, _identity, context) => {
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
  },
);
