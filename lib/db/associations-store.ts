/**
 * Where a repository's learned term associations are kept (TermAssociations rows): one
 * row per training, read by the generation it was learned at and every later one until
 * a newer row replaces it. Garbage collection (lib/db/garbage.ts) deletes the rows
 * no kept generation reads.
 */
import "server-only";
import { db } from "./client.ts";
import { queryRaw } from "./dialect.ts";
import { snapshotOf, visibleSql } from "./snapshot.ts";
import { withBuild } from "./build-writes.ts";

export interface StoredAssociations {
  id: number;
  repositoryId: string;
  /** the generation number they were learned at */
  generation: number;
  /** chunks they were learned from */
  chunks: number;
}

/** The associations a generation reads (without their data): the newest learned at it or before it. */
export async function associationsFor(generationId: string): Promise<StoredAssociations | null> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  return client.termAssociations.findFirst({
    where: { repositoryId: snapshot.repositoryId, generation: { lte: snapshot.number } },
    orderBy: { generation: "desc" },
    select: { id: true, repositoryId: true, generation: true, chunks: true },
  });
}

/** The encoded associations of a row. */
export async function associationsData(id: number): Promise<Uint8Array | null> {
  const client = await db();
  const row = await client.termAssociations.findUnique({ where: { id }, select: { data: true } });
  return row?.data ?? null;
}

/** Stores associations learned by the building generation from `chunks` chunks. */
export async function saveAssociations(
  generationId: string,
  chunks: number,
  data: Uint8Array,
): Promise<void> {
  await withBuild(generationId, async (tx, s) => {
    await tx.termAssociations.create({
      data: { repositoryId: s.repositoryId, generation: s.number, chunks, data: Buffer.from(data) },
    });
  });
}

/** How many of a generation's chunks are newer than generation number `since` (what changed since). */
export async function chunksNewerThan(generationId: string, since: number): Promise<number> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const visible = visibleSql(snapshot);
  const rows = await queryRaw<{ n: number | bigint }[]>(
    client,
    `SELECT COUNT(*) AS n FROM "Chunk" WHERE ${visible.sql} AND "fromGeneration" > ?`,
    ...visible.params,
    since,
  );
  return Number(rows[0]?.n ?? 0);
}
