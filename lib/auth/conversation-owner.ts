/**
 * Who a caller is to its conversations (lib/qa/conversations.ts):
 *
 * - open mode: everyone (one person on their own machine);
 * - oidc: the person (`oidc:<subject>`), admin or not;
 * - a browser with the team or admin cookie: that browser, by a random id kept in a
 *   signed, httpOnly cookie (`browser:<id>`), set with the first question it asks;
 * - a script with a bearer token: the token's kind (`script:team`, `script:admin`), so
 *   scripts see the conversations scripts started and no browser's.
 *
 * The browser id is signed with a key derived from the admin token (the same on every
 * instance), so it cannot be chosen or forged; changing the admin token gives every
 * browser a new id (earlier conversations stay reachable through their share links).
 */
import "server-only";
import { createHmac, randomBytes } from "node:crypto";
import { ensureAdminToken } from "./admin-token.ts";
import { EVERYONE, type ConversationAccess } from "../qa/conversations.ts";
import { accessConfig } from "./config.ts";
import { sessionCookie } from "./cookies.ts";
import { readCookie, type HeaderSource, type Identity } from "./identity.ts";
import { signSession, verifySession } from "./stored-secret.ts";

export const BROWSER_COOKIE = "wayfinder_browser";
/** A browser keeps its id for a year (renewed with every question it asks). */
const BROWSER_ID_SECONDS = 365 * 24 * 60 * 60;
const PURPOSE = "browser-id";

function browserKey(): string {
  return createHmac("sha256", ensureAdminToken().token)
    .update("wayfinder-browser-id-key")
    .digest("base64url");
}

/** The browser id of a request's signed cookie, or null. */
export function browserIdOf(headers: HeaderSource, now = Date.now()): string | null {
  const session = verifySession(PURPOSE, readCookie(headers, BROWSER_COOKIE), browserKey(), now);
  return session && /^[A-Za-z0-9_-]{16,64}$/.test(session.actor) ? session.actor : null;
}

/** Set-Cookie holding `id` as this browser's id. */
export function browserIdCookie(request: Request, id: string, now = Date.now()): string {
  const value = signSession(PURPOSE, { actor: id, expiresAt: now + BROWSER_ID_SECONDS * 1000 }, browserKey());
  return sessionCookie(request, BROWSER_COOKIE, value, BROWSER_ID_SECONDS);
}

export interface CallerConversations {
  access: ConversationAccess;
  /** Set-Cookie to send when a browser id was minted for this request */
  setCookie: string | null;
}

/** An owner nobody holds: a caller without a browser id reads no owned conversation, and what it starts is unreachable. */
const unreachable = () => `browser:unknown-${randomBytes(18).toString("base64url")}`;

/**
 * Whose conversations the caller may see. With `mintFor` (the request that may start a
 * conversation), a browser that has no id yet gets one, and the Set-Cookie to keep it.
 */
export function conversationsOf(
  headers: HeaderSource,
  identity: Identity | null,
  mintFor?: Request,
): CallerConversations {
  if (accessConfig().mode === "open") return { access: EVERYONE, setCookie: null };
  const admin = identity?.role === "admin";
  const access = (owner: string): ConversationAccess => ({ kind: "owner", owner, admin });
  switch (identity?.via) {
    case "oidc":
      return { access: access(identity.subject), setCookie: null };
    case "access-bearer":
      return { access: access("script:team"), setCookie: null };
    case "admin-bearer":
      return { access: access("script:admin"), setCookie: null };
    case "access-cookie":
    case "admin-cookie": {
      const id = browserIdOf(headers);
      if (id) return { access: access(`browser:${id}`), setCookie: null };
      if (!mintFor) return { access: access(unreachable()), setCookie: null };
      const minted = randomBytes(18).toString("base64url");
      return { access: access(`browser:${minted}`), setCookie: browserIdCookie(mintFor, minted) };
    }
    default:
      return { access: access(unreachable()), setCookie: null };
  }
}

/** Whose conversations the page being rendered may list (pages never mint a browser id). */
export function pageConversations(headers: HeaderSource, identity: Identity | null): ConversationAccess {
  return conversationsOf(headers, identity).access;
}
