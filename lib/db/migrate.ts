/**
 * Applies the checked-in Prisma migrations to the configured database with
 * `prisma migrate deploy` (offline: the JS schema engine runs through the adapter).
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { childProcessEnv, env } from "../env.ts";
import { WayfinderError } from "../errors.ts";

const run = promisify(execFile);

function prismaBin(): string {
  const local = path.resolve("node_modules", ".bin", "prisma");
  if (!fs.existsSync(local)) {
    throw new WayfinderError("internal:migrate", "Prisma CLI not found; run npm install first.");
  }
  return local;
}

/** Runs `migrate deploy` only when a checked-in migration is not yet applied (cheap on every start). */
export async function ensureMigrated(): Promise<void> {
  const dir = path.resolve("prisma", "migrations");
  const expected = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  let applied: string[] = [];
  try {
    const { db } = await import("./client.ts");
    const client = await db();
    const rows = await client.$queryRawUnsafe<{ migration_name: string }[]>(
      `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL`,
    );
    applied = rows.map((r) => r.migration_name);
  } catch {
    // No migrations table yet: a fresh database.
  }
  if (expected.every((m) => applied.includes(m))) return;
  await migrateDatabase();
}

export async function migrateDatabase(): Promise<string> {
  const { databaseUrl, home } = env();
  fs.mkdirSync(home, { recursive: true });
  try {
    const { stdout } = await run(prismaBin(), ["migrate", "deploy"], {
      env: {
        ...childProcessEnv(),
        DATABASE_URL: databaseUrl,
        PRISMA_SCHEMA_ENGINE_BINARY: "/bin/false",
        PRISMA_QUERY_ENGINE_LIBRARY: "/bin/false",
        PRISMA_HIDE_UPDATE_MESSAGE: "1",
      },
    });
    return stdout;
  } catch (cause) {
    const detail = (cause as { stderr?: string; stdout?: string }).stderr ?? "";
    throw new WayfinderError(
      "unavailable:migrate",
      `Database migration failed: ${detail.trim().slice(-400)}`,
      {
        cause,
      },
    );
  }
}
