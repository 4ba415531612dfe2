/**
 * Phase 4, wiki: the wiki pages and the issues store of the new generation. An
 * incremental build rewrites only the pages whose inputs changed.
 */
import "server-only";
import { INDEX_FORMAT_VERSION } from "../../indexer/format.ts";
import { buildWiki } from "../../wiki/generate.ts";
import type { BuildRun } from "../run.ts";

export async function wiki(run: BuildRun): Promise<void> {
  const { repository, generation, options } = run;
  const { generation: previousGeneration, incremental, hashes: previousHashes } = run.need("previous");
  const { changedPaths, removedPaths } = run.need("files");
  await run.enter("wiki");
  run.state.wiki = await buildWiki({
    repositoryName: repository.name,
    generationId: generation.id,
    formatVersion: INDEX_FORMAT_VERSION,
    previous: incremental ? previousGeneration : null,
    changes: incremental
      ? { changedPaths, removedPaths, addedPaths: changedPaths.filter((p) => !previousHashes.has(p)) }
      : null,
    model: options.wikiModel,
  });
  await run.finish("wiki");
}
