import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { testSuites } from "./suites.mts";

// Spelled in pieces so that this file itself is not read as opening a database or mocking.
const OPENS = ["setupTestDatabase", "("].join("");
const MOCKS = ["vi", "mock("].join(".");
const SUPPORT = ["..", "..", "test-support"].join("/");

const root = fs.mkdtempSync(path.join(os.tmpdir(), "wayfinder-suites-"));
const write = (relative: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  fs.writeFileSync(path.join(root, relative), text);
};
write("test-support/temp-env.ts", `export async function ${OPENS}) {}\n`);
write("test-support/qa-env.ts", 'const { setupTestDatabase } = await import("./temp-env.ts");\n');
write("test-support/model.ts", "export const reply = 1;\n");
write("lib/db/store.test.ts", `import { setupTestDatabase } from "${SUPPORT}/temp-env.ts";\n`);
write("app/api/route.test.ts", `import { setupQaHome } from "@/${SUPPORT.slice(6)}/qa-env";\n`);
write(
  "lib/qa/rules.test.ts",
  `import { reply } from "${SUPPORT}/model.ts";\nimport { x } from "./qa-env";\n`,
);
write("lib/qa/mocked.test.ts", `import { reply } from "${SUPPORT}/model.ts";\n${MOCKS}"./x");\n`);
write("lib/qa/mocked-db.test.ts", `import { setupQaHome } from "${SUPPORT}/qa-env.ts";\n${MOCKS}"./x");\n`);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("test suites", () => {
  it("puts files that vi.mock in a fresh process and every other file in the shared one", () => {
    expect(testSuites(root, { databaseOnly: false })).toEqual({
      isolated: ["lib/qa/mocked-db.test.ts", "lib/qa/mocked.test.ts"],
      shared: ["app/api/route.test.ts", "lib/db/store.test.ts", "lib/qa/rules.test.ts"],
    });
  });

  it("keeps for PostgreSQL only files that open a test database, through helpers too", () => {
    // qa-env opens one through temp-env; a test file's own sibling named qa-env does not count.
    expect(testSuites(root, { databaseOnly: true })).toEqual({
      isolated: ["lib/qa/mocked-db.test.ts"],
      shared: ["app/api/route.test.ts", "lib/db/store.test.ts"],
    });
  });

  it("finds this repository's database tests", () => {
    const repo = path.resolve(import.meta.dirname, "..");
    const all = testSuites(repo, { databaseOnly: false });
    const pg = testSuites(repo, { databaseOnly: true });
    const pgFiles = [...pg.shared, ...pg.isolated];
    expect(pgFiles).toContain("lib/db/sessions.test.ts");
    expect(pgFiles).toContain("app/api/qa/db-fault.test.ts");
    expect(pgFiles).not.toContain("lib/qa/classify-rules.test.ts");
    expect(all.isolated).toContain("app/api/qa/db-fault.test.ts");
    expect(pgFiles.length).toBeLessThan(all.shared.length + all.isolated.length);
  });
});
