/** POST re-indexes a repository in the background: 202 once started, 409 while a build runs (repository managers). */
import { getRepositoryView } from "@/lib/db/ui-queries";
import { WayfinderError } from "@/lib/errors";
import { reindexRepository } from "@/lib/builds/jobs";
import { apiRoute } from "../../../api-route";
import { repositoryParamsSchema } from "../schema";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ params: Promise<{ id: string }> }>(
  { access: "manager", limit: "build" },
  async (_request, _identity, context) => {
    const params = repositoryParamsSchema.safeParse(await context.params);
    const existing = params.success ? await getRepositoryView(params.data.id) : null;
    if (!existing) throw new WayfinderError("not_found:repository", "No such repository.");
    await reindexRepository(existing.id);
    return Response.json({ repository: await getRepositoryView(existing.id) }, { status: 202 });
  },
);
