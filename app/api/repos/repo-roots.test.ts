/**
 * WAYFINDER_REPO_ROOTS: on a shared server the web app may only add repositories
 * under the configured folders. Real route handler, real database, real folders.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { listRepositories } from "@/lib/db/repositories";
import { resetEnvForTests } from "@/lib/env";
import { setupTempEnv, type TempEnv } from "@/test-support/temp-env";
import { POST as addRepository } from "./route";

let t: TempEnv;
let allowedDir: string;
let inside: string;
let outside: string;

const post = (body: unknown) =>
  addRepository(
    new Request("http://localhost/api/repos", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );

beforeAll(async () => {
  t = await setupTempEnv();
  allowedDir = t.makeDir("allowed");
  inside = path.join(allowedDir, "project");
  fs.mkdirSync(inside);
  fs.writeFileSync(path.join(inside, "main.py"), "def main():\n    return 1\n");
  outside = t.makeRepo({ "secret.py": "TOKEN = 1\n" }, "elsewhere");
  process.env.WAYFINDER_REPO_ROOTS = allowedDir;
  resetEnvForTests();
});

afterEach(() => {
  process.env.WAYFINDER_REPO_ROOTS = allowedDir;
  resetEnvForTests();
});

afterAll(async () => {
  delete process.env.WAYFINDER_REPO_ROOTS;
  await t.cleanup();
});

describe("POST /api/repos with WAYFINDER_REPO_ROOTS", () => {
  it("refuses a folder outside the allowed roots with 403 and registers nothing", async () => {
    const response = await post({ path: outside });
    expect(response.status).toBe(403);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("forbidden:repo_path");
    expect(body.error.message).toContain(allowedDir);
    expect(await listRepositories()).toHaveLength(0);
  });

  it("refuses a link inside the allowed root that points outside it", async () => {
    const link = path.join(allowedDir, "sneaky");
    fs.symlinkSync(outside, link);
    const response = await post({ path: link });
    expect(response.status).toBe(403);
    expect(await listRepositories()).toHaveLength(0);
  });

  it("refuses a sibling folder whose name merely starts with the allowed root's", async () => {
    const sibling = t.makeRepo({ "a.py": "A = 1\n" }, "allowed-not");
    const response = await post({ path: sibling });
    expect(response.status).toBe(403);
  });

  it("adds a folder inside an allowed root", async () => {
    const response = await post({ path: inside });
    expect(response.status).toBe(202);
    const repositories = await listRepositories();
    expect(repositories.map((r) => r.rootPath)).toEqual([fs.realpathSync(inside)]);
  });

  it("rejects a relative entry in the setting at startup", async () => {
    process.env.WAYFINDER_REPO_ROOTS = "relative/dir";
    resetEnvForTests();
    const { env } = await import("@/lib/env");
    expect(() => env()).toThrow(/WAYFINDER_REPO_ROOTS: relative\/dir is not an absolute path/);
  });
});
