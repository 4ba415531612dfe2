/**
 * The checks every route handler and page makes: one call says what the caller needs.
 *
 * - `reader`: may read repositories, ask, see conversations and share links;
 * - `manager`: may add, re-index, remove and schedule repositories (admins, or every
 *   reader when WAYFINDER_REPO_MANAGERS=readers, the default of open mode);
 * - `admin`: settings, metrics, golden questions, the secrets report.
 *
 * Refusals: 401 without an identity (the same bare answer whatever was wrong), 403 for
 * a signed-in reader asking for more, 429 for a client locked out after wrong tokens.
 * Pages redirect to the sign-in page instead.
 */
import "server-only";
import { WayfinderError } from "../errors.ts";
import { assertNotThrottled, recordTokenFailure, recordTokenSuccess } from "./token-throttle.ts";
import { accessConfig } from "./config.ts";
import { isSignedIn, readCredentials, type Identity } from "./identity.ts";

export type Access = "public" | "reader" | "manager" | "admin";

export function unauthorized(need: Access): WayfinderError {
  return need === "admin"
    ? new WayfinderError("unauthorized:admin", "Admin authentication required.")
    : new WayfinderError("unauthorized:access", "Sign in to use Wayfinder.");
}

function forbidden(need: Access): WayfinderError {
  return need === "admin"
    ? new WayfinderError("forbidden:admin", "Only admins may do this.")
    : new WayfinderError("forbidden:manage", "Only admins may add, re-index or remove repositories.");
}

/** Does `identity` satisfy `need`? (null: not at all; "signed-in" would be needed to say more.) */
export function satisfies(identity: Identity | null, need: Access): boolean {
  if (need === "public") return true;
  if (!identity) return false;
  if (need === "reader") return true;
  if (need === "manager" && accessConfig().repoManagers === "readers") return true;
  return identity.role === "admin";
}

/** What refusing `identity` for `need` looks like (401 or 403). */
export function refusal(identity: Identity | null, need: Access): WayfinderError {
  // The anonymous reader of open mode has not signed in: asking it for more is a 401, like no identity.
  return isSignedIn(identity) ? forbidden(need) : unauthorized(need);
}

/**
 * The identity of a request that needs `need`, or a thrown 401/403/429. A wrong bearer
 * token is counted per client; a locked-out client is refused before any check.
 */
export async function requireAccess(request: Request, need: Access): Promise<Identity | null> {
  const credentials = await readCredentials(request.headers, request.url);
  if (credentials.kind === "wrong-bearer") {
    await assertNotThrottled(request);
    await recordTokenFailure(request);
    if (need === "public") return null;
    throw unauthorized(need);
  }
  const identity = credentials.kind === "identity" ? credentials.identity : null;
  if (identity?.via === "admin-bearer" || identity?.via === "access-bearer") {
    await assertNotThrottled(request);
    await recordTokenSuccess(request);
  }
  if (!satisfies(identity, need)) throw refusal(identity, need);
  return identity;
}

/**
 * Does the caller see git's own reason when a remote cannot be reached (it may name
 * hosts and addresses of the server's network)? Admins do, and open mode's one person.
 */
export function seesGitReasons(identity: Identity | null): boolean {
  return accessConfig().mode === "open" || identity?.role === "admin";
}
