/** Who a request is, in each mode, from each kind of credential (real tokens, real Auth.js cookies). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { encode } from "@auth/core/jwt";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureAdminToken, signAdminSession } from "./admin-token";
import { resetEnvForTests } from "../env";
import { ensureAccessToken } from "./access-token";
import { readCredentials } from "./identity";

const base = fs.mkdtempSync(path.join(os.tmpdir(), "wf-identity-"));
const AUTH_SECRET = "identity-auth-secret-0123456789abcdef0123";
const SET = [
  "WAYFINDER_ACCESS",
  "WAYFINDER_ACCESS_TOKEN",
  "AUTH_SECRET",
  "WAYFINDER_OIDC_ISSUER",
  "WAYFINDER_OIDC_CLIENT_ID",
  "WAYFINDER_OIDC_CLIENT_SECRET",
  "WAYFINDER_ADMINS",
];
let n = 0;

function useMode(mode: string, extra: Record<string, string> = {}): void {
  for (const key of SET) delete process.env[key];
  Object.assign(process.env, {
    WAYFINDER_HOME: path.join(base, `home-${++n}`),
    WAYFINDER_ACCESS: mode,
    AUTH_SECRET,
    WAYFINDER_OIDC_ISSUER: "http://127.0.0.1:9/issuer",
    WAYFINDER_OIDC_CLIENT_ID: "id",
    WAYFINDER_OIDC_CLIENT_SECRET: "secret",
    WAYFINDER_ADMINS: "ada@example.test",
    ...extra,
  });
  delete process.env.ADMIN_TOKEN;
  resetEnvForTests();
}

const read = (headers: Record<string, string>) =>
  readCredentials(new Headers(headers), "http://127.0.0.1:3000/");
const sessionCookie = async (claims: Record<string, string>) =>
  `authjs.session-token=${await encode({ token: claims, secret: AUTH_SECRET, salt: "authjs.session-token" })}`;

beforeEach(() => useMode("open"));
afterEach(() => {
  for (const key of SET) delete process.env[key];
  process.env.WAYFINDER_ACCESS = "open";
  resetEnvForTests();
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe("readCredentials", () => {
  it("open mode: everyone is the anonymous reader; the admin token makes an admin", async () => {
    expect(await read({})).toMatchObject({ kind: "identity", identity: { role: "reader", via: "open" } });
    expect(await read({ authorization: `Bearer ${ensureAdminToken().token}` })).toMatchObject({
      identity: { role: "admin", via: "admin-bearer" },
    });
  });

  it("token mode: the team token as Bearer or cookie is a reader; anything else is nobody", async () => {
    useMode("token");
    const team = ensureAccessToken().value;
    expect(await read({ authorization: `Bearer ${team}` })).toMatchObject({
      identity: { role: "reader", via: "access-bearer" },
    });
    expect(await read({})).toEqual({ kind: "none" });
    expect(await read({ authorization: "Bearer not-the-team-token-0123" })).toEqual({ kind: "wrong-bearer" });
    expect(await read({ cookie: `wayfinder_access=${team}` })).toEqual({ kind: "none" });
    const forged = signAdminSession(
      { actor: "x", expiresAt: Date.now() + 60_000 },
      "a-guessed-key-0123456789",
    );
    expect(await read({ cookie: `wayfinder_admin=${forged}` })).toEqual({ kind: "none" });
  });

  it("oidc mode: the Auth.js session names the user; WAYFINDER_ADMINS makes an admin; a tampered cookie is nobody", async () => {
    useMode("oidc");
    expect(
      await read({ cookie: await sessionCookie({ sub: "u1", email: "rita@example.test" }) }),
    ).toMatchObject({
      identity: { role: "reader", via: "oidc", actor: "rita@example.test", subject: "oidc:u1" },
    });
    expect(
      await read({ cookie: await sessionCookie({ sub: "u2", email: "Ada@example.test" }) }),
    ).toMatchObject({
      identity: { role: "admin", via: "oidc" },
    });
    const cookie = await sessionCookie({ sub: "u1", email: "rita@example.test" });
    expect(await read({ cookie: `${cookie.slice(0, -4)}AAAA` })).toEqual({ kind: "none" });
    const otherKey = `authjs.session-token=${await encode({ token: { sub: "u3" }, secret: "another-secret-0123456789abcdef0123", salt: "authjs.session-token" })}`;
    expect(await read({ cookie: otherKey })).toEqual({ kind: "none" });
  });

  it("oidc mode: a team token is a reader only when WAYFINDER_ACCESS_TOKEN is set", async () => {
    useMode("oidc");
    expect(await read({ authorization: `Bearer ${ensureAccessToken().value}` })).toEqual({
      kind: "wrong-bearer",
    });
    useMode("oidc", { WAYFINDER_ACCESS_TOKEN: "agents-token-0123456789abcdef" });
    expect(await read({ authorization: "Bearer agents-token-0123456789abcdef" })).toMatchObject({
      identity: { role: "reader", via: "access-bearer" },
    });
  });
});
