/**
 * Prisma client singleton: over the libSQL driver adapter for the embedded SQLite
 * file (the default), over node-postgres for a postgres:// or postgresql:// URL.
 * One client per process, kept on globalThis so Next.js hot reloads reuse it.
 */
import "server-only";
import fs from "node:fs";
import path from "node:path";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaClient } from "./generated/client.ts";
import { describePostgresUrl, env, isPostgresUrl } from "../env.ts";
import { WayfinderError } from "../errors.ts";

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
 * @libsql/client hands its connection to each interactive transaction and lazily opens
 * a fresh one for later queries, without the pragmas above: busy_timeout falls to 0, so
 * after the first $transaction any concurrent writer (an index worker, a question
 * storing its session) fails at once with "database is locked". The adapter holds its
 * lock while a transaction is open, so configuring the new connection right after the
 * hand-over runs before any other query can use it. Transactions begin IMMEDIATE: a
 * deferred one that reads and then writes after another connection committed fails at
 * once (SQLITE_BUSY_SNAPSHOT) whatever the busy timeout.
 */
class ConfiguredLibSQL extends PrismaLibSQL {
  override createClient(config: Parameters<PrismaLibSQL["createClient"]>[0]) {
    const client = super.createClient(config);
    const transaction = client.transaction.bind(client);
    client.transaction = (async () => {
      const tx = await transaction("write");
      for (const pragma of CONNECTION_PRAGMAS) await client.execute(pragma);
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
  const entry = globalForDb.wayfinderDb;
  globalForDb.wayfinderDb = undefined;
  if (!entry) return;
  const client = await entry.ready.catch(() => null);
  if (client) await client.$disconnect();
}
