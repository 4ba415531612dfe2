/**
 * One interface over the two vector backends: an embedded store (exact cosine
 * search, files under WAYFINDER_HOME) and Qdrant for scale-out. A repository's chunk
 * embeddings live in one collection (`repo_<id>`), keyed by chunk id and shared by its
 * generations like the chunk rows: a build adds the vectors of the chunks it wrote and
 * garbage collection deletes those of the chunks it deleted. The interface and the
 * rules both backends share are in vector-store-contract.ts.
 */
import type { VectorStore } from "./vector-store-contract.ts";
import { EmbeddedVectorStore } from "./vector-store-embedded.ts";
import { QdrantVectorStore } from "./vector-store-qdrant.ts";

export interface VectorStoreOptions {
  qdrantUrl?: string;
  qdrantApiKey?: string;
  /** Folder of the embedded store (e.g. `<WAYFINDER_HOME>/vectors`). */
  dir: string;
}

/** Qdrant when a URL is configured, else the embedded store under `dir`. */
export function createVectorStore(options: VectorStoreOptions): VectorStore {
  if (options.qdrantUrl)
    return new QdrantVectorStore({ url: options.qdrantUrl, apiKey: options.qdrantApiKey });
  return new EmbeddedVectorStore({ dir: options.dir });
}
