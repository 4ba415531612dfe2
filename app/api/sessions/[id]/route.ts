import { conversationsOf } from "@/lib/auth/conversation-owner";
import { listMessages } from "@/lib/db/sessions";
import { readableSession } from "@/lib/qa/conversations";
import type { WayfinderUIMessage } from "@/lib/qa/types";
import { apiRoute } from "../../api-route";

export const dynamic = "force-dynamic";

/** GET /api/sessions/:id — a stored conversation as UI messages (its owner; 404 for anyone else). */
export const GET = apiRoute<{ params: Promise<{ id: string }> }>(
  { access: "reader" },
  async (request, identity, context) => {
    const { id } = await context.params;
    const session = await readableSession(id, conversationsOf(request.headers, identity).access);
    const messages: WayfinderUIMessage[] = (await listMessages(session.id)).map((m) => ({
      id: m.id,
      role: m.role as WayfinderUIMessage["role"],
      metadata: JSON.parse(m.metadata),
      parts: JSON.parse(m.parts),
    }));
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
