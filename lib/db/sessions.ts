/**
 * Conversation storage: sessions (with their cached context and not-found set),
 * messages as streamed UI messages, and share ids. Any web instance can serve any
 * session because all of it lives here.
 */
import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import { WayfinderError } from "../errors.ts";
import { db } from "./client.ts";
import { storableText } from "./dialect.ts";

export interface SessionRow {
  id: string;
  repositoryId: string;
  generationId: string;
  title: string;
  shareId: string | null;
  createdAt: Date;
  lastAccessedAt: Date;
  cache: string;
  notFound: string;
  /** who the conversation belongs to; null: nobody (open mode, CLI, or from before owners) */
  ownerKey: string | null;
}

export interface MessageRow {
  id: string;
  sessionId: string;
  role: string;
  content: string;
  parts: string;
  metadata: string;
  generationId: string;
  createdAt: Date;
}

/** Session ids are random UUIDs; ids from clients are checked against this shape. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

export async function createSession(input: {
  id?: string;
  repositoryId: string;
  generationId: string;
  title: string;
  ownerKey?: string | null;
}): Promise<SessionRow> {
  if (input.id !== undefined && !SESSION_ID_PATTERN.test(input.id)) {
    throw new WayfinderError(
      "bad_request:session",
      "A session id is 8–64 letters, digits, dashes or underscores.",
    );
  }
  const client = await db();
  return client.session.create({
    data: {
      id: input.id ?? randomUUID(),
      repositoryId: input.repositoryId,
      generationId: input.generationId,
      title: storableText(input.title.slice(0, 200)),
      ownerKey: input.ownerKey ?? null,
    },
  });
}

export async function getSession(id: string): Promise<SessionRow | null> {
  if (!SESSION_ID_PATTERN.test(id)) return null;
  const client = await db();
  return client.session.findUnique({ where: { id } });
}

export async function saveSessionState(
  id: string,
  state: { cache: string; notFound: string; generationId?: string },
): Promise<void> {
  const client = await db();
  await client.session.update({
    where: { id },
    data: { ...state, lastAccessedAt: new Date() },
  });
}

type NewMessage = Omit<MessageRow, "createdAt" | "id"> & { id?: string; createdAt?: Date };

/**
 * Stores a question and its answer in one transaction: a database that fails between
 * the two writes leaves neither, never a question without its answer.
 */
export async function appendExchange(question: NewMessage, answer: NewMessage): Promise<void> {
  const client = await db();
  const row = (m: NewMessage) => ({ ...m, content: storableText(m.content), id: m.id ?? randomUUID() });
  await client.$transaction([
    client.message.create({ data: row(question) }),
    client.message.create({ data: row(answer) }),
  ]);
}

export async function appendMessage(
  input: Omit<MessageRow, "createdAt" | "id"> & { id?: string; createdAt?: Date },
): Promise<MessageRow> {
  const client = await db();
  return client.message.create({
    data: { ...input, content: storableText(input.content), id: input.id ?? randomUUID() },
  });
}

export async function listMessages(sessionId: string): Promise<MessageRow[]> {
  const client = await db();
  // Questions and answers are written with distinct timestamps; role breaks any remaining tie.
  return client.message.findMany({ where: { sessionId }, orderBy: [{ createdAt: "asc" }, { role: "desc" }] });
}

/** The latest conversations of a repository; with `ownerKey`, only that owner's. */
export async function listSessions(
  repositoryId: string,
  take = 30,
  ownerKey?: string,
): Promise<SessionRow[]> {
  const client = await db();
  return client.session.findMany({
    where: ownerKey === undefined ? { repositoryId } : { repositoryId, ownerKey },
    orderBy: { lastAccessedAt: "desc" },
    take,
  });
}

/** Owners of the given conversations (for admins' metrics, which show only what they may read). */
export async function sessionOwners(ids: string[]): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const client = await db();
  const rows = await client.session.findMany({
    where: { id: { in: ids } },
    select: { id: true, ownerKey: true },
  });
  return new Map(rows.map((r) => [r.id, r.ownerKey]));
}

/** Returns the session's share id, creating an unguessable one (128 random bits) on first share. */
export async function shareSession(id: string): Promise<string> {
  const client = await db();
  const session = await client.session.findUnique({ where: { id } });
  if (!session) throw new WayfinderError("not_found:session", "No such session.");
  if (session.shareId) return session.shareId;
  const shareId = randomBytes(16).toString("base64url");
  await client.session.update({ where: { id }, data: { shareId } });
  return shareId;
}

export async function getSessionByShareId(shareId: string): Promise<SessionRow | null> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(shareId)) return null;
  const client = await db();
  return client.session.findUnique({ where: { shareId } });
}

/**
 * Removes the latest question (and its answer, if any) when it asked `question`:
 * a retry of an interrupted or unwanted answer replaces that exchange instead of
 * adding a duplicate. Returns how many messages were removed.
 */
export async function removeLastExchange(sessionId: string, question: string): Promise<number> {
  const client = await db();
  const recent = await client.message.findMany({
    where: { sessionId },
    orderBy: [{ createdAt: "desc" }, { role: "asc" }],
    take: 2,
  });
  const [last, before] = recent;
  const exchange =
    last?.role === "user"
      ? [last]
      : last?.role === "assistant" && before?.role === "user"
        ? [last, before]
        : [];
  const asked = exchange.find((m) => m.role === "user");
  if (!asked || asked.content.trim() !== question.trim()) return 0;
  const { count } = await client.message.deleteMany({ where: { id: { in: exchange.map((m) => m.id) } } });
  return count;
}

/**
 * The latest answer of a session with its question, or null when the session's last
 * message is not an answer (a question still waiting, or none).
 */
export async function lastExchange(
  sessionId: string,
): Promise<{ question: MessageRow; answer: MessageRow } | null> {
  const client = await db();
  const [answer, question] = await client.message.findMany({
    where: { sessionId },
    orderBy: [{ createdAt: "desc" }, { role: "asc" }],
    take: 2,
  });
  return answer?.role === "assistant" && question?.role === "user" ? { question, answer } : null;
}

/**
 * Replaces an answer by its continuation (the same question answered further, from
 * context the user provided): one transaction, and the new row keeps the old one's
 * place in the conversation.
 */
export async function replaceAnswer(
  oldId: string,
  answer: Omit<MessageRow, "createdAt" | "id"> & { id: string },
): Promise<void> {
  const client = await db();
  const old = await client.message.findUnique({ where: { id: oldId } });
  if (!old) throw new WayfinderError("not_found:message", "The answer to continue no longer exists.");
  await client.$transaction([
    client.message.delete({ where: { id: oldId } }),
    client.message.create({
      data: { ...answer, content: storableText(answer.content), createdAt: old.createdAt },
    }),
  ]);
}
