import { getConversation } from "@/lib/qa/conversations";
import { WayfinderError } from "@/lib/errors";
import { apiRoute } from "../../api-route";

export const dynamic = "force-dynamic";

/** GET /api/sessions/:id — a stored conversation as UI messages (readers). */
export const GET = apiRoute<{ params: Promise<{ id: string }> }>(
  { access: "reader" },
  async (_request, _identity, context) => {
    const { id } = await context.params;
    const conversation = await getConversation(id);
    if (!conversation) throw new WayfinderError("not_found:session", "No such session.");
    const { session, messages } = conversation;
    return Response.json({
      session: {
        id: session.id,
        repositoryId: session.repositoryId,
        generationId: session.generationId,
        title: session.title,
        shareId: session.shareId,
        createdAt: session.createdAt,
      },
      messages,
    });
  },
);
