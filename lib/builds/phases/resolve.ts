/**
 * Phase 3, resolve: calls, imports and inheritance resolved to the symbols and files
 * they name. An incremental build re-resolves only the edges that can resolve
 * differently (from changed files, or naming what changed); then the call-graph
 * degrees are counted.
 */
import "server-only";
import { analyzeIndexTables } from "../../db/build-writes.ts";
import { updateFanCounts } from "../../db/fan-counts.ts";
import { resolveGeneration } from "../../indexer/resolve-generation.ts";
import type { BuildRun } from "../run.ts";

export async function resolve(run: BuildRun): Promise<void> {
  const { generation } = run;
  const { generation: previousGeneration, incremental, hashes: previousHashes } = run.need("previous");
  const { changedPaths, removedPaths } = run.need("files");
  await run.enter("resolving");
  run.state.resolved = await resolveGeneration(
    generation.id,
    incremental && previousGeneration
      ? {
          previousGenerationId: previousGeneration.id,
          changedPaths,
          removedPaths,
          added: changedPaths.some((p) => !previousHashes.has(p)),
        }
      : null,
  );
  await updateFanCounts(generation.id, { full: !incremental });
  // Edges written anew too: what the planners know should include them.
  if (!incremental) await analyzeIndexTables();
  await run.finish("resolving");
}
