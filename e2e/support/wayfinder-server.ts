/**
 * A second Wayfinder server for specs that need another access mode than the shared
 * one of playwright.config.ts: its own data directory (a copy of the one e2e/serve.sh
 * migrated and indexed the shop fixture into), `next start` from the same build
 * (NEXT_DIST_DIR) on its own port, stopped after.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export interface RunningServer {
  url: string;
  home: string;
  /** everything the server printed (start-up lines, request log) */
  output(): string;
  stop(): Promise<void>;
}

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);

export async function startWayfinder(options: {
  port: number;
  env: Record<string, string>;
  host?: string;
}): Promise<RunningServer> {
  const home = path.resolve(`.wayfinder-e2e-${options.port}`);
  fs.rmSync(home, { recursive: true, force: true });
  // The data directory e2e/serve.sh migrated and indexed for the shared server, unused by it.
  const template = path.resolve(`.wayfinder-e2e-${E2E_PORT}-template`);
  if (!fs.existsSync(template)) throw new Error(`${template} is missing: e2e/serve.sh prepares it`);
  fs.cpSync(template, home, { recursive: true });
  const env = {
    ...process.env,
    WAYFINDER_HOME: home,
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next",
    ...options.env,
  };
  let log = "";
  const child: ChildProcess = spawn(
    "node_modules/.bin/next",
    [
      "start",
      "--port",
      String(options.port),
      "--hostname",
      options.host ?? "127.0.0.1",
      // As e2e/serve.sh: no kept-alive socket closed under a request between two steps.
      "--keepAliveTimeout",
      "120000",
    ],
    { env, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${log}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    url,
    home,
    output: () => log,
    stop: async () => {
      if (child.exitCode === null && child.pid) {
        process.kill(-child.pid, "SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}
