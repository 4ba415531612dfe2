/** POST re-indexes a repository in the background: 202 once started, 409 while a build runs. */
import { getRepositoryView } from "@/lib/db/ui-queries";
import { WayfinderError, errorResponse } from "@/lib/errors";
import { reindexRepository } from "@/lib/indexer/jobs";
import { repositoryParamsSchema } from "../schema";

export const dynamic = "force-dynamic";

export async function POST(
  _request: Request,
  context: { params: Promise<{ id: string }> },
): Promise<Response> {
  try {
    const params = repositoryParamsSchema.safeParse(await context.params);
    const existing = params.success ? await getRepositoryView(params.data.id) : null;
    if (!existing) throw new WayfinderError("not_found:repository", "No such repository.");
    await reindexRepository(existing.id);
    return Response.json({ repository: await getRepositoryView(existing.id) }, { status: 202 });
  } catch (error) {
    return errorResponse(error);
  }
}
