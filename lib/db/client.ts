/**
 * Prisma client singleton: over the libSQL driver adapter for the embedded SQLite
 * file (the default), over node-postgres for a postgres:// or postgresql:// URL.
 * One client per process, kept on globalThis so Next.js hot reloads reuse it.
 */
import "server-only";
import fs from "node:fs";
import path from "node:path";
import type { Client, Transaction } from "@libsql/client";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaClient } from "./generated/client.ts";
import { describePostgresUrl, env, isPostgresUrl } from "../env.ts";
import { WayfinderError } from "../errors.ts";
import { closeLimitStore } from "./limit-store.ts";

/**
 * The client type everywhere is the SQLite client's: both generated clients have the
 * same model API (prisma/postgres/schema.prisma is derived from prisma/schema.prisma),
 * so the PostgreSQL one is used through this type.
 */
export type Db = InstanceType<typeof PrismaClient>;

/** Connections of the PostgreSQL pool per process (web server, CLI, index worker). */
const PG_POOL_SIZE = 10;

const globalForDb = globalThis as unknown as {
  wayfinderDb?: { url: string; ready: Promise<Db> };
  /** the libSQL client under the SQLite Prisma client (its one connection) */
  wayfinderSqlite?: { url: string; client: Client };
};

function sqliteFilePath(url: string): string | null {
  if (!url.startsWith("file:")) return null;
  return url.slice("file:".length);
}

/** Settings SQLite keeps per connection, not per file. */
const CONNECTION_PRAGMAS = [
  "PRAGMA synchronous = NORMAL",
  "PRAGMA busy_timeout = 10000",
  "PRAGMA foreign_keys = ON",
];

/**
 * Interactive transactions run on the client's one connection. @libsql/client would
 * hand its connection to each transaction and open a fresh one for later queries: the
 * old connection is never closed (only when garbage collection finalizes it), so a
 * process running many transactions — an index build writes in one per batch — piled
 * up open files and page caches, and the fresh connections lacked the pragmas above
 * (busy_timeout 0: any concurrent writer failed at once with "database is locked").
 * Sharing the connection is safe: the Prisma adapter holds its lock while a transaction
 * is open, so no other query runs on the connection until it commits or rolls back.
 * Transactions begin IMMEDIATE: a deferred one that reads and then writes after another
 * connection committed fails at once (SQLITE_BUSY_SNAPSHOT) whatever the busy timeout.
 */
class ConfiguredLibSQL extends PrismaLibSQL {
  override createClient(config: Parameters<PrismaLibSQL["createClient"]>[0]) {
    const client = super.createClient(config);
    if (config.url !== ":memory:") globalForDb.wayfinderSqlite = { url: config.url, client };
    client.transaction = (async () => {
      await client.execute("BEGIN IMMEDIATE");
      let open = true;
      const end = async (sql: "COMMIT" | "ROLLBACK") => {
        if (!open) return;
        open = false;
        await client.execute(sql);
      };
      const tx: Transaction = {
        execute: (stmt) => client.execute(stmt),
        batch: async (stmts) => {
          const out = [];
          for (const stmt of stmts) out.push(await client.execute(stmt));
          return out;
        },
        executeMultiple: (sql) => client.executeMultiple(sql),
        commit: () => end("COMMIT"),
        rollback: () => end("ROLLBACK"),
        close: () => void end("ROLLBACK").catch(() => undefined),
        get closed() {
          return !open;
        },
      };
      return tx;
    }) as typeof client.transaction;
    return client;
  }
}

async function createSqliteClient(url: string): Promise<Db> {
  const file = sqliteFilePath(url);
  // turbopackIgnore: the file is chosen at run time; without it the build traces the whole project.
  if (file) fs.mkdirSync(path.dirname(path.resolve(/*turbopackIgnore: true*/ file)), { recursive: true });
  const client = new PrismaClient({ adapter: new ConfiguredLibSQL({ url }) }) as Db;
  // WAL lets readers keep serving the active generation while an index build writes.
  await client.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  for (const pragma of CONNECTION_PRAGMAS) await client.$executeRawUnsafe(pragma);
  return client;
}

async function createPostgresClient(url: string): Promise<Db> {
  const [{ PrismaClient: PgPrismaClient }, { PrismaPg }] = await Promise.all([
    import("./generated-pg/client.ts"),
    import("@prisma/adapter-pg"),
  ]);
  const adapter = new PrismaPg({
    connectionString: url,
    max: PG_POOL_SIZE,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
  });
  const client = new PgPrismaClient({ adapter }) as unknown as Db;
  try {
    await client.$queryRawUnsafe("SELECT 1");
  } catch (cause) {
    await client.$disconnect().catch(() => undefined);
    const reason = cause instanceof Error ? cause.message.split("\n").filter(Boolean).pop() : "";
    throw new WayfinderError(
      "unavailable:database",
      `The PostgreSQL database at ${describePostgresUrl(url)} could not be reached${reason ? ` (${reason.trim().slice(0, 200)})` : ""}. Check DATABASE_URL and that the server is running.`,
      { cause },
    );
  }
  return client;
}

/**
 * The SQLite connection itself, for bulk writes inside a transaction of the Prisma
 * client (the transaction runs on this connection and holds the adapter's lock, so
 * nothing else runs on it meanwhile); null on PostgreSQL. Statements sent here skip
 * Prisma's query pipeline, which serialises every parameter to JSON and back.
 */
export function sqliteConnection(): Client | null {
  const url = env().databaseUrl;
  if (isPostgresUrl(url)) return null;
  const entry = globalForDb.wayfinderSqlite;
  return entry && entry.url === url ? entry.client : null;
}

/** The process-wide client, configured and ready. */
export async function db(): Promise<Db> {
  const url = env().databaseUrl;
  let entry = globalForDb.wayfinderDb;
  if (!entry || entry.url !== url) {
    entry = { url, ready: isPostgresUrl(url) ? createPostgresClient(url) : createSqliteClient(url) };
    globalForDb.wayfinderDb = entry;
  }
  try {
    return await entry.ready;
  } catch (cause) {
    if (globalForDb.wayfinderDb === entry) globalForDb.wayfinderDb = undefined;
    if (cause instanceof WayfinderError) throw cause;
    throw new WayfinderError("unavailable:database", "The database could not be opened.", { cause });
  }
}

/** Closes the process-wide client (CLI exit, tests). */
export async function closeDb(): Promise<void> {
  await closeLimitStore();
  const entry = globalForDb.wayfinderDb;
  globalForDb.wayfinderDb = undefined;
  if (!entry) return;
  const client = await entry.ready.catch(() => null);
  if (client) await client.$disconnect();
}
