/** POST makes a session shareable: returns its unguessable share id and the read-only link. */
import { shareSession } from "@/lib/db/sessions";
import { WayfinderError, errorResponse } from "@/lib/errors";
import { sessionParamsSchema } from "./schema";

export const dynamic = "force-dynamic";

export async function POST(
  _request: Request,
  context: { params: Promise<{ id: string }> },
): Promise<Response> {
  try {
    const params = sessionParamsSchema.safeParse(await context.params);
    if (!params.success) throw new WayfinderError("not_found:session", "No such session.");
    const shareId = await shareSession(params.data.id);
    return Response.json({ shareId, path: `/s/${shareId}` });
  } catch (error) {
    return errorResponse(error);
  }
}
