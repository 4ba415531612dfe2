/**
 * Runs once when the server starts: validates the environment (fails fast on a bad
 * value), applies pending database migrations, and makes sure an admin token exists
 * (generated and printed once when ADMIN_TOKEN is unset and none is stored yet).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env } = await import("./lib/env");
  env();
  const { ensureMigrated } = await import("./lib/db/migrate");
  await ensureMigrated();
  const { announceAdminToken } = await import("./lib/admin/token");
  announceAdminToken();
}
