/**
 * Who is behind a request, in every access mode. One place reads every credential:
 *
 * - `Authorization: Bearer <token>`: the admin token (admin) or the team access token
 *   (reader; in oidc mode only when WAYFINDER_ACCESS_TOKEN is set, for scripts and agents). A bearer that matches neither is no identity at all,
 *   never rescued by a cookie, and counts as a wrong guess (token-throttle.ts).
 * - the admin session cookie (/admin/login): admin, in every mode;
 * - token mode: the signed team cookie (/login): reader;
 * - oidc mode: the Auth.js session: admin when the email or subject is in WAYFINDER_ADMINS, else reader;
 * - open mode: everyone else is an anonymous reader.
 */
import "server-only";
import { ADMIN_COOKIE, verifyAdminSession, verifyAdminToken } from "./admin-token.ts";
import { ACCESS_COOKIE, verifyAccessSession, verifyAccessToken } from "./access-token.ts";
import { env } from "../env.ts";
import { accessConfig } from "./config.ts";
import { oidcUser } from "./oidc.ts";

export type Role = "reader" | "admin";

/** The actor of an admin who gave no name (bearer token, unnamed login). */
export const DEFAULT_ACTOR = "admin";

export interface Identity {
  role: Role;
  /** a name for logs and the settings change log */
  actor: string;
  /** a stable key per person where one is known (oidc:<sub>), else per credential kind */
  subject: string;
  via: "open" | "access-cookie" | "access-bearer" | "admin-cookie" | "admin-bearer" | "oidc";
}

export type Credentials =
  | { kind: "identity"; identity: Identity }
  /** a bearer token was sent and matched nothing */
  | { kind: "wrong-bearer" }
  | { kind: "none" };

/** What identity needs of request headers (a Request's, or a page's `headers()`). */
export type HeaderSource = Pick<Headers, "get">;

export function bearerToken(headers: HeaderSource): string | null {
  const header = headers.get("authorization");
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1] ?? null;
}

export function readCookie(headers: HeaderSource, name: string): string | null {
  const header = headers.get("cookie");
  if (!header) return null;
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq < 0) continue;
    if (pair.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(pair.slice(eq + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

const ANONYMOUS: Identity = { role: "reader", actor: "anonymous", subject: "open", via: "open" };

/** Reads a request's credentials (headers and the URL it was sent to). */
export async function readCredentials(headers: HeaderSource, url: string): Promise<Credentials> {
  const config = accessConfig();
  const bearer = bearerToken(headers);
  if (bearer !== null) {
    if (verifyAdminToken(bearer))
      return {
        kind: "identity",
        identity: { role: "admin", actor: DEFAULT_ACTOR, subject: "admin", via: "admin-bearer" },
      };
    // Token mode's team token; in oidc mode a WAYFINDER_ACCESS_TOKEN, when set, is the reader token of scripts and agents.
    const teamToken = config.mode === "token" || (config.mode === "oidc" && !!env().WAYFINDER_ACCESS_TOKEN);
    if (teamToken && verifyAccessToken(bearer))
      return {
        kind: "identity",
        identity: { role: "reader", actor: "team", subject: "team", via: "access-bearer" },
      };
    return { kind: "wrong-bearer" };
  }
  const admin = verifyAdminSession(readCookie(headers, ADMIN_COOKIE));
  if (admin)
    return {
      kind: "identity",
      identity: { role: "admin", actor: admin.actor, subject: "admin", via: "admin-cookie" },
    };
  if (config.mode === "token") {
    const session = verifyAccessSession(readCookie(headers, ACCESS_COOKIE));
    if (session)
      return {
        kind: "identity",
        identity: { role: "reader", actor: session.actor, subject: "team", via: "access-cookie" },
      };
  }
  if (config.mode === "oidc") {
    const user = await oidcUser(headers, url);
    if (user) {
      const isAdmin =
        config.admins.includes(user.subject.toLowerCase()) ||
        (user.email !== null && config.admins.includes(user.email.toLowerCase()));
      return {
        kind: "identity",
        identity: {
          role: isAdmin ? "admin" : "reader",
          actor: user.email ?? user.name ?? user.subject,
          subject: `oidc:${user.subject}`,
          via: "oidc",
        },
      };
    }
  }
  if (config.mode === "open") return { kind: "identity", identity: ANONYMOUS };
  return { kind: "none" };
}

/** The identity behind a request, or null. */
export async function identify(headers: HeaderSource, url: string): Promise<Identity | null> {
  const credentials = await readCredentials(headers, url);
  return credentials.kind === "identity" ? credentials.identity : null;
}

/** Signed in by something a person chose (not the anonymous reader of open mode). */
export function isSignedIn(identity: Identity | null): identity is Identity {
  return identity !== null && identity.via !== "open";
}
