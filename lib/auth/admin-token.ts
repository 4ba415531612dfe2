/**
 * The admin token: ADMIN_TOKEN from the environment, else one generated at first
 * start and kept in WAYFINDER_HOME/admin-token with mode 0600 (lib/auth/stored-secret.ts).
 * Also the signed session cookie the login page sets, so the raw token never has to
 * live in the browser.
 */
import "server-only";
import { env } from "../env.ts";
import {
  ensureStoredSecret,
  generateSecret,
  secretFilePath,
  secretsMatch,
  signSession,
  verifySession,
  type SignedSession,
} from "./stored-secret.ts";

export const ADMIN_COOKIE = "wayfinder_admin";
/** A login lasts a working day; the token itself does not expire. */
export const ADMIN_SESSION_SECONDS = 12 * 60 * 60;
const TOKEN_FILE = "admin-token";
const SESSION_PURPOSE = "admin-session";

export interface AdminToken {
  token: string;
  source: "env" | "file";
  /** the file holding it (source "file") */
  file: string | null;
  /** true when this call generated it */
  created: boolean;
}

export function tokenFilePath(home = env().home): string {
  return secretFilePath(TOKEN_FILE, home);
}

/** 32 random bytes, base64url: 43 characters, well above ADMIN_TOKEN's 16-character minimum. */
export const generateToken = generateSecret;

/** The token in force, generating and storing one when neither the environment nor the data directory has it. */
export function ensureAdminToken(): AdminToken {
  const { value, ...rest } = ensureStoredSecret(TOKEN_FILE, env().ADMIN_TOKEN);
  return { token: value, ...rest };
}

export const tokensMatch = secretsMatch;

export function verifyAdminToken(candidate: string | null | undefined): boolean {
  if (!candidate) return false;
  return tokensMatch(candidate, ensureAdminToken().token);
}

/** Prints the token once, when it was just generated; later starts only say where it is. */
export function announceAdminToken(log: (line: string) => void = console.log): AdminToken {
  const admin = ensureAdminToken();
  if (admin.source === "env") log("[wayfinder] admin: using ADMIN_TOKEN from the environment");
  else if (admin.created) {
    log(`[wayfinder] admin token (generated now, stored in ${admin.file}, shown once):`);
    log(`[wayfinder]   ${admin.token}`);
    log("[wayfinder] sign in at /admin/login; `npm run wayfinder -- admin-token` prints it again");
  } else {
    log(`[wayfinder] admin token: stored in ${admin.file} (\`npm run wayfinder -- admin-token\` prints it)`);
  }
  return admin;
}

// ---------------------------------------------------------------- session cookie

/** who signs the change log: the name entered at login, or "admin" */
export type AdminSession = SignedSession;

/** Keyed by the token, so changing the token signs everyone out. */
export function signAdminSession(session: AdminSession, token = ensureAdminToken().token): string {
  return signSession(SESSION_PURPOSE, session, token);
}

export function verifyAdminSession(
  value: string | null | undefined,
  now = Date.now(),
  token = ensureAdminToken().token,
): AdminSession | null {
  return verifySession(SESSION_PURPOSE, value, token, now);
}
