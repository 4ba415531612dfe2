/**
 * Query-time search over one generation: BM25 over identifier-split chunk text,
 * vector search over chunk embeddings, and their reciprocal-rank fusion.
 */
import "server-only";
import { chunksByIds, searchChunks, type ChunkHit } from "../db/code-graph.ts";
import { isWayfinderError } from "../errors.ts";
import { rrf } from "./fusion.ts";
import { collectionName, searchServices } from "./runtime.ts";
import { ftsMatchExpression, queryTerms, stem } from "../db/tokenize.ts";

export interface SearchOptions {
  limit?: number;
  kinds?: string[];
  pathPrefix?: string;
  /** also match other forms of each word (`redirect` finds `redirects`): prefix queries on stems */
  stems?: boolean;
}

export async function lexicalSearch(
  generationId: string,
  query: string,
  options: SearchOptions = {},
): Promise<ChunkHit[]> {
  const terms = queryTerms(query);
  const match = ftsMatchExpression(terms, options.stems ? stemPrefixes(terms) : []);
  if (!match) return [];
  return searchChunks(generationId, match, options);
}

export async function vectorSearch(
  repositoryId: string,
  generationId: string,
  query: string,
  options: SearchOptions = {},
): Promise<ChunkHit[]> {
  const { embedder, store } = searchServices();
  const name = collectionName(repositoryId, embedder.id);
  const [vector] = await embedder.embed([query]);
  if (!vector) return [];
  const limit = options.limit ?? 20;
  // Over-fetch when filtering by kind/prefix client-side. The collection also holds the
  // vectors of chunks other kept generations read (those a newer build replaced, or
  // added): a few, dropped below by reading the hits through the pinned generation.
  const filtered = Boolean(options.kinds?.length || options.pathPrefix);
  // No collection (built without embeddings) or one of other dimensions (the embedding
  // model changed since; a re-index fixes it): no vector hits. A store that is down
  // (Qdrant unreachable after its retries) is reported, not hidden.
  const hits = await store.search(name, vector, filtered ? limit * 4 : limit * 2).catch((error: unknown) => {
    if (isWayfinderError(error) && (error.type === "not_found" || error.type === "bad_request")) return [];
    throw error;
  });
  const rows = await chunksByIds(
    generationId,
    hits.map((h) => Number(h.id)),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const out: ChunkHit[] = [];
  for (const h of hits) {
    const row = byId.get(Number(h.id));
    if (!row) continue;
    if (options.kinds?.length && !options.kinds.includes(row.kind)) continue;
    if (options.pathPrefix && !row.path.startsWith(options.pathPrefix)) continue;
    out.push({ ...row, score: h.score });
    if (out.length >= limit) break;
  }
  return out;
}

/** Stems long enough to search by prefix without matching unrelated words. */
function stemPrefixes(terms: string[]): string[] {
  return terms.flatMap((t) => {
    if (!/^[a-z]+$/.test(t) || t.length < 5) return [];
    const s = stem(t);
    return s.length >= 4 ? [s] : [];
  });
}

/** Lexical and vector results fused with RRF, deduplicated by chunk id. */
export async function hybridSearch(
  repositoryId: string,
  generationId: string,
  query: string,
  options: SearchOptions = {},
): Promise<ChunkHit[]> {
  const limit = options.limit ?? 20;
  const [lexical, vector] = await Promise.all([
    lexicalSearch(generationId, query, { ...options, limit: limit * 2 }),
    vectorSearch(repositoryId, generationId, query, { ...options, limit: limit * 2 }),
  ]);
  return rrf(
    [
      { items: lexical, weight: 1 },
      { items: vector, weight: 0.7 },
    ],
    (h) => String(h.id),
  )
    .slice(0, limit)
    .map((f) => ({ ...f.item, score: f.score }));
}
