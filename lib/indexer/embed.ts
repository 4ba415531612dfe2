/**
 * Embeds a generation's chunks into its own vector collection (one per repository and
 * generation, in either store). Chunks identical to one of the previous generation
 * reuse its vector; only new or edited chunks are embedded. Collections of generations
 * that are no longer kept are dropped by collectVectorGarbage after the flip.
 */
import "server-only";
import { db } from "../db/client.ts";
import { env } from "../env.ts";
import { unchangedChunkPairs } from "../db/index-store.ts";
import { collectionName, searchServices } from "../search/runtime.ts";
import type { VectorStore } from "../search/vector-store.ts";

const BATCH = 256;

type ChunkRow = { id: number; path: string; kind: string; symbolId: string | null };

/**
 * Copies the vectors of chunks that did not change from the previous generation's
 * collection, so only new or edited chunks are embedded (which matters most with a
 * paid embedding provider). Returns the new chunk ids that were covered.
 */
async function reuseVectors(
  store: VectorStore,
  dimensions: number,
  fromName: string,
  toName: string,
  generationId: string,
  previousGenerationId: string,
  rows: ChunkRow[],
): Promise<Set<number>> {
  const pairs = await unchangedChunkPairs(previousGenerationId, generationId);
  if (pairs.length === 0) return new Set();
  let vectors: Map<string, Float32Array>;
  try {
    vectors = await store.getVectors(
      fromName,
      pairs.map((p) => String(p.oldId)),
    );
  } catch {
    return new Set(); // previous collection missing or unreadable: embed everything
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  const items = [];
  for (const p of pairs) {
    const vector = vectors.get(String(p.oldId));
    const row = byId.get(p.newId);
    if (!vector || !row || vector.length !== dimensions) continue;
    items.push({
      id: String(row.id),
      vector,
      payload: { path: row.path, kind: row.kind, symbolId: row.symbolId },
    });
  }
  await store.upsert(toName, items);
  return new Set(items.map((i) => Number(i.id)));
}

export async function embedGeneration(
  repositoryId: string,
  generationId: string,
  previousGenerationId: string | null,
): Promise<{ chunks: number; embedded: number; reused: number }> {
  const client = await db();
  // Text is read only for the chunks that need embedding (usually few on a re-index).
  const rows = await client.chunk.findMany({
    where: { generationId },
    select: { id: true, path: true, kind: true, symbolId: true },
    orderBy: { id: "asc" },
  });
  if (!env().WAYFINDER_EMBEDDINGS) return { chunks: rows.length, embedded: 0, reused: 0 };
  const { embedder, store } = searchServices();
  const name = collectionName(repositoryId, generationId);
  await store.ensureCollection(name, embedder.dimensions);
  const reused = previousGenerationId
    ? await reuseVectors(
        store,
        embedder.dimensions,
        collectionName(repositoryId, previousGenerationId),
        name,
        generationId,
        previousGenerationId,
        rows,
      )
    : new Set<number>();
  const todoIds = rows.filter((r) => !reused.has(r.id)).map((r) => r.id);
  const todo: (ChunkRow & { title: string; text: string })[] = [];
  for (let i = 0; i < todoIds.length; i += 500) {
    todo.push(
      ...(await client.chunk.findMany({
        where: { id: { in: todoIds.slice(i, i + 500) } },
        select: { id: true, title: true, text: true, path: true, kind: true, symbolId: true },
        orderBy: { id: "asc" },
      })),
    );
  }
  for (let i = 0; i < todo.length; i += BATCH) {
    const batch = todo.slice(i, i + BATCH);
    const vectors = await embedder.embed(batch.map((r) => `${r.path}\n${r.title}\n${r.text.slice(0, 2000)}`));
    await store.upsert(
      name,
      batch.map((r, j) => ({
        id: String(r.id),
        vector: vectors[j] as Float32Array,
        payload: { path: r.path, kind: r.kind, symbolId: r.symbolId },
      })),
    );
  }
  // Durable before the generation flips: a crash after activation must not lose vectors.
  await store.flush();
  return { chunks: rows.length, embedded: todo.length, reused: reused.size };
}

/**
 * The vector half of garbage collection (after collectGarbage): drops every
 * collection of the repository whose generation is not kept — failed, interrupted or
 * deleted builds, and superseded generations the database no longer keeps. Kept: the
 * ready one, the superseded ones still in the database, and a queued or running
 * build's. Returns the dropped collection names.
 */
export async function collectVectorGarbage(repositoryId: string): Promise<string[]> {
  if (!env().WAYFINDER_EMBEDDINGS) return [];
  const client = await db();
  const kept = await client.indexGeneration.findMany({
    where: { repositoryId, status: { in: ["ready", "superseded", "building", "queued"] } },
    select: { id: true },
  });
  const keep = new Set(kept.map((g) => collectionName(repositoryId, g.id)));
  const prefix = collectionName(repositoryId, "");
  const { store } = searchServices();
  const dropped: string[] = [];
  for (const existing of await store.listCollections()) {
    if (existing.startsWith(prefix) && !keep.has(existing)) {
      await store.dropCollection(existing);
      dropped.push(existing);
    }
  }
  return dropped;
}
