import path from "node:path";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { testSuites } from "./test-support/suites.mts";

const root = import.meta.dirname;

/**
 * The suite runs on SQLite, and with WAYFINDER_TEST_PG_URL (an admin URL, see
 * scripts/pg-up.sh) again on PostgreSQL in the same run: the files that open a test
 * database, each with a database of its own copied from a template migrated once per
 * run (test-support/global-setup-*.ts). test-support/suites.mts says which files
 * share a worker's module cache and which run in a fresh process.
 */
function projects(database: "sqlite" | "postgres"): TestProjectInlineConfiguration[] {
  const suites = testSuites(root, { databaseOnly: database === "postgres" });
  const common = {
    env: { WAYFINDER_TEST_DATABASE: database },
    globalSetup: [`test-support/global-setup-${database}.ts`],
  };
  return [
    { extends: true, test: { ...common, name: database, include: suites.shared, isolate: false } },
    { extends: true, test: { ...common, name: `${database}-isolated`, include: suites.isolated } },
  ];
}

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(root),
      // server-only throws outside the react-server condition; tests run as plain Node.
      "server-only": path.resolve(root, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    environment: "node",
    // Timeouts catch hangs, not slowness: the gate runs the suites beside e2e, and a busy
    // machine makes real-database tests several times slower.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    // The test files parse small fixtures in many languages: V8's baseline WASM compiler
    // runs them as fast, while optimizing every tree-sitter grammar's lexer held about
    // 300 MB more per worker. Indexing real repositories (the CLI, the index worker)
    // keeps the optimizing tier, which parses two to three times faster once warm.
    execArgv: ["--liftoff-only"],
    setupFiles: ["test-support/isolate-env.ts"],
    projects: [...projects("sqlite"), ...(process.env.WAYFINDER_TEST_PG_URL ? projects("postgres") : [])],
  },
});
