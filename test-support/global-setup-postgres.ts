/**
 * vitest global setup of the PostgreSQL projects: migrates one template database for the
 * run (test files copy it, see pg-test-db.ts) and drops it at the end.
 */
import { migratePostgres } from "../lib/db/migrate.ts";
import { createDatabase, dropDatabase } from "./pg-test-db.ts";

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const adminUrl = process.env.WAYFINDER_TEST_PG_URL;
  // Both PostgreSQL projects (shared and isolated) run this in the same process: one template.
  if (!adminUrl || process.env.WAYFINDER_TEST_PG_TEMPLATE) return undefined;
  const template = `wf_template_${process.pid}`;
  await dropDatabase(adminUrl, template);
  const url = await createDatabase(adminUrl, template, null);
  await migratePostgres(url);
  // Test files run in forks of this process and inherit its environment.
  process.env.WAYFINDER_TEST_PG_TEMPLATE = template;
  return async () => {
    delete process.env.WAYFINDER_TEST_PG_TEMPLATE;
    await dropDatabase(adminUrl, template);
  };
}
