/**
 * Admin access for server-rendered pages: an admin identity (admin session cookie, or
 * an OIDC user listed in WAYFINDER_ADMINS) or a redirect to the admin sign-in page,
 * which comes back to the page asked for.
 */
import "server-only";
import type { Identity } from "./identity.ts";
import { requirePageAccess, safeReturnPath as safePath } from "./page.ts";

export async function requireAdminPage(returnTo: string): Promise<{ actor: string; identity: Identity }> {
  const identity = await requirePageAccess("admin", returnTo);
  return { actor: identity.actor, identity };
}

/** Only admin pages are valid places to return to after the admin sign-in (no open redirect). */
export function safeReturnPath(next: string | string[] | undefined): string {
  const value = safePath(next, "/admin");
  return /^\/admin(\/|\?|$)/.test(value) ? value : "/admin";
}
