/**
 * Phase 5, embed: vectors for the chunks that have none yet (when embeddings are on),
 * the repository's git history since the last build folded into the co-change counts
 * meanwhile (git and the database, not the embedder), then the repository's own term
 * associations learned again when enough of the code changed.
 */
import "server-only";
import { learnAssociations } from "../../indexer/associations.ts";
import { embedGeneration } from "../../indexer/embed.ts";
import { foldHistory } from "../history.ts";
import type { BuildRun } from "../run.ts";

export async function embed(run: BuildRun): Promise<void> {
  const { repository, generation } = run;
  const checkout = run.need("checkout");
  await run.enter("embedding");
  const [embedding, history] = await Promise.all([
    embedGeneration(repository.id, generation.id),
    foldHistory(repository.id, checkout.root, checkout.commitSha),
  ]);
  await run.finish("embedding");
  await run.enter("associations");
  const associations = await learnAssociations(generation.id);
  run.state.embedded = { embedding, history, associations };
  await run.finish("associations");
}
