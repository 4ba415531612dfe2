/**
 * Embeds a generation's chunks into its own vector collection, then drops the
 * collections of generations that are no longer kept. Unchanged chunks are simply
 * re-embedded: the default hashing embedder is cheap, and a provider embedder's
 * cost is bounded by the chunk count.
 */
import "server-only";
import { db } from "../db/client.ts";
import { env } from "../env.ts";
import { collectionName, searchServices } from "../search/runtime.ts";

const BATCH = 256;

export async function embedGeneration(
  repositoryId: string,
  generationId: string,
  previousGenerationId: string | null,
): Promise<number> {
  const client = await db();
  const rows = await client.chunk.findMany({
    where: { generationId },
    select: { id: true, title: true, text: true, path: true, kind: true, symbolId: true },
    orderBy: { id: "asc" },
  });
  if (!env().WAYFINDER_EMBEDDINGS) return rows.length;
  const { embedder, store } = searchServices();
  const name = collectionName(repositoryId, generationId);
  await store.ensureCollection(name, embedder.dimensions);
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
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
  const keep = new Set([
    name,
    previousGenerationId ? collectionName(repositoryId, previousGenerationId) : "",
  ]);
  const prefix = `repo_${repositoryId}__gen_`.replace(/[^A-Za-z0-9_-]/g, "_");
  for (const existing of await store.listCollections()) {
    if (existing.startsWith(prefix) && !keep.has(existing)) await store.dropCollection(existing);
  }
  return rows.length;
}
