/**
 * vitest global setup of the SQLite projects: migrates one template file for the run with
 * `prisma migrate deploy`, as a fresh install is migrated. Every test file's database
 * starts as a copy of it (temp-env.ts `setupTestDatabase`), so the migrations run once
 * per run instead of once per file. The folder is removed at the end.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateDatabase } from "../lib/db/migrate.ts";
import { env, resetEnvForTests } from "../lib/env.ts";

export default async function setup(): Promise<(() => void) | undefined> {
  // Both SQLite projects (shared and isolated) run this in the same process: one template.
  if (process.env.WAYFINDER_TEST_SQLITE_TEMPLATE) return undefined;
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "wayfinder-template-"));
  const saved = { home: process.env.WAYFINDER_HOME, url: process.env.DATABASE_URL };
  process.env.WAYFINDER_HOME = home;
  delete process.env.DATABASE_URL;
  resetEnvForTests();
  let file: string;
  try {
    await migrateDatabase();
    file = env().databaseUrl.replace(/^file:/, "");
  } finally {
    if (saved.home === undefined) delete process.env.WAYFINDER_HOME;
    else process.env.WAYFINDER_HOME = saved.home;
    if (saved.url !== undefined) process.env.DATABASE_URL = saved.url;
    resetEnvForTests();
  }
  // Test files run in forks of this process and inherit its environment.
  process.env.WAYFINDER_TEST_SQLITE_TEMPLATE = file;
  return () => {
    delete process.env.WAYFINDER_TEST_SQLITE_TEMPLATE;
    fs.rmSync(home, { recursive: true, force: true });
  };
}
