/**
 * The admin sign-in: the token typed into /admin/login, checked against the admin
 * token and the wrong-token throttle, and the signed session cookie it earns (what
 * the browser sends afterwards; identity.ts reads it). A wrong token is the same bare
 * 401 whatever went wrong, so a caller learns nothing about why; a client that keeps
 * sending wrong tokens is slowed down with 429 (token-throttle.ts).
 */
import "server-only";
import { ADMIN_COOKIE, ADMIN_SESSION_SECONDS, signAdminSession, verifyAdminToken } from "./admin-token.ts";
import { sessionCookie } from "./cookies.ts";
import { unauthorized } from "./guards.ts";
import { assertNotThrottled, recordTokenFailure, recordTokenSuccess } from "./token-throttle.ts";

export interface AdminIdentity {
  actor: string;
  via: "bearer" | "cookie" | "oidc";
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
    throw unauthorized("admin");
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
