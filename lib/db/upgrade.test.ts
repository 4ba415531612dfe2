/**
 * Upgrades keep data: a database made by the earliest migration and filled the way the
 * first release wrote it opens under today's code, is migrated at start, and still holds
 * every repository, conversation, share link, setting and metric; the repository can
 * then be re-indexed and asked about. Runs on SQLite, and on PostgreSQL when
 * WAYFINDER_TEST_PG_URL is set.
 */
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createClient } from "@libsql/client";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listSettingChanges, listQuestionMetrics } from "./admin-store.ts";
import { closeDb } from "./client.ts";
import { ensureMigrated, listMigrations, migratePostgres, migrationsDir } from "./migrate.ts";
import { findRepository, listRepositories } from "./repositories.ts";
import { listMessages, listSessions } from "./sessions.ts";
import {
  EVERYONE,
  getSharedConversation,
  listOwnSessions,
  mayContinue,
  readableSession,
} from "../qa/conversations.ts";
import { getSettingsView } from "../admin/settings.ts";
import { env, resetEnvForTests } from "../env.ts";
import { indexRepository } from "../builds/build.ts";
import { retrieveReport } from "../qa/retrieve.ts";
import { closeSearchServices } from "../search/runtime.ts";
import { createDatabase, databaseUrl, dropDatabase, testPgAdminUrl } from "../../test-support/pg-test-db.ts";

const SHARE_ID = "upgradeShare_0123456789";
const QUESTION = "Where is the order total computed?";
const ANSWER = "`total` in shop.py adds the line prices (shop.py:1-3).";

/** Rows as the first release wrote them, in the columns of the earliest migration (ids from the database). */
function firstReleaseRows(repoRoot: string, boolTrue: string): string[] {
  const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
  const source = "def total(lines):\n    return sum(l.price for l in lines)\n";
  const hash = createHash("sha256").update(source).digest("hex");
  const parts = JSON.stringify([{ type: "text", text: ANSWER }]);
  return [
    `INSERT INTO "Repository" ("id","name","rootPath","updatedAt","activeGenerationId") VALUES ('repo_old','shop-old',${q(repoRoot)},CURRENT_TIMESTAMP,'gen_old')`,
    `INSERT INTO "IndexGeneration" ("id","repositoryId","number","status","phase","filesDone","filesTotal","stats") VALUES ('gen_old','repo_old',1,'ready','done',1,1,'{"files":1}')`,
    `INSERT INTO "Blob" ("hash","content") VALUES (${q(hash)},${q(source)})`,
    `INSERT INTO "File" ("generationId","path","language","kind","hash","size","lines") VALUES ('gen_old','shop.py','python','code',${q(hash)},${source.length},2)`,
    `INSERT INTO "Symbol" ("generationId","fileId","path","qualifiedId","name","qualifiedName","kind","language","startLine","endLine","signature","docstring","exported") VALUES ('gen_old',1,'shop.py','shop.py::total','total','total','function','python',1,2,'def total(lines):','',${boolTrue})`,
    `INSERT INTO "Session" ("id","repositoryId","generationId","title","shareId") VALUES ('session_old_1','repo_old','gen_old',${q(QUESTION)},${q(SHARE_ID)})`,
    `INSERT INTO "Session" ("id","repositoryId","generationId","title") VALUES ('session_old_2','repo_old','gen_old','A second conversation')`,
    `INSERT INTO "Message" ("id","sessionId","role","content","parts","generationId","createdAt") VALUES ('msg_old_1','session_old_1','user',${q(QUESTION)},'[]','gen_old','2026-11-22 10:00:00')`,
    `INSERT INTO "Message" ("id","sessionId","role","content","parts","metadata","generationId","createdAt") VALUES ('msg_old_2','session_old_1','assistant',${q(ANSWER)},${q(parts)},'{"mode":"conceptual"}','gen_old','2026-11-22 10:00:01')`,
    `INSERT INTO "Setting" ("key","value","updatedAt") VALUES ('cgrag.maxPasses','2',CURRENT_TIMESTAMP)`,
    `INSERT INTO "SettingChange" ("key","oldValue","newValue","actor") VALUES ('cgrag.maxPasses',NULL,'2','admin')`,
    `INSERT INTO "QuestionMetric" ("repositoryId","sessionId","mode","quality","passes","gapsIdentified","gapsResolved","gapsUnresolved","tokens","latencyMs") VALUES ('repo_old','session_old_1','conceptual','balanced',2,3,2,1,900,120)`,
  ];
}

interface OldDatabase {
  kind: "sqlite" | "postgres";
  /** Creates the database at the earliest migration and fills it. */
  create(repoRoot: string): Promise<void>;
  drop(): Promise<void>;
}

function sqliteDatabase(home: string): OldDatabase {
  const file = path.join(home, "wayfinder.db");
  return {
    kind: "sqlite",
    async create(repoRoot) {
      const [first] = listMigrations(migrationsDir(`file:${file}`));
      const script = fs.readFileSync(
        path.join(migrationsDir(`file:${file}`), first as string, "migration.sql"),
        "utf8",
      );
      const client = createClient({ url: `file:${file}` });
      await client.executeMultiple(script);
      // The migrations table as Prisma Migrate creates it on SQLite, with the one row it wrote.
      await client.execute(`CREATE TABLE "_prisma_migrations" (
        "id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME,
        "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME,
        "started_at" DATETIME NOT NULL DEFAULT current_timestamp, "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0)`);
      await client.execute({
        sql: `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES (?, ?, current_timestamp, ?, 1)`,
        args: [randomUUID(), createHash("sha256").update(script).digest("hex"), first as string],
      });
      for (const sql of firstReleaseRows(repoRoot, "1")) await client.execute(sql);
      client.close();
    },
    async drop() {},
  };
}

function postgresDatabase(adminUrl: string): OldDatabase {
  const name = `wf_upgrade_${process.pid}`;
  return {
    kind: "postgres",
    async create(repoRoot) {
      await dropDatabase(adminUrl, name);
      const url = await createDatabase(adminUrl, name, null);
      process.env.DATABASE_URL = url;
      // Only the earliest migration, applied the way every release applies them.
      const dir = migrationsDir(url);
      const first = listMigrations(dir)[0] as string;
      const only = fs.mkdtempSync(path.join(os.tmpdir(), "wayfinder-first-migration-"));
      fs.cpSync(path.join(dir, first), path.join(only, first), { recursive: true });
      expect(await migratePostgres(url, only)).toEqual([first]);
      fs.rmSync(only, { recursive: true, force: true });
      const client = new pg.Client({ connectionString: databaseUrl(adminUrl, name) });
      await client.connect();
      for (const sql of firstReleaseRows(repoRoot, "true")) await client.query(sql);
      await client.end();
    },
    async drop() {
      await dropDatabase(adminUrl, name);
    },
  };
}

describe("upgrading a database made by the first release", () => {
  let base: string;
  let repoRoot: string;
  let old: OldDatabase;

  beforeAll(async () => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "wayfinder-upgrade-")));
    const home = path.join(base, "home");
    repoRoot = path.join(base, "shop");
    fs.mkdirSync(home);
    fs.mkdirSync(repoRoot);
    fs.writeFileSync(
      path.join(repoRoot, "shop.py"),
      "def total(lines):\n    return sum(l.price for l in lines)\n\n\ndef checkout(cart):\n    return total(cart.lines)\n",
    );
    await closeSearchServices().catch(() => undefined);
    await closeDb().catch(() => undefined);
    process.env.WAYFINDER_HOME = home;
    delete process.env.DATABASE_URL;
    const adminUrl = testPgAdminUrl();
    old = adminUrl ? postgresDatabase(adminUrl) : sqliteDatabase(home);
    await old.create(repoRoot);
    resetEnvForTests();
    // What every process does at start.
    await ensureMigrated();
  });

  afterAll(async () => {
    await closeSearchServices().catch(() => undefined);
    await closeDb().catch(() => undefined);
    await old.drop();
    fs.rmSync(base, { recursive: true, force: true });
  });

  it("applies every later migration", async () => {
    const { databaseUrl: url } = env();
    expect(url.startsWith("file:") ? "sqlite" : "postgres").toBe(old.kind);
    const { db } = await import("./client.ts");
    const client = await db();
    const rows = await client.$queryRawUnsafe<{ migration_name: string }[]>(
      `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name`,
    );
    expect(rows.map((r) => r.migration_name)).toEqual(listMigrations(migrationsDir(url)));
  });

  it("keeps repositories, conversations, share links, settings and metrics", async () => {
    const repos = await listRepositories();
    expect(repos.map((r) => [r.id, r.name, r.rootPath, r.activeGenerationId])).toEqual([
      ["repo_old", "shop-old", repoRoot, "gen_old"],
    ]);
    const sessions = await listSessions("repo_old");
    expect(sessions.map((s) => s.id).sort()).toEqual(["session_old_1", "session_old_2"]);
    const messages = await listMessages("session_old_1");
    expect(messages.map((m) => [m.role, m.content])).toEqual([
      ["user", QUESTION],
      ["assistant", ANSWER],
    ]);
    const shared = await getSharedConversation(SHARE_ID);
    expect(shared?.session.id).toBe("session_old_1");
    expect(shared?.repository.name).toBe("shop-old");
    expect(shared?.messages.map((m) => m.parts)).toEqual([
      [{ type: "text", text: QUESTION }],
      [{ type: "text", text: ANSWER }],
    ]);
    const settings = await getSettingsView();
    expect(settings.overridden).toEqual(["maxPasses"]);
    expect(settings.config.maxPasses).toBe(2);
    expect((await listSettingChanges({ limit: 10 })).map((c) => [c.key, c.newValue])).toEqual([
      ["cgrag.maxPasses", "2"],
    ]);
    const metrics = await listQuestionMetrics({ since: null });
    expect(metrics.map((m) => [m.mode, m.passes, m.tokens])).toEqual([["conceptual", 2, 900]]);
  });

  it("makes conversations from before owners nobody's: admins and share links read them, nobody continues them", async () => {
    const sessions = await listSessions("repo_old");
    expect(sessions.map((s) => s.ownerKey)).toEqual([null, null]);
    const reader = { kind: "owner", owner: "oidc:someone", admin: false } as const;
    const admin = { kind: "owner", owner: "oidc:ada", admin: true } as const;
    expect((await readableSession("session_old_1", admin)).id).toBe("session_old_1");
    await expect(readableSession("session_old_1", reader)).rejects.toMatchObject({
      code: "not_found:session",
    });
    const [old] = sessions;
    expect(old && mayContinue(old, admin)).toBe(false);
    expect(await listOwnSessions("repo_old", reader)).toEqual([]);
    expect(await listOwnSessions("repo_old", EVERYONE)).toHaveLength(2);
  });

  it("re-indexes the upgraded repository and answers from the new generation", async () => {
    const { repository, stats } = await indexRepository(repoRoot);
    expect(repository.id).toBe("repo_old");
    expect(stats.symbols).toBeGreaterThanOrEqual(2);
    expect((await findRepository("shop-old"))?.activeGenerationId).not.toBe("gen_old");
    const report = await retrieveReport("repo_old", "What does checkout call?", {});
    expect(report.symbols).toContain("shop.py::checkout");
    // The conversation made before the upgrade is still there after the new build.
    expect((await listMessages("session_old_1")).length).toBe(2);
  });
});
