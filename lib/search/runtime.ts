/**
 * Process-wide search services configured from the environment: the embedder and
 * the vector store (embedded under WAYFINDER_HOME, or Qdrant when QDRANT_URL is set).
 */
import "server-only";
import { createHash } from "node:crypto";
import path from "node:path";
import { env } from "../env.ts";
import { AssociationEmbedder } from "./associations/embedder.ts";
import { generalModel } from "./associations/model.ts";
import { createEmbedder, type Embedder } from "./embedder.ts";
import type { VectorStore } from "./vector-store-contract.ts";
import { createVectorStore } from "./vector-store.ts";

const globalForSearch = globalThis as unknown as {
  wayfinderSearch?: { embedder: Embedder; store: VectorStore };
};

export function searchServices(): { embedder: Embedder; store: VectorStore } {
  if (!globalForSearch.wayfinderSearch) {
    const e = env();
    const embedder =
      e.EMBEDDING_PROVIDER === "associations" || e.EMBEDDING_PROVIDER === "hashing"
        ? offlineEmbedder(e.EMBEDDING_PROVIDER)
        : createEmbedder({
            provider: e.EMBEDDING_PROVIDER,
            model: e.EMBEDDING_MODEL ?? "text-embedding-3-small",
            baseURL: e.EMBEDDING_PROVIDER === "openai-compatible" ? e.LLM_BASE_URL : undefined,
            dimensions: e.EMBEDDING_DIMENSIONS,
            apiKey: e.LLM_API_KEY ?? e.OPENAI_API_KEY,
          });
    const store = createVectorStore({
      qdrantUrl: e.QDRANT_URL,
      qdrantApiKey: e.QDRANT_API_KEY,
      dir: path.join(e.home, "vectors"),
    });
    globalForSearch.wayfinderSearch = { embedder, store };
  }
  return globalForSearch.wayfinderSearch;
}

/** Dimensions of the hashed features beside the association vector (the default embedder). */
const HASHED_DIMENSIONS = 256;

/**
 * The embedders that need no model download: the term-association embedder (the
 * default; the general model ships with Wayfinder), or the hashing embedder, which is
 * also what the default falls back to when the model file is missing.
 */
function offlineEmbedder(provider: "associations" | "hashing"): Embedder {
  const model = provider === "associations" ? generalModel() : null;
  if (!model) return createEmbedder({ provider: "hashing" });
  return new AssociationEmbedder({ model, hashedDimensions: HASHED_DIMENSIONS, hashedWeight: 1 });
}

/**
 * Vector collection of a repository's chunk embeddings by one embedder, keyed by chunk
 * id. Chunk rows are shared between generations and so are their vectors; a search
 * keeps the hits of the chunks its generation reads. The embedder's id is part of the
 * name (hashed): vectors of two embedders never share a collection, even when their
 * dimensions agree (a retrained association model, another provider's model), and a
 * build under a new embedder fills a collection of its own.
 */
export function collectionName(repositoryId: string, embedderId: string): string {
  return `${repositoryCollectionPrefix(repositoryId)}-e${createHash("sha256").update(embedderId).digest("hex").slice(0, 10)}`;
}

/** What the names of a repository's collections start with (any embedder's, and legacy ones). */
export function repositoryCollectionPrefix(repositoryId: string): string {
  return `repo_${repositoryId}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100);
}

export async function closeSearchServices(): Promise<void> {
  const services = globalForSearch.wayfinderSearch;
  globalForSearch.wayfinderSearch = undefined;
  if (services) await services.store.close();
}
