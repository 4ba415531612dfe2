/**
 * What a generation reads. Index rows (File, Symbol, Edge, Chunk, WikiPage) are shared
 * between the generations of their repository: each row carries the range of
 * generation numbers it belongs to, [fromGeneration, toGeneration), and a generation
 * numbered n reads the rows with fromGeneration <= n < toGeneration. Readers pass the
 * generation id they are pinned to; lib/db turns it into a Snapshot here, once per
 * generation and process (a generation's repository and number never change).
 */
import "server-only";
import { db } from "./client.ts";
import { noIndex, type Snapshot } from "./dialect.ts";

/** Readers name it from here; it is declared in dialect.ts, whose full-text query filters by it. */
export type { Snapshot };

/** toGeneration of a row that is still current (no build has replaced it). */
export const OPEN_GENERATION = 2_147_483_647;

/** Matches no row: the snapshot of a generation that does not exist. */
const NOTHING: Snapshot = { repositoryId: "", number: -1 };

const cache = new Map<string, Snapshot>();
const CACHE_LIMIT = 10_000;

export async function snapshotOf(generationId: string): Promise<Snapshot> {
  const hit = cache.get(generationId);
  if (hit) return hit;
  const client = await db();
  const row = await client.indexGeneration.findUnique({
    where: { id: generationId },
    select: { repositoryId: true, number: true },
  });
  if (!row) return NOTHING;
  if (cache.size >= CACHE_LIMIT) cache.clear();
  const snapshot = { repositoryId: row.repositoryId, number: row.number };
  cache.set(generationId, snapshot);
  return snapshot;
}

/** Prisma `where` for the rows a snapshot reads. */
export function visibleIn(s: Snapshot) {
  return { repositoryId: s.repositoryId, fromGeneration: { lte: s.number }, toGeneration: { gt: s.number } };
}

/**
 * The same as SQL, for a table alias (`visibleSql(s, "c")` → `c."repositoryId" = ? AND …`)
 * with its parameters, in order. The range never picks the index a query uses (on
 * SQLite the columns are marked so): nearly every row of a repository matches it, and
 * a planner short of statistics that read a generation through it instead of a name,
 * path or id index turned lookups into scans.
 */
export function visibleSql(s: Snapshot, alias?: string): { sql: string; params: [string, number, number] } {
  const a = alias ? `${alias}.` : "";
  return {
    sql: `${a}"repositoryId" = ? AND ${noIndex(`${a}"fromGeneration"`)} <= ? AND ${noIndex(`${a}"toGeneration"`)} > ?`,
    params: [s.repositoryId, s.number, s.number],
  };
}
