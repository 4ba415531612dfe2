/**
 * Which unit-test files run how (read by vitest.config.mts):
 *
 * - A file that replaces modules with `vi.mock` runs in its own process: a module cache
 *   shared with other files would already hold the real module.
 * - Every other file shares its worker's module cache with the files before it, so the
 *   grammars, Prisma client and route modules are loaded once per worker, not per file.
 *   Each file still sets up its own home and database (temp-env.ts).
 * - On PostgreSQL only files that open a test database run: a file that never calls
 *   `setupTestDatabase` (directly or through a test-support helper) runs the same code
 *   on either database, and the SQLite run already covers it.
 */
import fs from "node:fs";
import path from "node:path";

export const TEST_GLOBS = [
  "lib/**/*.test.ts",
  "app/**/*.test.ts",
  "components/**/*.test.ts",
  "test-support/**/*.test.ts",
  "bench/**/*.test.ts",
];

const SUPPORT_DIR = "test-support";

/** Support modules that open a test database, directly or through another support module. */
function databaseSupportModules(root: string): Set<string> {
  const sources = new Map<string, string>();
  for (const file of fs.readdirSync(path.join(root, SUPPORT_DIR))) {
    if (file.endsWith(".ts") && !file.endsWith(".test.ts")) {
      sources.set(file.replace(/\.ts$/, ""), fs.readFileSync(path.join(root, SUPPORT_DIR, file), "utf8"));
    }
  }
  const opening = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const [name, text] of sources) {
      if (opening.has(name)) continue;
      if (/\bsetupTestDatabase\(/.test(text) || importsAny(text, opening, true)) {
        opening.add(name);
        grew = true;
      }
    }
  }
  return opening;
}

/**
 * Whether `text` imports one of the support modules named: through a path into
 * test-support/, or (from inside test-support/) a sibling `./name`.
 */
function importsAny(text: string, modules: Set<string>, fromSupport = false): boolean {
  for (const match of text.matchAll(/(?:from|import\()\s*["']([^"']+)["']/g)) {
    const specifier = match[1] ?? "";
    const inSupport = specifier.includes("test-support/") || (fromSupport && specifier.startsWith("./"));
    if (inSupport && modules.has(path.basename(specifier).replace(/\.ts$/, ""))) return true;
  }
  return false;
}

export interface TestSuites {
  /** files that replace modules (`vi.mock`) and run each in a fresh process */
  isolated: string[];
  /** files that share their worker's module cache */
  shared: string[];
}

export function testSuites(root: string, options: { databaseOnly: boolean }): TestSuites {
  const opening = databaseSupportModules(root);
  const files = TEST_GLOBS.flatMap((glob) => fs.globSync(glob, { cwd: root })).sort();
  const suites: TestSuites = { isolated: [], shared: [] };
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    if (options.databaseOnly && !/\bsetupTestDatabase\(/.test(text) && !importsAny(text, opening)) continue;
    (/\bvi\.mock\(/.test(text) ? suites.isolated : suites.shared).push(file);
  }
  return suites;
}
