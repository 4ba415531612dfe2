/**
 * Where rate-limit counters live (rate-limiter-flexible): on PostgreSQL in the shared
 * "RateLimit" table, so every web instance counts against the same limits; on SQLite in
 * this process's memory (one process serves an embedded installation, and a counter
 * written to the file per request would compete with index builds for its lock).
 *
 * The PostgreSQL store gets a small pool of its own (the Prisma adapter's pool is not
 * reachable from outside it) and an in-memory insurance limiter: if the database cannot
 * be reached, limits go on per process instead of refusing or waving through requests.
 */
import "server-only";
import { createHash } from "node:crypto";
import pg from "pg";
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import { env, isPostgresUrl } from "../env.ts";

export { RateLimiterRes };

export interface LimiterOptions {
  /** the counter's name: part of every key */
  name: string;
  points: number;
  durationSeconds: number;
}

/** The counters of one limit: consume, read, block and forget keys. */
export type Limiter = Pick<RateLimiterAbstract, "consume" | "get" | "block" | "delete" | "points">;

const TABLE = "RateLimit";
const POOL_SIZE = 2;

interface PoolEntry {
  url: string;
  pool: pg.Pool;
}

const globalForLimits = globalThis as unknown as {
  wayfinderLimitPool?: PoolEntry;
  wayfinderLimitEpoch?: number;
};

/** Bumped by `forgetLimits`: limiters made after it count under new names. */
export function limitEpoch(): number {
  return globalForLimits.wayfinderLimitEpoch ?? 0;
}

/** Forgets every count (tests): later limiters count afresh, also in a shared store. */
export function forgetLimits(): void {
  globalForLimits.wayfinderLimitEpoch = limitEpoch() + 1;
}

function limitPool(url: string): pg.Pool {
  const current = globalForLimits.wayfinderLimitPool;
  if (current?.url === url) return current.pool;
  if (current) void current.pool.end().catch(() => undefined);
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // Idle connections of the limiter must not keep a CLI or test process alive.
    allowExitOnIdle: true,
  });
  pool.on("error", () => undefined); // a dropped idle connection is replaced on next use
  globalForLimits.wayfinderLimitPool = { url, pool };
  return pool;
}

/** A limiter on this database's store (see the module header). */
export function createLimiter(options: LimiterOptions, url = env().databaseUrl): Limiter {
  const epoch = limitEpoch();
  const keyPrefix = epoch ? `${options.name}-${epoch}` : options.name;
  const base = { keyPrefix, points: options.points, duration: options.durationSeconds };
  if (!isPostgresUrl(url)) return new RateLimiterMemory(base);
  return new RateLimiterPostgres({
    ...base,
    storeClient: limitPool(url),
    storeType: "pool",
    tableName: TABLE,
    // The table is created by a migration, before any process serves requests.
    tableCreated: true,
    insuranceLimiter: new RateLimiterMemory(base),
  });
}

/** Keys fit the store's column (255 characters): long ones are hashed. */
export function limitKey(key: string): string {
  return key.length <= 160 ? key : `sha256:${createHash("sha256").update(key).digest("hex")}`;
}

/** Closes the PostgreSQL store's pool (process exit, tests). */
export async function closeLimitStore(): Promise<void> {
  const entry = globalForLimits.wayfinderLimitPool;
  globalForLimits.wayfinderLimitPool = undefined;
  await entry?.pool.end().catch(() => undefined);
}
