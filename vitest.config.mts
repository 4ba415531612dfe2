import path from "node:path";
import { defineConfig } from "vitest/config";
import { testSuites } from "./lib/test-support/suites.ts";

const root = import.meta.dirname;
// With WAYFINDER_TEST_PG_URL: one migrated PostgreSQL template per run
// (lib/test-support/pg-test-db.ts), and only the files that open a test database.
const suites = testSuites(root, { databaseOnly: Boolean(process.env.WAYFINDER_TEST_PG_URL) });

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
    // Timeouts catch hangs, not slowness: the gate runs the suites beside each other and the
    // build, and a busy machine makes real-database tests several times slower.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    setupFiles: ["lib/test-support/isolate-env.ts"],
    globalSetup: ["lib/test-support/pg-global-setup.ts"],
    // lib/test-support/suites.ts says which files share a worker's module cache.
    projects: [
      { extends: true, test: { name: "shared", include: suites.shared, isolate: false } },
      { extends: true, test: { name: "isolated", include: suites.isolated, isolate: true } },
    ],
  },
});
