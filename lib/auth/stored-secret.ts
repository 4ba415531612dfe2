/**
 * Secrets the server needs and an operator may leave unset (the admin token, the team
 * access token, the key of sign-in cookies): taken from the environment when given,
 * else generated once (crypto-random) into a file of WAYFINDER_HOME with mode 0600,
 * so every process sharing the data directory (web instances, the CLI) agrees on it.
 * Also the HMAC-signed cookie values built on such a secret, so the raw token never
 * has to live in a browser.
 */
import "server-only";
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "../env.ts";

export interface StoredSecret {
  value: string;
  source: "env" | "file";
  /** the file holding it (source "file") */
  file: string | null;
  /** true when this call generated it */
  created: boolean;
}

/** 32 random bytes, base64url: 43 characters. */
export function generateSecret(): string {
  return randomBytes(32).toString("base64url");
}

export function secretFilePath(name: string, home = env().home): string {
  return path.join(home, name);
}

/**
 * The secret in force: `fromEnv` when set, else the file `name` in WAYFINDER_HOME,
 * generated when missing. Creation is exclusive (`wx`), so two processes starting at
 * once end up with the same value: the loser reads the winner's file.
 */
export function ensureStoredSecret(name: string, fromEnv: string | undefined, minLength = 16): StoredSecret {
  if (fromEnv) return { value: fromEnv, source: "env", file: null, created: false };
  const home = env().home;
  const file = secretFilePath(name, home);
  const existing = readSecretFile(file, minLength);
  if (existing) return { value: existing, source: "file", file, created: false };
  fs.mkdirSync(home, { recursive: true });
  const value = generateSecret();
  try {
    fs.writeFileSync(file, `${value}\n`, { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const raced = readSecretFile(file, minLength);
    if (raced) return { value: raced, source: "file", file, created: false };
    throw error;
  }
  return { value, source: "file", file, created: true };
}

function readSecretFile(file: string, minLength: number): string | null {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  // Someone may have loosened the permissions by hand; the value is a password.
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  const value = text.trim();
  return value.length >= minLength ? value : null;
}

/**
 * Constant-time comparison. Both sides are hashed first so the comparison never
 * depends on (or reveals) the secret's length.
 */
export function secretsMatch(candidate: string, secret: string): boolean {
  const a = createHash("sha256").update(candidate).digest();
  const b = createHash("sha256").update(secret).digest();
  return timingSafeEqual(a, b);
}

// ---------------------------------------------------------------- signed cookie values

/** Keyed by the secret and a purpose, so changing the secret signs everyone out and values do not cross purposes. */
function signature(purpose: string, payload: string, key: string): string {
  return createHmac("sha256", key).update(`wayfinder-${purpose}|${payload}`).digest("base64url");
}

export interface SignedSession {
  /** who the cookie names (shown in logs and the change log) */
  actor: string;
  expiresAt: number;
}

export function signSession(purpose: string, session: SignedSession, key: string): string {
  const payload = Buffer.from(JSON.stringify({ a: session.actor, e: session.expiresAt })).toString(
    "base64url",
  );
  return `${payload}.${signature(purpose, payload, key)}`;
}

export function verifySession(
  purpose: string,
  value: string | null | undefined,
  key: string,
  now = Date.now(),
): SignedSession | null {
  if (!value) return null;
  const dot = value.indexOf(".");
  if (dot <= 0) return null;
  const payload = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(signature(purpose, payload, key));
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
