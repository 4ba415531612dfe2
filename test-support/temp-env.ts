/**
 * Scaffolding for tests that use the real database and real files: a temporary
 * WAYFINDER_HOME with its own migrated database (a SQLite file in it, or with
 * WAYFINDER_TEST_PG_URL a PostgreSQL database of its own), temporary repository
 * folders, and cleanup. Call `setupTempEnv()` in `beforeAll`, before anything opens the
 * database: env(), the Prisma client and the search services are process-wide caches
 * that a worker keeps from file to file, and this call closes them and points them at
 * the new home, so one call per file isolates it from the files before it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb } from "../lib/db/client.ts";
import { ensureMigrated } from "../lib/db/migrate.ts";
import { resetEnvForTests } from "../lib/env.ts";
import { closeSearchServices } from "../lib/search/runtime.ts";
import { createTestDatabase, testPgAdminUrl } from "./pg-test-db.ts";

export type FileTree = Record<string, string | Buffer>;

export interface TempEnv {
  /** Root of everything this environment created (real path). */
  base: string;
  /** The WAYFINDER_HOME in use. */
  home: string;
  /** Which database this environment uses (WAYFINDER_TEST_PG_URL picks PostgreSQL). */
  databaseKind: "sqlite" | "postgres";
  /** Creates a repository folder holding `files` and returns its real path. */
  makeRepo(files: FileTree, name?: string): string;
  /** Creates an empty folder outside any repository (for symlink targets and the like). */
  makeDir(name: string): string;
  /** Writes (or overwrites) a file, creating parent folders. */
  write(root: string, relative: string, content: string | Buffer): void;
  remove(root: string, relative: string): void;
  /** Environment for child processes that must share this WAYFINDER_HOME (and database). */
  childEnv(): NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

let counter = 0;

/**
 * Points DATABASE_URL at this test file's own database, a fresh copy of the run's
 * migrated template (global-setup-*.ts): on PostgreSQL a database of its own, on SQLite
 * the default file under the WAYFINDER_HOME just set. Returns what drops it again.
 */
export async function setupTestDatabase(): Promise<{
  kind: "sqlite" | "postgres";
  drop: () => Promise<void>;
}> {
  const adminUrl = testPgAdminUrl();
  if (process.env.WAYFINDER_TEST_DATABASE === "postgres" && !adminUrl) {
    throw new Error("A PostgreSQL test project runs without WAYFINDER_TEST_PG_URL.");
  }
  if (!adminUrl) {
    delete process.env.DATABASE_URL;
    // The run's migrated template (global-setup-*.ts), copied to where env() puts the file.
    const template = process.env.WAYFINDER_TEST_SQLITE_TEMPLATE;
    const home = process.env.WAYFINDER_HOME;
    if (template && home && fs.existsSync(template)) {
      const target = path.join(home, path.basename(template));
      if (!fs.existsSync(target)) fs.copyFileSync(template, target);
    }
    return { kind: "sqlite", drop: async () => undefined };
  }
  const database = await createTestDatabase(adminUrl);
  process.env.DATABASE_URL = database.url;
  return { kind: "postgres", drop: database.drop };
}

export async function setupTempEnv(): Promise<TempEnv> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "wayfinder-test-")));
  const home = path.join(base, "home");
  fs.mkdirSync(home);
  // Drop anything cached from a previous configuration before pointing at the new home.
  await closeSearchServices().catch(() => undefined);
  await closeDb().catch(() => undefined);
  process.env.WAYFINDER_HOME = home;
  const database = await setupTestDatabase();
  delete process.env.QDRANT_URL;
  resetEnvForTests();
  await ensureMigrated();

  const write = (root: string, relative: string, content: string | Buffer) => {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  };

  return {
    base,
    home,
    databaseKind: database.kind,
    makeRepo(files, name) {
      const root = path.join(base, name ?? `repo-${++counter}`);
      fs.mkdirSync(root, { recursive: true });
      for (const [relative, content] of Object.entries(files)) write(root, relative, content);
      return fs.realpathSync(root);
    },
    makeDir(name) {
      const dir = path.join(base, name);
      fs.mkdirSync(dir, { recursive: true });
      return dir;
    },
    write,
    remove(root, relative) {
      fs.rmSync(path.join(root, relative), { force: true });
    },
    childEnv() {
      const childEnv: NodeJS.ProcessEnv = { ...process.env, WAYFINDER_HOME: home };
      // SQLite: the default file under this home. PostgreSQL: this file's database.
      if (database.kind === "sqlite") delete childEnv.DATABASE_URL;
      return childEnv;
    },
    async cleanup() {
      await closeSearchServices().catch(() => undefined);
      await closeDb().catch(() => undefined);
      await database.drop().catch(() => undefined);
      resetEnvForTests();
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}
