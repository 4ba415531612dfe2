/**
 * Runs once when the server starts: stamps every request with the address of its
 * socket (lib/auth/client-address.ts; route handlers never see the socket), validates
 * the environment (fails fast on a bad value), says which access mode is in force and
 * why (with a warning when open mode listens beyond loopback), applies pending database
 * migrations, makes sure an admin token exists (generated and printed once when
 * ADMIN_TOKEN is unset and none is stored yet), and in token mode the team token;
 * then recovers interrupted index builds and starts polling Git sources on schedule.
 */
export async function register(): Promise<void> {
  // The one read of process.env outside lib/env.ts: Next.js replaces NEXT_RUNTIME at build
  // time, which keeps the Node-only imports below out of the edge runtime's bundle.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installPeerStamp } = await import("./lib/auth/client-address");
  installPeerStamp();
  const { env } = await import("./lib/env");
  env();
  const { accessConfig, describeAccess, openAccessWarning } = await import("./lib/auth/config");
  const access = accessConfig();
  console.log(describeAccess(access));
  const warning = openAccessWarning(access);
  if (warning) console.warn(warning);
  const { ensureMigrated } = await import("./lib/db/migrate");
  await ensureMigrated();
  const { announceAdminToken } = await import("./lib/auth/admin-token");
  announceAdminToken();
  if (access.mode === "token") {
    const { announceAccessToken } = await import("./lib/auth/access-token");
    announceAccessToken();
  }
  // Builds whose worker died while the server was down are failed and queued again
  // (spawn mode also starts their workers). A failure here must not stop the server.
  const { recoverIndexJobs } = await import("./lib/builds/jobs");
  await recoverIndexJobs().then(
    (r) => {
      for (const x of r.resumed) {
        console.log(
          `[wayfinder] index build ${x.interrupted} was interrupted; resumed as ${x.resumedAs ?? "—"}`,
        );
      }
    },
    (error: unknown) => console.error("[wayfinder] could not recover interrupted index builds:", error),
  );
  // Git sources with a poll schedule are checked from here (and from `wayfinder worker`).
  const { startPollScheduler } = await import("./lib/builds/refresh");
  startPollScheduler();
}
