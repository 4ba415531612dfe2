/**
 * Embeds a build's new chunks into its repository's vector collection (one per
 * repository, in either store, keyed by chunk id). Chunk rows are shared between
 * generations, so their vectors are too: a build embeds only the chunks it inserted,
 * readers filter hits to the chunks of the generation they are pinned to, and garbage
 * collection deletes the vectors of the chunks it deleted.
 */
import "server-only";
import { env } from "../env.ts";
import { isWayfinderError } from "../errors.ts";
import { chunkIdsIn, chunksAddedIn, chunkTexts } from "../db/index-reads.ts";
import { collectionName, repositoryCollectionPrefix, searchServices } from "../search/runtime.ts";

const BATCH = 256;

/** What of a chunk is embedded: where it is, what it is called, and the start of its text. */
export function chunkEmbeddingText(chunk: { path: string; title: string; text: string }): string {
  return `${chunk.path}\n${chunk.title}\n${chunk.text.slice(0, 2000)}`;
}

/** Returns how many chunks it embedded (the others' vectors were there already). */
export async function embedGeneration(
  repositoryId: string,
  generationId: string,
): Promise<{ embedded: number }> {
  if (!env().WAYFINDER_EMBEDDINGS) return { embedded: 0 };
  const { embedder, store } = searchServices();
  const name = collectionName(repositoryId, embedder.id);
  const collections = await store.listCollections();
  const existed = collections.includes(name);
  let complete = existed;
  try {
    await store.ensureCollection(name, embedder.dimensions);
  } catch (error) {
    // The embedding model changed its dimensions since: start the collection afresh.
    if (!isWayfinderError(error) || error.code !== "conflict:vector_dimensions") throw error;
    await store.dropCollection(name);
    await store.ensureCollection(name, embedder.dimensions);
    complete = false;
  }
  // A collection that did not exist (first build, or vectors lost) gets every chunk.
  const todo = complete ? await chunksAddedIn(generationId) : await chunkIdsIn(generationId);
  for (let i = 0; i < todo.length; i += BATCH) {
    // Between batches, timers run (the build's heartbeat): SQLite reads never yield.
    await new Promise((resolve) => setImmediate(resolve));
    const rows = await chunkTexts(todo.slice(i, i + BATCH));
    const vectors = await embedder.embed(rows.map(chunkEmbeddingText));
    await store.upsert(
      name,
      rows.map((r, j) => ({
        id: String(r.id),
        vector: vectors[j] as Float32Array,
        payload: { path: r.path, kind: r.kind, symbolId: r.symbolId },
      })),
    );
  }
  // Durable before the generation flips: a crash after activation must not lose vectors.
  await store.flush();
  // Collections of other embedders (the default changed, a model was retrained) are
  // read by no search of this process: this generation's vectors are in `name`.
  for (const other of collections)
    if (other !== name && isRepositoryCollection(other, repositoryId)) await store.dropCollection(other);
  return { embedded: todo.length };
}

/** Whether a collection holds vectors of the repository (under any embedder, or from before vectors were shared). */
function isRepositoryCollection(collection: string, repositoryId: string): boolean {
  const prefix = repositoryCollectionPrefix(repositoryId);
  return (
    collection === prefix || collection.startsWith(`${prefix}-e`) || collection.startsWith(`${prefix}__gen_`)
  );
}

/**
 * The vector half of garbage collection: deletes the vectors of chunks the database
 * deleted (rows no kept generation reads, a failed build's rows) and drops the
 * per-generation collections of indexes made before vectors were shared.
 */
export async function collectVectorGarbage(repositoryId: string, chunkIds: number[]): Promise<void> {
  if (!env().WAYFINDER_EMBEDDINGS) return;
  const { embedder, store } = searchServices();
  const name = collectionName(repositoryId, embedder.id);
  const collections = await store.listCollections();
  // Not flushed here: a delete lost to a crash leaves a vector whose chunk is gone, which
  // searches drop anyway, and the next flush (the next build's, or closing) writes it.
  if (chunkIds.length > 0 && collections.includes(name)) await store.delete(name, chunkIds.map(String));
  const legacy = `${repositoryCollectionPrefix(repositoryId)}__gen_`;
  for (const existing of collections) if (existing.startsWith(legacy)) await store.dropCollection(existing);
}

/** Drops every vector collection of a repository (it is being removed). */
export async function dropRepositoryVectors(repositoryId: string): Promise<void> {
  if (!env().WAYFINDER_EMBEDDINGS) return;
  const { store } = searchServices();
  for (const existing of await store.listCollections())
    if (isRepositoryCollection(existing, repositoryId)) await store.dropCollection(existing);
}
