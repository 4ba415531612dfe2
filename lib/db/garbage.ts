/**
 * Garbage collection of the code index: rows of failed or dead builds (the rows such a
 * build closed become current again), rows no kept generation reads (kept: the ready
 * one and the most recent superseded one), unread term associations, and blobs no file
 * row references.
 */
import "server-only";
import { db, type Db } from "./client.ts";
import { executeRaw, ftsDeleteRows, queryRaw } from "./dialect.ts";
import { OPEN_GENERATION } from "./snapshot.ts";
import { isBuildAlive } from "./generations.ts";
import { RANGED_TABLES, deleteFileTerms } from "./index-rows.ts";

export interface GarbageReport {
  /** generations whose rows are no longer kept (failed or dead builds, old superseded ones) */
  generations: string[];
  /** chunks deleted, whose vectors can go too */
  chunkIds: number[];
}

/**
 * Deletes rows nobody should read any more: those of failed or dead builds (and the
 * rows such a build had closed are current again), and rows that no kept generation
 * reads — kept are the ready one and the most recent superseded one (so questions
 * that started just before a flip can finish on the generation they were pinned to).
 */
export async function collectGarbage(repositoryId: string): Promise<GarbageReport> {
  const client = await db();
  const generations = await client.indexGeneration.findMany({
    where: { repositoryId },
    orderBy: { number: "desc" },
  });
  const now = Date.now();
  const doomed: string[] = [];
  const kept: number[] = [];
  let keptSuperseded = 0;
  for (const g of generations) {
    if (g.status === "queued") continue;
    if (g.status === "ready") kept.push(g.number);
    if (g.status === "ready" || (g.status === "building" && isBuildAlive(g, now))) continue;
    if (g.status === "superseded" && keptSuperseded++ < 1) {
      kept.push(g.number);
      continue;
    }
    doomed.push(g.id);
  }
  for (const id of doomed) {
    // A failed build keeps the error it failed with; only a dead build gets this one.
    await client.indexGeneration.updateMany({
      where: { id, status: "building" },
      data: { status: "failed", error: "Interrupted: the indexing process stopped.", finishedAt: new Date() },
    });
    await client.indexGeneration.updateMany({
      where: { id, status: "superseded" },
      data: { status: "deleted" },
    });
  }
  const chunkIds = await discardFailedBuilds(repositoryId);
  if (kept.length > 0) {
    // Rows closed at or before the oldest kept generation belong to no kept one.
    chunkIds.push(
      ...(await deleteRangedRows(client, repositoryId, `"toGeneration" <= ?`, Math.min(...kept))),
    );
    await deleteUnreadAssociations(client, repositoryId, Math.min(...kept));
  }
  if (doomed.length > 0) await client.finding.deleteMany({ where: { generationId: { in: doomed } } });
  return { generations: doomed, chunkIds };
}

/**
 * Undoes what failed builds wrote that is still there: deletes the rows they
 * inserted and makes current again the rows they closed. Only builds newer than the
 * serving generation can have left any (each build starts by calling this). A build
 * whose rows are discarded is no longer `building`, so its own writes are refused from
 * then on (withBuild). Returns the ids of the deleted chunks.
 */
export async function discardFailedBuilds(repositoryId: string): Promise<number[]> {
  const client = await db();
  const repository = await client.repository.findUnique({
    where: { id: repositoryId },
    select: { activeGenerationId: true },
  });
  const active = repository?.activeGenerationId
    ? await client.indexGeneration.findUnique({ where: { id: repository.activeGenerationId } })
    : null;
  const failed = await client.indexGeneration.findMany({
    where: { repositoryId, status: "failed", number: { gt: active?.number ?? 0 } },
    select: { number: true },
  });
  const chunkIds: number[] = [];
  for (const { number } of failed) {
    chunkIds.push(...(await deleteRangedRows(client, repositoryId, `"fromGeneration" = ?`, number)));
    await client.termAssociations.deleteMany({ where: { repositoryId, generation: number } });
    for (const table of RANGED_TABLES) {
      await executeRaw(
        client,
        `UPDATE "${table}" SET "toGeneration" = ? WHERE "repositoryId" = ? AND "toGeneration" = ?`,
        OPEN_GENERATION,
        repositoryId,
        number,
      );
    }
  }
  return chunkIds;
}

/**
 * Deletes the term associations no kept generation reads: a generation reads the newest
 * learned at or before it, so the oldest kept one's row and all newer rows stay.
 */
async function deleteUnreadAssociations(client: Db, repositoryId: string, oldestKept: number): Promise<void> {
  const read = await client.termAssociations.findFirst({
    where: { repositoryId, generation: { lte: oldestKept } },
    orderBy: { generation: "desc" },
    select: { generation: true },
  });
  if (read) {
    await client.termAssociations.deleteMany({
      where: { repositoryId, generation: { lt: read.generation } },
    });
  }
}

/** Deletes a repository's rows matching `condition` in every ranged table (chunks from FTS first); returns the chunk ids. */
async function deleteRangedRows(
  client: Db,
  repositoryId: string,
  condition: string,
  ...params: unknown[]
): Promise<number[]> {
  const ids = await queryRaw<{ id: number }[]>(
    client,
    `SELECT id FROM "Chunk" WHERE "repositoryId" = ? AND ${condition}`,
    repositoryId,
    ...params,
  );
  if (ids.length > 0) await ftsDeleteRows(client, repositoryId, condition, ...params);
  await deleteFileTerms(client, repositoryId, condition, ...params);
  for (const table of RANGED_TABLES) {
    await executeRaw(
      client,
      `DELETE FROM "${table}" WHERE "repositoryId" = ? AND ${condition}`,
      repositoryId,
      ...params,
    );
  }
  return ids.map((r) => Number(r.id));
}

/** Removes blobs no file row references any more (one index lookup per blob). */
export async function collectBlobs(): Promise<number> {
  const client = await db();
  return client.$executeRawUnsafe(
    `DELETE FROM "Blob" WHERE NOT EXISTS (SELECT 1 FROM "File" f WHERE f.hash = "Blob".hash)`,
  );
}
