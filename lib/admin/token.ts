/**
 * The admin token: ADMIN_TOKEN from the environment, else one generated at first
 * start (crypto-random) and kept in WAYFINDER_HOME/admin-token with mode 0600, so
 * every process sharing the data directory (web instances, the CLI) agrees on it.
 * Also the signed session cookie the login page sets, so the raw token never has to
 * live in the browser.
 */
import "server-only";
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "../env.ts";

export const ADMIN_COOKIE = "wayfinder_admin";
/** A login lasts a working day; the token itself does not expire. */
export const ADMIN_SESSION_SECONDS = 12 * 60 * 60;

export interface AdminToken {
  token: string;
  source: "env" | "file";
  /** the file holding it (source "file") */
  file: string | null;
  /** true when this call generated it */
  created: boolean;
}

export function tokenFilePath(home = env().home): string {
  return path.join(home, "admin-token");
}

/** 32 random bytes, base64url: 43 characters, well above ADMIN_TOKEN's 16-character minimum. */
export function generateToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * The token in force, generating and storing one when neither the environment nor
 * the data directory has it. Creation is exclusive (`wx`), so two processes starting
 * at once end up with the same token: the loser reads the winner's file.
 */
export function ensureAdminToken(): AdminToken {
  const e = env();
  if (e.ADMIN_TOKEN) return { token: e.ADMIN_TOKEN, source: "env", file: null, created: false };
  const file = tokenFilePath(e.home);
  const existing = readTokenFile(file);
  if (existing) return { token: existing, source: "file", file, created: false };
  fs.mkdirSync(e.home, { recursive: true });
  const token = generateToken();
  try {
    fs.writeFileSync(file, `${token}\n`, { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const raced = readTokenFile(file);
    if (raced) return { token: raced, source: "file", file, created: false };
    throw error;
  }
  return { token, source: "file", file, created: true };
}

function readTokenFile(file: string): string | null {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  // Someone may have loosened the permissions by hand; the token is a password.
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  const token = text.trim();
  return token.length >= 16 ? token : null;
}

/**
 * Constant-time comparison. Both sides are hashed first so the comparison never
 * depends on (or reveals) the token's length.
 */
export function tokensMatch(candidate: string, token: string): boolean {
  const a = createHash("sha256").update(candidate).digest();
  const b = createHash("sha256").update(token).digest();
  return timingSafeEqual(a, b);
}

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

export interface AdminSession {
  /** who signs the change log: the name entered at login, or "admin" */
  actor: string;
  expiresAt: number;
}

/** Keyed by the token, so changing the token signs everyone out. */
function signature(payload: string, token: string): string {
  return createHmac("sha256", token).update(`wayfinder-admin-session|${payload}`).digest("base64url");
}

export function signAdminSession(session: AdminSession, token = ensureAdminToken().token): string {
  const payload = Buffer.from(JSON.stringify({ a: session.actor, e: session.expiresAt })).toString(
    "base64url",
  );
  return `${payload}.${signature(payload, token)}`;
}

export function verifyAdminSession(
  value: string | null | undefined,
  now = Date.now(),
  token = ensureAdminToken().token,
): AdminSession | null {
  if (!value) return null;
  const dot = value.indexOf(".");
  if (dot <= 0) return null;
  const payload = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(signature(payload, token));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const data = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
      a?: unknown;
      e?: unknown;
    };
    if (typeof data.a !== "string" || typeof data.e !== "number" || data.e <= now) return null;
    return { actor: data.a, expiresAt: data.e };
  } catch {
    return null;
  }
}
