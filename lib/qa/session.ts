/**
 * Session state for CGRAG: context cached from earlier questions (LRU-capped,
 * expiring after the TTL, dropped when the index generation changes) and the set of
 * gaps known to be unresolvable. Stored in the database so any instance can serve a
 * follow-up.
 */
import "server-only";
import { createSession, getSession, listMessages, saveSessionState } from "../db/sessions.ts";
import { WayfinderError } from "../errors.ts";
import type { ContextItem } from "../answerers/contract.ts";
import { assertMayContinue, EVERYONE, ownerFor, type ConversationAccess } from "./conversations.ts";
import type { Turn } from "./rewrite.ts";

export interface SessionState {
  id: string;
  isNew: boolean;
  /** true when an existing session's cache was dropped (TTL or re-index) */
  expired: boolean;
  generationId: string;
  cache: ContextItem[];
  notFound: Set<string>;
  history: Turn[];
}

export async function openSession(input: {
  sessionId: string | undefined;
  repositoryId: string;
  generationId: string;
  title: string;
  ttlMinutes: number;
  /** who asks: a new session is theirs, an existing one must be (default: everyone, for in-process callers) */
  conversations?: ConversationAccess;
  now?: Date;
}): Promise<SessionState> {
  const now = input.now ?? new Date();
  const access = input.conversations ?? EVERYONE;
  const existing = input.sessionId ? await getSession(input.sessionId) : null;
  if (existing) assertMayContinue(existing, access);
  if (existing && existing.repositoryId !== input.repositoryId) {
    throw new WayfinderError("bad_request:session", "This session belongs to another repository.");
  }
  if (!existing) {
    const created = await createSession({
      id: input.sessionId,
      repositoryId: input.repositoryId,
      generationId: input.generationId,
      title: input.title,
      ownerKey: ownerFor(access),
    });
    return {
      id: created.id,
      isNew: true,
      expired: false,
      generationId: input.generationId,
      cache: [],
      notFound: new Set(),
      history: [],
    };
  }
  const messages = await listMessages(existing.id);
  const history: Turn[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const next = messages[i + 1];
    if (m?.role === "user" && next?.role === "assistant")
      history.push({ question: m.content, answer: next.content });
  }
  const stale = isExpired(existing.lastAccessedAt, input.ttlMinutes, now);
  const reindexed = existing.generationId !== input.generationId;
  const keep = !stale && !reindexed;
  return {
    id: existing.id,
    isNew: false,
    expired: !keep,
    generationId: input.generationId,
    cache: keep ? parseCache(existing.cache) : [],
    // A re-index can make a missing name appear, so the not-found set goes with the cache.
    notFound: keep ? new Set(parseList(existing.notFound)) : new Set(),
    history,
  };
}

export function isExpired(lastAccessedAt: Date, ttlMinutes: number, now: Date): boolean {
  return now.getTime() - lastAccessedAt.getTime() > ttlMinutes * 60_000;
}

/**
 * The cache after a question: items used now become most recent; the oldest are
 * evicted beyond the cap. Order is least- to most-recently used.
 */
export function updateCache(cache: ContextItem[], used: ContextItem[], cap: number): ContextItem[] {
  if (cap <= 0) return [];
  const usedKeys = new Set(used.map((i) => i.key));
  const kept = cache.filter((i) => !usedKeys.has(i.key));
  const merged = [...kept, ...used.filter((i) => i.kind !== "flow" && i.kind !== "structure")];
  return merged.slice(Math.max(0, merged.length - cap));
}

export async function persistSession(state: SessionState, used: ContextItem[], cap: number): Promise<void> {
  const cache = updateCache(state.cache, used, cap).map((i) => ({ ...i, origin: "cache" as const }));
  await saveSessionState(state.id, {
    cache: JSON.stringify(cache),
    notFound: JSON.stringify([...state.notFound]),
    generationId: state.generationId,
  });
}

function parseCache(text: string): ContextItem[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? (value as ContextItem[]) : [];
  } catch {
    return [];
  }
}

function parseList(text: string): string[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}
