/**
 * Prisma client singleton over the libSQL driver adapter (embedded SQLite file).
 * One client per process, kept on globalThis so Next.js hot reloads reuse it.
 */
import "server-only";
import fs from "node:fs";
import path from "node:path";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaClient } from "./generated/client.ts";
import { env } from "../env.ts";
import { WayfinderError } from "../errors.ts";

export type Db = InstanceType<typeof PrismaClient>;

const globalForDb = globalThis as unknown as {
  wayfinderDb?: { url: string; client: Db; ready: Promise<void> };
};

function sqliteFilePath(url: string): string | null {
  if (!url.startsWith("file:")) return null;
  return url.slice("file:".length);
}

function createClient(url: string): { client: Db; ready: Promise<void> } {
  if (/^postgres(ql)?:\/\//.test(url)) {
    throw new WayfinderError(
      "unavailable:database",
      "PostgreSQL support is not available in this build; use the embedded SQLite default.",
    );
  }
  const file = sqliteFilePath(url);
  if (file) fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const client = new PrismaClient({ adapter: new PrismaLibSQL({ url }) }) as Db;
  // WAL lets readers keep serving the active generation while an index build writes.
  const ready = (async () => {
    await client.$queryRawUnsafe("PRAGMA journal_mode = WAL");
    await client.$executeRawUnsafe("PRAGMA synchronous = NORMAL");
    await client.$executeRawUnsafe("PRAGMA busy_timeout = 10000");
    await client.$executeRawUnsafe("PRAGMA foreign_keys = ON");
  })();
  return { client, ready };
}

/** The process-wide client, configured and ready. */
export async function db(): Promise<Db> {
  const url = env().databaseUrl;
  let entry = globalForDb.wayfinderDb;
  if (!entry || entry.url !== url) {
    const created = createClient(url);
    entry = { url, ...created };
    globalForDb.wayfinderDb = entry;
  }
  try {
    await entry.ready;
  } catch (cause) {
    globalForDb.wayfinderDb = undefined;
    throw new WayfinderError("unavailable:database", "The database could not be opened.", { cause });
  }
  return entry.client;
}

/** Closes the process-wide client (CLI exit, tests). */
export async function closeDb(): Promise<void> {
  const entry = globalForDb.wayfinderDb;
  globalForDb.wayfinderDb = undefined;
  if (entry) await entry.client.$disconnect();
}
