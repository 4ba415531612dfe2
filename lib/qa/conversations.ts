/**
 * Stored conversations and who may see them. A conversation belongs to whoever started
 * it (`Session.ownerKey`): only its owner lists, reads and continues it; anyone else is
 * told there is no such session. Admins read conversations that belong to nobody (those
 * from before conversations had owners) but not other people's; share links are how an
 * answer is shown to someone else. Open mode, the CLI and the stdio MCP server serve one
 * person or the operator: they see every conversation.
 *
 * Also the stored messages as the UI messages they were streamed as (the share page and
 * anything else that shows a past session).
 */
import "server-only";
import { withLayout } from "../diagrams/layout.ts";
import { getRepository, type RepositoryRow } from "../db/repositories.ts";
import {
  getSession,
  getSessionByShareId,
  listMessages,
  listSessions,
  type MessageRow,
  type SessionRow,
} from "../db/sessions.ts";
import { WayfinderError } from "../errors.ts";
import type { DiagramPart, WayfinderUIMessage } from "./types.ts";

/** Whose conversations a caller may see. */
export type ConversationAccess =
  /** open mode, the CLI, stdio MCP: one person or the operator */
  | { kind: "everyone" }
  /** a person, browser or script (`owner`), with the admin role or not */
  | { kind: "owner"; owner: string; admin: boolean };

export const EVERYONE: ConversationAccess = { kind: "everyone" };

/** The owner a conversation started by `access` is stored with (null: nobody's). */
export function ownerFor(access: ConversationAccess): string | null {
  return access.kind === "owner" ? access.owner : null;
}

/** May `access` read the conversation: its owner, or an admin when it belongs to nobody. */
export function mayRead(session: Pick<SessionRow, "ownerKey">, access: ConversationAccess): boolean {
  if (access.kind === "everyone") return true;
  return session.ownerKey === access.owner || (session.ownerKey === null && access.admin);
}

/** May `access` add to the conversation: only its owner (one from before owners is read-only). */
export function mayContinue(session: Pick<SessionRow, "ownerKey">, access: ConversationAccess): boolean {
  return access.kind === "everyone" || session.ownerKey === access.owner;
}

export const NO_SUCH_SESSION = "No such session.";

/** Refusal of a conversation the caller may not read: the same 404 as for one that does not exist. */
export function noSuchSession(): WayfinderError {
  return new WayfinderError("not_found:session", NO_SUCH_SESSION);
}

/** Refusal to continue a conversation the caller may only read (an admin and one from before owners). */
export function readOnlySession(): WayfinderError {
  return new WayfinderError(
    "forbidden:session",
    "This conversation is from before conversations had owners: it can be read, not continued. Start a new one.",
  );
}

/** The conversation `id` if `access` may read it; else 404 (whether or not it exists). */
export async function readableSession(id: string, access: ConversationAccess): Promise<SessionRow> {
  const session = await getSession(id);
  if (!session || !mayRead(session, access)) throw noSuchSession();
  return session;
}

/** Throws unless `access` may add a question to `session` (404 when it may not even read it). */
export function assertMayContinue(session: Pick<SessionRow, "ownerKey">, access: ConversationAccess): void {
  if (mayContinue(session, access)) return;
  throw mayRead(session, access) ? readOnlySession() : noSuchSession();
}

/** The latest conversations of a repository that belong to `access` (all of them for everyone). */
export function listOwnSessions(
  repositoryId: string,
  access: ConversationAccess,
  take = 30,
): Promise<SessionRow[]> {
  return listSessions(repositoryId, take, access.kind === "everyone" ? undefined : access.owner);
}

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

/** A stored conversation's messages, as the chat reopens it (the caller has checked it may read it). */
export async function conversationMessages(session: SessionRow): Promise<WayfinderUIMessage[]> {
  const rows = await listMessages(session.id);
  return Promise.all(rows.map((r) => withDiagramLayouts(toUIMessage(r))));
}
