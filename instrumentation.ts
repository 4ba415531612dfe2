/**
 * Runs once when the server starts: validates the environment (fails fast on a bad
 * value) and applies pending database migrations.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env } = await import("./lib/env");
  env();
  const { ensureMigrated } = await import("./lib/db/migrate");
  await ensureMigrated();
}
