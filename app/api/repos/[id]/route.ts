/** GET one repository: its serving generation's stats and the progress of its latest build. */
import { getRepositoryView } from "@/lib/db/ui-queries";
import { WayfinderError, errorResponse } from "@/lib/errors";
import { repositoryParamsSchema } from "./schema";

export const dynamic = "force-dynamic";

export async function GET(
  _request: Request,
  context: { params: Promise<{ id: string }> },
): Promise<Response> {
  try {
    const params = repositoryParamsSchema.safeParse(await context.params);
    const repository = params.success ? await getRepositoryView(params.data.id) : null;
    if (!repository) throw new WayfinderError("not_found:repository", "No such repository.");
    return Response.json({ repository });
  } catch (error) {
    return errorResponse(error);
  }
}
