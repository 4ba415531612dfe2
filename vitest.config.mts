import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // server-only throws outside the react-server condition; tests run as plain Node.
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    include: ["lib/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.ts"],
    environment: "node",
    // Timeouts catch hangs, not slowness: the gate runs the suites beside each other and the
    // build, and a busy machine makes real-database tests several times slower.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    setupFiles: ["lib/test-support/isolate-env.ts"],
    // With WAYFINDER_TEST_PG_URL: one migrated PostgreSQL template per run (lib/test-support/pg-test-db.ts).
    globalSetup: ["lib/test-support/pg-global-setup.ts"],
  },
});
