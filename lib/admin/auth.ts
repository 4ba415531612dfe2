/**
 * Admin access for route handlers: `Authorization: Bearer <token>` (scripts) or the
 * signed session cookie (the browser, after /admin/login). Every refusal is the same
 * 401 whatever went wrong, so a caller learns nothing about why or what is behind it;
 * a client that keeps sending wrong tokens is slowed down with 429 (throttle.ts).
 */
import "server-only";
import { WayfinderError } from "../errors.ts";
import {
  ADMIN_COOKIE,
  ADMIN_SESSION_SECONDS,
  signAdminSession,
  verifyAdminSession,
  verifyAdminToken,
} from "./token.ts";
import { assertNotThrottled, authThrottle, clientKey } from "./throttle.ts";

export interface AdminIdentity {
  actor: string;
  via: "bearer" | "cookie";
}

/** Names people type at login: short, printable, safe to show in the change log. */
export const ACTOR_PATTERN = /^[\p{L}\p{N} ._@-]{1,40}$/u;
export const DEFAULT_ACTOR = "admin";

export function unauthorized(): WayfinderError {
  return new WayfinderError("unauthorized:admin", "Admin authentication required.");
}

export function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1] ?? null;
}

export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq < 0) continue;
    if (pair.slice(0, eq).trim() === name) return decodeURIComponent(pair.slice(eq + 1).trim());
  }
  return null;
}

/** The admin behind a request, or null. A present-but-wrong bearer token is never rescued by a cookie. */
export function identify(request: Request): AdminIdentity | null {
  const bearer = bearerToken(request);
  if (bearer !== null) return verifyAdminToken(bearer) ? { actor: DEFAULT_ACTOR, via: "bearer" } : null;
  const session = verifyAdminSession(readCookie(request, ADMIN_COOKIE));
  return session ? { actor: session.actor, via: "cookie" } : null;
}

export interface ReaderIdentity {
  actor: string;
  via: "open" | AdminIdentity["via"];
}

/**
 * Who may read repositories (questions, search, the MCP tools). Reading is open to
 * whoever reaches the server, as the web pages and /api/qa are; an admin credential,
 * when sent, names the reader. Routes call this once, before their handler.
 */
export function requireReader(request: Request): ReaderIdentity {
  return identify(request) ?? { actor: "reader", via: "open" };
}

export function requireAdmin(request: Request): AdminIdentity {
  // Only token checks are throttled: a signed cookie is not something to guess at.
  const bearer = bearerToken(request);
  if (bearer !== null) return checkToken(request, bearer, DEFAULT_ACTOR, "bearer");
  const identity = identify(request);
  if (!identity) throw unauthorized();
  return identity;
}

/**
 * Checks an admin token sent by a client (bearer header or login form): refused with
 * 429 while the client is locked out, 401 when wrong (and counted), else the identity.
 */
export function checkToken(
  request: Request,
  token: string,
  actor: string,
  via: AdminIdentity["via"],
): AdminIdentity {
  assertNotThrottled(request);
  const client = clientKey(request);
  if (!verifyAdminToken(token)) {
    authThrottle().recordFailure(client);
    throw unauthorized();
  }
  authThrottle().recordSuccess(client);
  return { actor, via };
}

function isHttps(request: Request): boolean {
  const forwarded = request.headers.get("x-forwarded-proto");
  return (
    (forwarded ? forwarded.split(",")[0]?.trim() : new URL(request.url).protocol.replace(":", "")) === "https"
  );
}

/** Set-Cookie for a fresh login: httpOnly, SameSite=Strict (no cross-site posts), Secure on https. */
export function loginCookie(request: Request, actor: string, now = Date.now()): string {
  const value = signAdminSession({ actor, expiresAt: now + ADMIN_SESSION_SECONDS * 1000 });
  return serializeCookie(request, value, ADMIN_SESSION_SECONDS);
}

export function logoutCookie(request: Request): string {
  return serializeCookie(request, "", 0);
}

function serializeCookie(request: Request, value: string, maxAge: number): string {
  const parts = [`${ADMIN_COOKIE}=${value}`, "Path=/", `Max-Age=${maxAge}`, "HttpOnly", "SameSite=Strict"];
  if (isHttps(request)) parts.push("Secure");
  return parts.join("; ");
}
