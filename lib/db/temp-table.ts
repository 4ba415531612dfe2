/**
 * A table of text values for SQL that filters by a list too long for bound
 * parameters (paths, ids): created, filled, used and dropped around one callback,
 * which gets the table's name to use in its SQL (`IN (SELECT value FROM ${table})`).
 * SQLite: a TEMP table of the connection. PostgreSQL: TEMP tables belong to one
 * pooled connection and the next statement may run on another, so a uniquely named
 * UNLOGGED table, analysed so the planner knows its size, dropped afterwards.
 */
import "server-only";
import { randomBytes } from "node:crypto";
import type { Db } from "./client.ts";
import { isPostgres } from "./dialect.ts";

const BATCH = 500;

export async function withTempTable<T>(
  client: Db,
  name: string,
  values: string[],
  run: (table: string) => Promise<T>,
): Promise<T> {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`invalid temp table name ${name}`);
  if (isPostgres()) return withUnloggedTable(client, name, values, run);
  await client.$executeRawUnsafe(`DROP TABLE IF EXISTS temp.${name}`);
  await client.$executeRawUnsafe(`CREATE TEMP TABLE ${name} (value TEXT PRIMARY KEY)`);
  try {
    for (let i = 0; i < values.length; i += BATCH) {
      const batch = values.slice(i, i + BATCH);
      await client.$executeRawUnsafe(
        `INSERT OR IGNORE INTO temp.${name} (value) VALUES ${batch.map(() => "(?)").join(", ")}`,
        ...batch,
      );
    }
    return await run(`temp.${name}`);
  } finally {
    await client.$executeRawUnsafe(`DROP TABLE IF EXISTS temp.${name}`);
  }
}

async function withUnloggedTable<T>(
  client: Db,
  name: string,
  values: string[],
  run: (table: string) => Promise<T>,
): Promise<T> {
  const table = `wf_tmp_${name}_${randomBytes(6).toString("hex")}`;
  await client.$executeRawUnsafe(`CREATE UNLOGGED TABLE ${table} (value TEXT PRIMARY KEY)`);
  try {
    for (let i = 0; i < values.length; i += BATCH) {
      const batch = values.slice(i, i + BATCH);
      await client.$executeRawUnsafe(
        `INSERT INTO ${table} (value) VALUES ${batch.map((_, j) => `($${j + 1})`).join(", ")} ON CONFLICT DO NOTHING`,
        ...batch,
      );
    }
    if (values.length > 0) await client.$executeRawUnsafe(`ANALYZE ${table}`);
    return await run(table);
  } finally {
    await client.$executeRawUnsafe(`DROP TABLE IF EXISTS ${table}`);
  }
}
