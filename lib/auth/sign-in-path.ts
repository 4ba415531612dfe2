import type { Access } from "./guards.ts";

/** The sign-in page for `need` (admins have their own), coming back to `returnTo`. */
export function signInPath(need: Access, returnTo: string): string {
  const base = need === "admin" ? "/admin/login" : "/login";
  return `${base}?next=${encodeURIComponent(returnTo)}`;
}
