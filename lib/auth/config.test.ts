/** The access mode follows WAYFINDER_ACCESS, else the address the server listens on. */
import { describe, expect, it } from "vitest";
import { parseEnv } from "../env";
import { isLoopbackHost, listenHostFromArgs, openAccessWarning, resolveAccessConfig } from "./config";

const NEXT = ["/usr/bin/node", "/app/node_modules/next/dist/bin/next"];

describe("listenHostFromArgs", () => {
  it("reads -H / --hostname of next start and next dev", () => {
    expect(listenHostFromArgs([...NEXT, "start", "--port", "3000", "--hostname", "127.0.0.1"])).toBe(
      "127.0.0.1",
    );
    expect(listenHostFromArgs([...NEXT, "dev", "-H", "::1"])).toBe("::1");
    expect(listenHostFromArgs([...NEXT, "start", "--hostname=10.0.0.5"])).toBe("10.0.0.5");
  });
  it("is every interface when next start names none, and unknown outside Next.js", () => {
    expect(listenHostFromArgs([...NEXT, "start", "--port", "3000"])).toBe("0.0.0.0");
    expect(listenHostFromArgs(["/usr/bin/node", "/app/lib/cli/main.ts", "index", "."])).toBeNull();
  });
});

describe("resolveAccessConfig", () => {
  const config = (env: Record<string, string>, host: string | null) =>
    resolveAccessConfig(parseEnv(env), host);

  it("is open only on loopback, token elsewhere or when the address is unknown", () => {
    for (const host of ["127.0.0.1", "localhost", "::1", "[::1]", "127.1.2.3"]) {
      expect(isLoopbackHost(host), host).toBe(true);
      expect(config({}, host)).toMatchObject({
        mode: "open",
        modeSource: "loopback",
        repoManagers: "readers",
        repoRoots: null,
      });
    }
    for (const host of ["0.0.0.0", "::", "192.168.1.4", "wayfinder.internal", null]) {
      expect(config({}, host), String(host)).toMatchObject({
        mode: "token",
        modeSource: "network",
        repoManagers: "admins",
        repoRoots: [],
      });
    }
  });

  it("follows WAYFINDER_ACCESS and the other settings", () => {
    expect(config({ WAYFINDER_ACCESS: "open" }, "0.0.0.0")).toMatchObject({
      mode: "open",
      modeSource: "WAYFINDER_ACCESS",
    });
    expect(
      config(
        {
          WAYFINDER_ACCESS: "token",
          WAYFINDER_REPO_MANAGERS: "readers",
          WAYFINDER_PUBLIC_SHARES: "true",
          WAYFINDER_REPO_ROOTS: "/srv/repos",
        },
        "127.0.0.1",
      ),
    ).toMatchObject({
      mode: "token",
      repoManagers: "readers",
      publicShares: true,
      repoRoots: ["/srv/repos"],
    });
  });

  it("needs the issuer, client id and secret in oidc mode, and reads admins and allowed sign-ins", () => {
    expect(() =>
      config({ WAYFINDER_ACCESS: "oidc", WAYFINDER_OIDC_ISSUER: "https://id.example.com" }, null),
    ).toThrow(/WAYFINDER_OIDC_CLIENT_ID, WAYFINDER_OIDC_CLIENT_SECRET/);
    const oidc = config(
      {
        WAYFINDER_ACCESS: "oidc",
        WAYFINDER_OIDC_ISSUER: "https://id.example.com",
        WAYFINDER_OIDC_CLIENT_ID: "wayfinder",
        WAYFINDER_OIDC_CLIENT_SECRET: "s3cret",
        WAYFINDER_ADMINS: "Ada@Example.com, sub-42",
        WAYFINDER_OIDC_ALLOWED: "@example.com",
      },
      null,
    );
    expect(oidc.admins).toEqual(["ada@example.com", "sub-42"]);
    expect(oidc.oidc).toMatchObject({
      issuer: "https://id.example.com",
      allowed: ["@example.com"],
      name: "single sign-on",
    });
  });
});

describe("openAccessWarning", () => {
  const config = (env: Record<string, string>, host: string | null) =>
    resolveAccessConfig(parseEnv(env), host);

  it("warns when open mode listens beyond loopback, and only then", () => {
    for (const host of ["0.0.0.0", "::", "192.168.1.4"]) {
      const warning = openAccessWarning(config({ WAYFINDER_ACCESS: "open" }, host));
      expect(warning, host).toContain(
        `[wayfinder] warning: access is open (no sign-in) while the server listens on ${host}`,
      );
    }
    expect(openAccessWarning(config({ WAYFINDER_ACCESS: "open" }, "127.0.0.1"))).toBeNull();
    expect(openAccessWarning(config({}, "127.0.0.1"))).toBeNull();
    expect(openAccessWarning(config({ WAYFINDER_ACCESS: "token" }, "0.0.0.0"))).toBeNull();
    expect(openAccessWarning(config({ WAYFINDER_ACCESS: "open" }, null))).toBeNull();
  });
});
