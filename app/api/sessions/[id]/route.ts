import { getSession, listMessages } from "@/lib/db/sessions";
import { WayfinderError } from "@/lib/errors";
import type { WayfinderUIMessage } from "@/lib/qa/types";
import { apiRoute } from "../../api-route";

export const dynamic = "force-dynamic";

/** GET /api/sessions/:id — a stored conversation as UI messages (readers). */
export const GET = apiRoute<{ params: Promise<{ id: string }> }>(
  { access: "reader" },
  async (_request, _identity, context) => {
    const { id } = await context.params;
    const session = await getSession(id);
    if (!session) throw new WayfinderError("not_found:session", "No such session.");
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
