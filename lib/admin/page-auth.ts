/**
 * Admin access for server-rendered pages: the session cookie or a redirect to the
 * login page (which comes back to the page asked for). Each page calls this itself:
 * a layout is not re-run on client navigation, so it cannot guard its pages alone.
 */
import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { ADMIN_COOKIE, verifyAdminSession, type AdminSession } from "./token.ts";

export async function requireAdminPage(returnTo: string): Promise<AdminSession> {
  const store = await cookies();
  const session = verifyAdminSession(store.get(ADMIN_COOKIE)?.value);
  if (!session) redirect(`/admin/login?next=${encodeURIComponent(returnTo)}`);
  return session;
}

/** Only admin pages are valid places to return to after login (no open redirect). */
export function safeReturnPath(next: string | string[] | undefined): string {
  const value = typeof next === "string" ? next : "";
  return /^\/admin(\/[A-Za-z0-9/_-]*)?(\?[A-Za-z0-9=&_%-]*)?$/.test(value) &&
    !value.startsWith("/admin/login")
    ? value
    : "/admin";
}
