/**
 * Access for server-rendered pages: the identity behind the page request, or a
 * redirect to the right sign-in page (which comes back to the page asked for). Each
 * page calls this itself, and proxy.ts refuses anonymous requests before any page
 * renders: a layout is not re-run on client navigation, so it cannot guard its pages.
 */
import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { accessConfig } from "./config.ts";
import { satisfies, type Access } from "./guards.ts";
import { identify, type Identity } from "./identity.ts";
import { signInPath } from "./sign-in-path.ts";

/** The identity behind the page being rendered, or null. */
export async function pageIdentity(): Promise<Identity | null> {
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost";
  const proto = h.get("x-forwarded-proto") === "https" ? "https" : "http";
  return identify(h, `${proto}://${host}/`);
}

export async function requirePageAccess(
  need: Exclude<Access, "public">,
  returnTo: string,
): Promise<Identity> {
  const identity = await pageIdentity();
  if (identity && satisfies(identity, need)) return identity;
  // Not signed in: the team sign-in first; signed in (or open mode) but not enough: the admin sign-in.
  redirect(signInPath(identity ? "admin" : "reader", returnTo));
}

/** A share link's page: readers, or anyone holding the link when WAYFINDER_PUBLIC_SHARES is on. */
export async function requireShareAccess(returnTo: string): Promise<Identity | null> {
  if (accessConfig().publicShares) return pageIdentity();
  return requirePageAccess("reader", returnTo);
}

/**
 * Where to go after signing in: a path of this site only (no open redirect), never
 * back to a sign-in page or an API route.
 */
export function safeReturnPath(next: string | string[] | undefined, fallback = "/"): string {
  const value = typeof next === "string" ? next : "";
  return /^\/(?![/\\])[A-Za-z0-9/_.~%?=&+-]*$/.test(value) &&
    !/^\/(login|admin\/login|api)(\/|\?|$)/.test(value)
    ? value
    : fallback;
}
