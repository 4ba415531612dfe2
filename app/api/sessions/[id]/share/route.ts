/**
 * POST makes a session shareable (whoever may read it: its owner, or an admin for one
 * from before owners; 404 for anyone else): returns its unguessable share id and the
 * read-only link.
 */
import { conversationsOf } from "@/lib/auth/conversation-owner";
import { shareSession } from "@/lib/db/sessions";
import { readableSession } from "@/lib/qa/conversations";
import { WayfinderError } from "@/lib/errors";
import { apiRoute } from "../../../api-route";
import { sessionParamsSchema } from "./schema";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ params: Promise<{ id: string }> }>(
  { access: "reader" },
  async (request, identity, context) => {
    const params = sessionParamsSchema.safeParse(await context.params);
    if (!params.success) throw new WayfinderError("not_found:session", "No such session.");
    const session = await readableSession(params.data.id, conversationsOf(request.headers, identity).access);
    const shareId = await shareSession(session.id);
    return Response.json({ shareId, path: `/s/${shareId}` });
  },
);
