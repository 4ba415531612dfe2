/**
 * The admin token: generated once (crypto-random, mode 0600 under WAYFINDER_HOME),
 * reused by every later call and by the CLI, overridden by ADMIN_TOKEN, compared in
 * constant time; and the signed session cookie that the login page sets.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { adminTokenCommand } from "@/lib/cli/admin-commands";
import { resetEnvForTests } from "@/lib/env";
import {
  announceAdminToken,
  ensureAdminToken,
  signAdminSession,
  tokenFilePath,
  tokensMatch,
  verifyAdminSession,
  verifyAdminToken,
} from "./admin-token";

const base = fs.mkdtempSync(path.join(os.tmpdir(), "wf-admin-token-"));
let home: string;
let n = 0;

beforeEach(() => {
  home = path.join(base, `home-${++n}`);
  process.env.WAYFINDER_HOME = home;
  delete process.env.ADMIN_TOKEN;
  resetEnvForTests();
});
afterEach(() => {
  delete process.env.ADMIN_TOKEN;
  resetEnvForTests();
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe("generation and storage", () => {
  it("generates a random token on first use and stores it with mode 0600", () => {
    const first = ensureAdminToken();
    expect(first).toMatchObject({ source: "file", created: true, file: tokenFilePath() });
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fs.statSync(tokenFilePath()).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(tokenFilePath(), "utf8").trim()).toBe(first.token);

    const second = ensureAdminToken();
    expect(second).toMatchObject({ token: first.token, created: false });
  });

  it("differs between data directories", () => {
    const a = ensureAdminToken().token;
    process.env.WAYFINDER_HOME = path.join(base, "other");
    resetEnvForTests();
    expect(ensureAdminToken().token).not.toBe(a);
  });

  it("tightens a token file whose permissions were loosened", () => {
    ensureAdminToken();
    fs.chmodSync(tokenFilePath(), 0o644);
    ensureAdminToken();
    expect(fs.statSync(tokenFilePath()).mode & 0o777).toBe(0o600);
  });

  it("prefers ADMIN_TOKEN from the environment and writes no file", () => {
    process.env.ADMIN_TOKEN = "env-admin-token-0123456789";
    resetEnvForTests();
    expect(ensureAdminToken()).toMatchObject({
      source: "env",
      token: "env-admin-token-0123456789",
      file: null,
    });
    expect(fs.existsSync(tokenFilePath())).toBe(false);
    expect(verifyAdminToken("env-admin-token-0123456789")).toBe(true);
  });

  it("prints the token only at the start that generated it", () => {
    const lines: string[] = [];
    const { token } = announceAdminToken((l) => lines.push(l));
    expect(lines.join("\n")).toContain(token);
    const later: string[] = [];
    announceAdminToken((l) => later.push(l));
    expect(later.join("\n")).not.toContain(token);
    expect(later.join("\n")).toContain(tokenFilePath());
  });

  it("is printed by `wayfinder admin-token`, generating it when needed", async () => {
    const out = new PassThrough();
    const err = new PassThrough();
    const chunks: string[] = [];
    out.on("data", (c: Buffer) => chunks.push(c.toString()));
    expect(await adminTokenCommand({ values: {}, positionals: [], out, err })).toBe(0);
    expect(chunks.join("").trim()).toBe(ensureAdminToken().token);
  });
});

describe("verification", () => {
  it("accepts the token and nothing else", () => {
    const { token } = ensureAdminToken();
    expect(verifyAdminToken(token)).toBe(true);
    expect(verifyAdminToken(`${token}x`)).toBe(false);
    expect(verifyAdminToken(token.slice(0, -1))).toBe(false);
    expect(verifyAdminToken("")).toBe(false);
    expect(verifyAdminToken(null)).toBe(false);
    expect(verifyAdminToken(token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase())).toBe(
      false,
    );
  });

  it("compares inputs of any length without throwing (hashes are compared, not the strings)", () => {
    expect(tokensMatch("a", "a much longer secret value")).toBe(false);
    expect(tokensMatch("same-value", "same-value")).toBe(true);
  });
});

describe("session cookie", () => {
  const now = 1_800_000_000_000;

  it("round-trips the actor until it expires", () => {
    const value = signAdminSession({ actor: "alice", expiresAt: now + 1000 });
    expect(verifyAdminSession(value, now)).toEqual({ actor: "alice", expiresAt: now + 1000 });
    expect(verifyAdminSession(value, now + 1000)).toBeNull();
  });

  it("refuses a tampered payload, a forged signature and a cookie of another token", () => {
    const value = signAdminSession({ actor: "alice", expiresAt: now + 1000 });
    const [, sig] = value.split(".");
    const forgedPayload = Buffer.from(JSON.stringify({ a: "mallory", e: now + 1000 })).toString("base64url");
    expect(verifyAdminSession(`${forgedPayload}.${sig}`, now)).toBeNull();
    expect(verifyAdminSession(`${value.split(".")[0]}.${"A".repeat(43)}`, now)).toBeNull();
    expect(
      verifyAdminSession(
        signAdminSession({ actor: "x", expiresAt: now + 1000 }, "another-token-0123456789"),
        now,
      ),
    ).toBeNull();
    expect(verifyAdminSession("garbage", now)).toBeNull();
    expect(verifyAdminSession("", now)).toBeNull();
  });
});
