/**
 * Applies the checked-in migrations to the configured database. SQLite:
 * `prisma migrate deploy` (offline: the JS schema engine runs through the libSQL
 * adapter). PostgreSQL: the same migrations folder layout (prisma/postgres/migrations,
 * same names) applied here over node-postgres, one transaction per migration, and
 * recorded in `_prisma_migrations` exactly as Prisma records them — Prisma 6.19's JS
 * schema engine cannot read PostgreSQL catalogs through @prisma/adapter-pg
 * (prisma/prisma#27403), and this keeps a database the Prisma CLI would accept.
 */
import { execFile } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { childProcessEnv, describePostgresUrl, env, isPostgresUrl } from "../env.ts";
import { WayfinderError } from "../errors.ts";

const run = promisify(execFile);

/** Same key as Prisma Migrate's advisory lock: two migrators never interleave. */
const PG_MIGRATION_LOCK = 72707369;

function prismaBin(): string {
  const local = path.resolve("node_modules", ".bin", "prisma");
  if (!fs.existsSync(local)) {
    throw new WayfinderError("internal:migrate", "Prisma CLI not found; run npm install first.");
  }
  return local;
}

/** The migrations folder for a database URL. */
export function migrationsDir(url: string): string {
  return isPostgresUrl(url)
    ? path.resolve("prisma", "postgres", "migrations")
    : path.resolve("prisma", "migrations");
}

/** Migration names in apply order. */
export function listMigrations(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** Runs the migrations only when a checked-in migration is not yet applied (cheap on every start). */
export async function ensureMigrated(): Promise<void> {
  const { databaseUrl } = env();
  if (isPostgresUrl(databaseUrl)) {
    await migratePostgres(databaseUrl);
    return;
  }
  const expected = listMigrations(migrationsDir(databaseUrl));
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
  if (isPostgresUrl(databaseUrl)) {
    const applied = await migratePostgres(databaseUrl);
    return applied.length
      ? `Applied ${applied.length} migration(s): ${applied.join(", ")}`
      : "No pending migrations to apply.";
  }
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
    // The per-repository full-text tables are made here, not in SQL: their names depend on the rows.
    const [{ db }, { ftsEnsureAllTables }] = await Promise.all([
      import("./client.ts"),
      import("./dialect.ts"),
    ]);
    await ftsEnsureAllTables(await db());
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

/** Applies pending PostgreSQL migrations; returns the names applied. */
export async function migratePostgres(url: string, dir = migrationsDir(url)): Promise<string[]> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (cause) {
    throw new WayfinderError(
      "unavailable:database",
      `The PostgreSQL database at ${describePostgresUrl(url)} could not be reached (${(cause as Error).message}). Check DATABASE_URL and that the server is running.`,
      { cause },
    );
  }
  const applied: string[] = [];
  let current = "";
  try {
    await client.query(`SET client_min_messages = warning`);
    await client.query(`SELECT pg_advisory_lock($1)`, [PG_MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum"            VARCHAR(64) NOT NULL,
      "finished_at"         TIMESTAMPTZ,
      "migration_name"      VARCHAR(255) NOT NULL,
      "logs"                TEXT,
      "rolled_back_at"      TIMESTAMPTZ,
      "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const done = new Set(
      (
        await client.query<{ migration_name: string }>(
          `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
        )
      ).rows.map((r) => r.migration_name),
    );
    for (const name of listMigrations(dir)) {
      if (done.has(name)) continue;
      current = name;
      const script = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      const checksum = createHash("sha256").update(script).digest("hex");
      await client.query("BEGIN");
      try {
        const id = randomUUID();
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())`,
          [id, checksum, name],
        );
        await client.query(script);
        await client.query(
          `UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`,
          [id],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      }
      applied.push(name);
    }
    return applied;
  } catch (cause) {
    if (cause instanceof WayfinderError) throw cause;
    throw new WayfinderError(
      "unavailable:migrate",
      `Database migration${current ? ` ${current}` : ""} failed: ${(cause as Error).message.slice(0, 400)}`,
      { cause },
    );
  } finally {
    await client.query(`SELECT pg_advisory_unlock($1)`, [PG_MIGRATION_LOCK]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
