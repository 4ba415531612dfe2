/**
 * Admin access for route handlers: `Authorization: Bearer <token>` (scripts) or the
 * signed session cookie (the browser, after /admin/login), or an OIDC user listed in
 * WAYFINDER_ADMINS (lib/auth). Every refusal without credentials is the same 401
 * whatever went wrong, so a caller learns nothing about why or what is behind it; a
 * client that keeps sending wrong tokens is slowed down with 429 (throttle.ts).
 */
import "server-only";
import { WayfinderError } from "../errors.ts";
import { sessionCookie } from "../auth/cookies.ts";
import { requireAccess } from "../auth/guards.ts";
import { DEFAULT_ACTOR, type Identity } from "../auth/identity.ts";
import { ADMIN_COOKIE, ADMIN_SESSION_SECONDS, signAdminSession, verifyAdminToken } from "./token.ts";
import { assertNotThrottled, recordTokenFailure, recordTokenSuccess } from "./throttle.ts";

export { DEFAULT_ACTOR };

export interface AdminIdentity {
  actor: string;
  via: "bearer" | "cookie" | "oidc";
}

export function unauthorized(): WayfinderError {
  return new WayfinderError("unauthorized:admin", "Admin authentication required.");
}

export function adminIdentity(identity: Identity): AdminIdentity {
  return {
    actor: identity.actor,
    via: identity.via === "admin-bearer" ? "bearer" : identity.via === "oidc" ? "oidc" : "cookie",
  };
}

export async function requireAdmin(request: Request): Promise<AdminIdentity> {
  const identity = await requireAccess(request, "admin");
  if (!identity) throw unauthorized();
  return adminIdentity(identity);
}

/**
 * Checks an admin token sent by the login form: refused with 429 while the client is
 * locked out, 401 when wrong (and counted), else the identity.
 */
export async function checkToken(
  request: Request,
  token: string,
  actor: string,
  via: AdminIdentity["via"],
): Promise<AdminIdentity> {
  await assertNotThrottled(request);
  if (!verifyAdminToken(token)) {
    await recordTokenFailure(request);
    throw unauthorized();
  }
  await recordTokenSuccess(request);
  return { actor, via };
}

/** Set-Cookie for a fresh admin login. */
export function loginCookie(request: Request, actor: string, now = Date.now()): string {
  const value = signAdminSession({ actor, expiresAt: now + ADMIN_SESSION_SECONDS * 1000 });
  return sessionCookie(request, ADMIN_COOKIE, value, ADMIN_SESSION_SECONDS);
}

export function logoutCookie(request: Request): string {
  return sessionCookie(request, ADMIN_COOKIE, "", 0);
}
