/**
 * The build phase that learns a repository's own term associations from its code
 * (lib/search/associations/repository.ts). Learning reads every chunk, so it is not done
 * on every build: a generation reads the associations learned at or before it, and a
 * build learns them again only when none exist yet or a good share of the chunks is
 * newer than the ones they were learned from. Small edits cost nothing here; what they
 * add to the code is learned once enough has accumulated.
 */
import "server-only";
import { associationsFor, chunksNewerThan, saveAssociations } from "../db/associations-store.ts";
import { chunkIdsIn, chunkTexts } from "../db/index-reads.ts";
import {
  encodeRepositoryAssociations,
  trainRepositoryAssociations,
} from "../search/associations/repository.ts";

/** Share of newer chunks at which associations are learned again. */
export const RELEARN_SHARE = 0.2;
const BATCH = 500;
/**
 * Chunks learned from at most: a larger repository is sampled evenly, which bounds the
 * phase's time and memory (the pair table) whatever the repository's size.
 */
const MAX_CHUNKS = 40_000;

export interface AssociationStats {
  /** whether this build learned them (else it kept the ones learned before) */
  learned: boolean;
  /** words with associations */
  words: number;
  /** chunks they were learned from */
  chunks: number;
}

async function* codeChunks(ids: number[]): AsyncGenerator<{ title: string; text: string }[]> {
  for (let i = 0; i < ids.length; i += BATCH) {
    // Between batches, timers run (the build's heartbeat): SQLite reads never yield.
    await new Promise((resolve) => setImmediate(resolve));
    const rows = await chunkTexts(ids.slice(i, i + BATCH));
    yield rows.filter((r) => r.kind === "code" || r.kind === "doc");
  }
}

export async function learnAssociations(generationId: string): Promise<AssociationStats> {
  const ids = await chunkIdsIn(generationId);
  const previous = await associationsFor(generationId);
  if (previous) {
    const newer = await chunksNewerThan(generationId, previous.generation);
    if (newer < RELEARN_SHARE * ids.length) return { learned: false, words: 0, chunks: previous.chunks };
  }
  const stride = Math.ceil(ids.length / MAX_CHUNKS);
  const sample = stride > 1 ? ids.filter((_, i) => i % stride === 0) : ids;
  const associations = await trainRepositoryAssociations(codeChunks(sample));
  await saveAssociations(generationId, ids.length, encodeRepositoryAssociations(associations));
  return { learned: true, words: associations.vocabulary.length, chunks: ids.length };
}
