/**
 * Test setup for QA tests: a private WAYFINDER_HOME (fresh database) per test
 * file, migrated, with a fixture repository indexed by the real indexer. Only the
 * language model is ever scripted; everything else here is the production code path.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";

export const SHOP_FIXTURE = fileURLToPath(new URL("../e2e/fixtures/shop", import.meta.url));

/** Environment variables that would make the app pick a real provider. */

/**
 * Points the app at a fresh data directory and migrates it. Call before any database
 * use (beforeAll); returns a cleanup for afterAll.
 */
export async function setupQaHome(
  prefix = "wf-qa-",
): Promise<{ home: string; cleanup: () => Promise<void> }> {
  const home = mkdtempSync(path.join(os.tmpdir(), prefix));
  // Drop the database client and search services a previous file in this worker left open
  // (they point at its home) before pointing at the new one.
  const [{ closeDb }, { closeSearchServices }] = await Promise.all([
    import("../lib/db/client.ts"),
    import("../lib/search/runtime.ts"),
  ]);
  await closeSearchServices().catch(() => undefined);
  await closeDb().catch(() => undefined);
  process.env.WAYFINDER_HOME = home;
  // A SQLite file under this home, or with WAYFINDER_TEST_PG_URL a PostgreSQL database of its own.
  const { setupTestDatabase } = await import("./temp-env.ts");
  const database = await setupTestDatabase();
  // Tests must never reach a network provider, whatever the developer's shell exports.
  // Model-provider variables are already stripped for every test file by isolate-env.ts.
  for (const key of Object.keys(process.env)) if (key.startsWith("CGRAG_")) delete process.env[key];
  const { resetEnvForTests } = await import("../lib/env.ts");
  resetEnvForTests();
  const { ensureMigrated } = await import("../lib/db/migrate.ts");
  await ensureMigrated();
  return {
    home,
    cleanup: async () => {
      await closeSearchServices().catch(() => undefined);
      await closeDb();
      await database.drop().catch(() => undefined);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export interface IndexedFixture {
  repositoryId: string;
  generationId: string;
  name: string;
}

/** Indexes a fixture directory (the shop repository by default) with the real indexer. */
export async function indexFixture(dir = SHOP_FIXTURE, name = "shop"): Promise<IndexedFixture> {
  const { indexRepository } = await import("../lib/builds/build.ts");
  const { repository } = await indexRepository(dir, { name });
  if (!repository.activeGenerationId) throw new Error(`indexing ${dir} produced no active generation`);
  return { repositoryId: repository.id, generationId: repository.activeGenerationId, name };
}

/**
 * A fresh home and a repository written from `files` (relative path → text), indexed: the
 * small fixture a retrieval test asks its questions of. `close` removes both.
 */
export async function indexSources(
  name: string,
  files: Record<string, string>,
): Promise<IndexedFixture & { close: () => Promise<void> }> {
  const { cleanup } = await setupQaHome(`wf-${name}-`);
  const dir = mkdtempSync(path.join(os.tmpdir(), `wf-${name}-repo-`));
  for (const [relative, text] of Object.entries(files)) {
    const file = path.join(dir, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  const repo = await indexFixture(dir, name);
  return {
    ...repo,
    close: async () => {
      await cleanup();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Retrieval in the mode retrievers' own order (the learned symbol ranker off) for the tests
 * of a file that check a retriever's ranking, restored after the file. Call it after the
 * file's own setup hooks (setupQaHome clears CGRAG_* variables).
 */
export function retrieversOwnOrder(): void {
  const set = async (value: string | undefined) => {
    if (value === undefined) delete process.env.CGRAG_USE_SYMBOL_RANKER;
    else process.env.CGRAG_USE_SYMBOL_RANKER = value;
    const { resetEnvForTests } = await import("../lib/env.ts");
    resetEnvForTests();
  };
  beforeAll(() => set("false"));
  afterAll(() => set(undefined));
}
