import path from "node:path";
import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3100);
// e2e runs against its own data directory so it never touches a developer's index;
// one per port, so parallel runs (E2E_PORT + NEXT_DIST_DIR) do not collide.
const home = path.resolve(`.wayfinder-e2e-${port}`);

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  outputDir: `test-results/e2e-artifacts-${port}`,
  reporter: [["list"], ["json", { outputFile: process.env.E2E_REPORT ?? "test-results/e2e.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // A failed test keeps its trace (actions with their timings, console, network) and a
    // screenshot of the page as it failed. The trace's screencast and per-action DOM
    // snapshots stay off: recording them for every passing test cost Chromium a third
    // of the suite's CPU.
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: false },
    screenshot: "only-on-failure",
    launchOptions: {
      // Debian's headless shell (apt: chromium-headless-shell): the same engine as the
      // chromium package without the desktop browser's UI processes, about a third less
      // CPU and 600 MB less memory over the suite.
      executablePath: "/usr/lib/chromium/chromium-headless-shell",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
      ],
    },
  },
  webServer: {
    command: `bash e2e/serve.sh ${port}`,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      WAYFINDER_HOME: home,
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next",
      // A known admin token for e2e/admin.spec.ts (a real server generates one at first start).
      ADMIN_TOKEN: process.env.E2E_ADMIN_TOKEN ?? "e2e-admin-token-0123456789abcdef",
      // The whole suite is one client asking and re-indexing far faster than a person would.
      WAYFINDER_RATE_QUESTIONS: "100000",
      WAYFINDER_RATE_BUILDS: "100000",
    },
  },
});
