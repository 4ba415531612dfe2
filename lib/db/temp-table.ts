/**
 * A connection-scoped temporary table of values, for SQL that filters by a long list
 * (paths, ids) too big for bound parameters. Created, filled, used and dropped around
 * one callback.
 */
import "server-only";
import type { Db } from "./client.ts";

const BATCH = 500;

export async function withTempTable<T>(
  client: Db,
  name: string,
  values: string[],
  run: () => Promise<T>,
): Promise<T> {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`invalid temp table name ${name}`);
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
    return await run();
  } finally {
    await client.$executeRawUnsafe(`DROP TABLE IF EXISTS temp.${name}`);
  }
}
