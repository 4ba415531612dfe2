/** POST makes a session shareable (readers): returns its unguessable share id and the read-only link. */
import { shareSession } from "@/lib/db/sessions";
import { WayfinderError } from "@/lib/errors";
import { apiRoute } from "../../../api-route";
import { sessionParamsSchema } from "./schema";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ params: Promise<{ id: string }> }>(
  { access: "reader" },
  async (_request, _identity, context) => {
    const params = sessionParamsSchema.safeParse(await context.params);
    if (!params.success) throw new WayfinderError("not_found:session", "No such session.");
    const shareId = await shareSession(params.data.id);
    return Response.json({ shareId, path: `/s/${shareId}` });
  },
);
