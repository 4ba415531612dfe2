/**
 * Runs before every page and API route: a fresh CSP nonce per request (lib/auth/
 * security-headers.ts), and the access gate (lib/auth/gate.ts): in token and oidc
 * modes nothing but the sign-in pages, the health check and public share links is
 * served without an identity. Refused pages redirect to sign-in; refused API calls
 * get the usual JSON error.
 */
import { randomBytes } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";
import { accessConfig } from "@/lib/auth/config";
import { isApiPath, pathAccess } from "@/lib/auth/gate";
import { requireAccess } from "@/lib/auth/guards";
import { logRequest } from "@/lib/auth/request-log";
import { signInPath } from "@/lib/auth/sign-in-path";
import { contentSecurityPolicy } from "@/lib/auth/security-headers";
import { env } from "@/lib/env";
import { errorResponse, isWayfinderError } from "@/lib/errors";

export async function proxy(request: NextRequest): Promise<Response> {
  const started = performance.now();
  const nonce = randomBytes(16).toString("base64");
  const csp = contentSecurityPolicy(nonce, { dev: env().NODE_ENV === "development" });
  const { pathname, search } = request.nextUrl;
  const need = pathAccess(pathname, { publicShares: accessConfig().publicShares });
  let response: Response;
  try {
    if (need !== "public") await requireAccess(request, need);
    const headers = new Headers(request.headers);
    headers.set("content-security-policy", csp);
    headers.set("x-nonce", nonce);
    response = NextResponse.next({ request: { headers } });
  } catch (error) {
    if (isApiPath(pathname) || !isWayfinderError(error) || error.type === "too_many_requests") {
      response = errorResponse(error);
      logRequest(request, response.status, performance.now() - started, null);
    } else {
      // Signed in but not enough: the admin sign-in. Not signed in: the team sign-in first
      // (open mode has none, so admin pages go straight to the admin sign-in).
      const to = new URL(
        signInPath(
          error.type === "forbidden" ? "admin" : accessConfig().mode === "open" ? need : "reader",
          pathname + search,
        ),
        request.url,
      );
      response = NextResponse.redirect(to);
    }
    response.headers.set("cache-control", "no-store");
  }
  response.headers.set("content-security-policy", csp);
  return response;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
