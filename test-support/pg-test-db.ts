/**
 * PostgreSQL databases for tests. When WAYFINDER_TEST_PG_URL names an admin URL
 * (postgresql://wayfinder:wayfinder@127.0.0.1:5432/postgres, see scripts/pg-up.sh),
 * vitest's global setup (global-setup-postgres.ts) migrates one template database per
 * run, and every test file of the PostgreSQL projects gets its own copy (`CREATE DATABASE … TEMPLATE`, a file copy: fast) that it drops
 * in its cleanup. The SQLite projects use a SQLite file per test file.
 * Databases use the C collation, SQLite's binary ordering.
 */
import pg from "pg";

/**
 * The admin URL of the PostgreSQL server tests run against, or null for SQLite: in a
 * SQLite project of a run that covers both (vitest.config.mts), the URL is set but not
 * for this file.
 */
export function testPgAdminUrl(): string | null {
  if (process.env.WAYFINDER_TEST_DATABASE === "sqlite") return null;
  return process.env.WAYFINDER_TEST_PG_URL || null;
}

/** The template database the global setup migrated (null when none: each database is migrated itself). */
export function testPgTemplate(): string | null {
  return process.env.WAYFINDER_TEST_PG_TEMPLATE || null;
}

/** The admin URL pointed at another database. */
export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withAdmin<T>(adminUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query("SET client_min_messages = warning");
    return await run(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function checkName(name: string): string {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`invalid database name ${name}`);
  return name;
}

/** Creates an empty database (C collation) or a copy of `template`. */
export async function createDatabase(
  adminUrl: string,
  name: string,
  template: string | null,
): Promise<string> {
  await withAdmin(adminUrl, async (client) => {
    const source = template
      ? `TEMPLATE ${checkName(template)}`
      : `TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'`;
    // Copies of one template started at the same moment can collide ("being accessed"): retry.
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${checkName(name)} ENCODING 'UTF8' ${source}`);
        return;
      } catch (error) {
        if (attempt >= 20 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  });
  return databaseUrl(adminUrl, name);
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdmin(adminUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${checkName(name)} WITH (FORCE)`),
  );
}

let counter = 0;

/**
 * A fresh, migrated database for one test file: a copy of the run's template, or (no
 * template) a new database migrated here. Returns its URL and a drop function.
 */
export async function createTestDatabase(
  adminUrl: string,
): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `wf_test_${process.pid}_${++counter}_${Date.now().toString(36)}`;
  const template = testPgTemplate();
  const url = await createDatabase(adminUrl, name, template);
  if (!template) {
    const { migratePostgres } = await import("../lib/db/migrate.ts");
    await migratePostgres(url);
  }
  return { url, name, drop: () => dropDatabase(adminUrl, name) };
}
