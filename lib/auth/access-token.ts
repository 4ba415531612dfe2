/**
 * The team access token of `token` mode: WAYFINDER_ACCESS_TOKEN, else generated into
 * WAYFINDER_HOME/access-token and printed once at start. A browser enters it once at
 * /login and keeps a signed, httpOnly cookie; scripts and MCP clients send it as
 * `Authorization: Bearer <token>`.
 */
import "server-only";
import { env } from "../env.ts";
import {
  ensureStoredSecret,
  secretsMatch,
  signSession,
  verifySession,
  type SignedSession,
  type StoredSecret,
} from "./stored-secret.ts";

export const ACCESS_COOKIE = "wayfinder_access";
/** A browser stays signed in for a month; changing the token signs every browser out. */
export const ACCESS_SESSION_SECONDS = 30 * 24 * 60 * 60;
const TOKEN_FILE = "access-token";
const SESSION_PURPOSE = "access-session";

export function ensureAccessToken(): StoredSecret {
  return ensureStoredSecret(TOKEN_FILE, env().WAYFINDER_ACCESS_TOKEN);
}

export function verifyAccessToken(candidate: string | null | undefined): boolean {
  return !!candidate && secretsMatch(candidate, ensureAccessToken().value);
}

export function signAccessSession(session: SignedSession, token = ensureAccessToken().value): string {
  return signSession(SESSION_PURPOSE, session, token);
}

export function verifyAccessSession(
  value: string | null | undefined,
  now = Date.now(),
  token = ensureAccessToken().value,
): SignedSession | null {
  return verifySession(SESSION_PURPOSE, value, token, now);
}

/** Prints the token once, when it was just generated; later starts only say where it is. */
export function announceAccessToken(log: (line: string) => void = console.log): void {
  const token = ensureAccessToken();
  if (token.source === "env") log("[wayfinder] access: using WAYFINDER_ACCESS_TOKEN from the environment");
  else if (token.created) {
    log(`[wayfinder] team access token (generated now, stored in ${token.file}, shown once):`);
    log(`[wayfinder]   ${token.value}`);
    log("[wayfinder] readers enter it at /login; scripts send it as Authorization: Bearer <token>");
  } else log(`[wayfinder] team access token: stored in ${token.file}`);
}
