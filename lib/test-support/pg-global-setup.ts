/**
 * vitest global setup: with WAYFINDER_TEST_PG_URL set, migrates one template database
 * for the run (test files copy it, see pg-test-db.ts) and drops it at the end.
 * Without the variable it does nothing and the tests use SQLite.
 */
import { migratePostgres } from "../db/migrate.ts";
import { createDatabase, dropDatabase, testPgAdminUrl } from "./pg-test-db.ts";

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const adminUrl = testPgAdminUrl();
  if (!adminUrl) return undefined;
  const template = `wf_template_${process.pid}`;
  await dropDatabase(adminUrl, template);
  const url = await createDatabase(adminUrl, template, null);
  await migratePostgres(url);
  // Test files run in forks of this process and inherit its environment.
  process.env.WAYFINDER_TEST_PG_TEMPLATE = template;
  return async () => {
    await dropDatabase(adminUrl, template);
  };
}
