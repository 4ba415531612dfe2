/**
 * Sign-in with any OpenID Connect provider (`oidc` mode) through Auth.js (@auth/core):
 * discovery, PKCE, state and nonce checks, the code exchange and the encrypted session
 * cookie are Auth.js's; this module only configures it and reads the session back.
 * Sessions are stateless (JWT in an httpOnly cookie), so every web instance that
 * shares AUTH_SECRET (or WAYFINDER_HOME) accepts them.
 */
import "server-only";
import { Auth, type AuthConfig } from "@auth/core";
import { env } from "../env.ts";
import { accessConfig, type OidcSettings } from "./config.ts";
import { ensureStoredSecret } from "./stored-secret.ts";

export const AUTH_BASE_PATH = "/api/auth";
export const OIDC_PROVIDER_ID = "oidc";
/** A sign-in lasts a working day. */
const SESSION_SECONDS = 12 * 60 * 60;

export interface OidcUser {
  subject: string;
  email: string | null;
  name: string | null;
}

/** May this person sign in? Emails or `@domain` entries; an unverified email never matches. */
export function isAllowedSignIn(
  allowed: string[],
  profile: { email?: unknown; email_verified?: unknown },
): boolean {
  if (allowed.length === 0) return true;
  const email = typeof profile.email === "string" ? profile.email.toLowerCase() : "";
  if (!email || profile.email_verified === false) return false;
  const domain = email.slice(email.lastIndexOf("@"));
  return allowed.includes(email) || allowed.includes(domain);
}

function authConfig(oidc: OidcSettings): AuthConfig {
  return {
    basePath: AUTH_BASE_PATH,
    trustHost: true,
    secret: ensureStoredSecret("auth-secret", env().AUTH_SECRET, 32).value,
    session: { strategy: "jwt", maxAge: SESSION_SECONDS },
    pages: { signIn: "/login", signOut: "/login", error: "/login" },
    providers: [
      {
        id: OIDC_PROVIDER_ID,
        name: oidc.name,
        type: "oidc",
        issuer: oidc.issuer,
        clientId: oidc.clientId,
        clientSecret: oidc.clientSecret,
        checks: ["pkce", "state", "nonce"],
        authorization: { params: { scope: "openid email profile" } },
      },
    ],
    callbacks: {
      signIn: ({ profile }) => isAllowedSignIn(oidc.allowed, profile ?? {}),
      jwt: ({ token, profile }) => {
        if (profile?.sub) token.sub = profile.sub;
        return token;
      },
      session: ({ session, token }) => {
        // Only what the app needs reaches the session endpoint; the ID token stays out.
        return { ...session, user: { ...session.user, id: token.sub ?? "" } };
      },
    },
    logger: {
      // Auth.js errors name the failing step (e.g. an unreachable issuer); never the tokens.
      error: (error) => console.error(`[wayfinder] sign-in: ${error.name}: ${error.message}`),
      warn: () => undefined,
      debug: () => undefined,
    },
  };
}

/** The request as Auth.js should see it: at the address the browser used (behind a proxy too). */
function publicRequest(request: Request): Request {
  const url = new URL(request.url);
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  if (host) url.host = host;
  if (proto === "http" || proto === "https") url.protocol = `${proto}:`;
  return url.href === request.url ? request : new Request(url, request);
}

/** Handles /api/auth/* (sign-in, callback, CSRF, session, sign-out); 404 unless the mode is oidc. */
export async function handleAuthRequest(request: Request): Promise<Response> {
  const { oidc } = accessConfig();
  if (!oidc)
    return Response.json({ error: { code: "not_found:auth", message: "Not found." } }, { status: 404 });
  return Auth(publicRequest(request), authConfig(oidc));
}

/** The signed-in user behind a request's session cookie, or null. */
export async function oidcUser(headers: Pick<Headers, "get">, requestUrl: string): Promise<OidcUser | null> {
  const { oidc } = accessConfig();
  const cookie = headers.get("cookie");
  if (!oidc || !cookie) return null;
  const url = new URL(`${AUTH_BASE_PATH}/session`, requestUrl);
  const forwarded = new Headers({ cookie });
  for (const name of ["x-forwarded-host", "x-forwarded-proto", "host"]) {
    const value = headers.get(name);
    if (value) forwarded.set(name, value);
  }
  const response = await Auth(publicRequest(new Request(url, { headers: forwarded })), authConfig(oidc));
  if (!response.ok) return null;
  const session = (await response.json().catch(() => null)) as {
    user?: { id?: string; email?: string | null; name?: string | null };
  } | null;
  const subject = session?.user?.id;
  if (!subject) return null;
  return { subject, email: session.user?.email ?? null, name: session.user?.name ?? null };
}
