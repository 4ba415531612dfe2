/**
 * Stored conversations as the UI messages they were streamed as: the read-only share
 * page and anything else that shows a past session.
 */
import "server-only";
import { withLayout } from "../diagrams/layout.ts";
import { getRepository, type RepositoryRow } from "../db/index-store.ts";
import {
  getSession,
  getSessionByShareId,
  listMessages,
  type MessageRow,
  type SessionRow,
} from "../db/sessions.ts";
import type { DiagramPart, WayfinderUIMessage } from "./types.ts";

function parseJson<T>(json: string, fallback: T): T {
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
}

/**
 * Diagrams ready to draw: answers stored before diagrams were laid out on the server
 * (or asked from the CLI, which does not draw) get their layout now, from the cache
 * after the first time.
 */
async function withDiagramLayouts(message: WayfinderUIMessage): Promise<WayfinderUIMessage> {
  if (!message.parts.some((p) => p.type === "data-diagram" && !(p.data as DiagramPart).layout))
    return message;
  const parts = await Promise.all(
    message.parts.map(async (p) =>
      p.type === "data-diagram" ? { ...p, data: await withLayout(p.data as DiagramPart) } : p,
    ),
  );
  return { ...message, parts };
}

/** A stored message row as the UI message it was streamed as. */
function toUIMessage(row: MessageRow): WayfinderUIMessage {
  const parts = parseJson<WayfinderUIMessage["parts"]>(row.parts, []);
  const metadata = parseJson<WayfinderUIMessage["metadata"]>(row.metadata, {});
  return {
    id: row.id,
    role: row.role === "user" ? "user" : "assistant",
    // A row stored without parts still shows its plain text.
    parts: parts.length > 0 ? parts : [{ type: "text", text: row.content }],
    metadata: { ...metadata, generationId: metadata?.generationId ?? row.generationId },
  };
}

export interface SharedConversation {
  session: SessionRow;
  repository: RepositoryRow;
  messages: WayfinderUIMessage[];
}

/** The conversation behind a share link, or null for an unknown share id. */
export async function getSharedConversation(shareId: string): Promise<SharedConversation | null> {
  const session = await getSessionByShareId(shareId);
  if (!session) return null;
  const [repository, rows] = await Promise.all([
    getRepository(session.repositoryId),
    listMessages(session.id),
  ]);
  if (!repository) return null;
  return {
    session,
    repository,
    messages: await Promise.all(rows.map((r) => withDiagramLayouts(toUIMessage(r)))),
  };
}

/** A stored conversation by session id, as the chat reopens it; null for an unknown session. */
export async function getConversation(
  sessionId: string,
): Promise<{ session: SessionRow; messages: WayfinderUIMessage[] } | null> {
  const session = await getSession(sessionId);
  if (!session) return null;
  const rows = await listMessages(session.id);
  return { session, messages: await Promise.all(rows.map((r) => withDiagramLayouts(toUIMessage(r)))) };
}
