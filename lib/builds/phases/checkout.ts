/**
 * Phase 1, checkout: the commit to index (a Git source's branch head fetched, a
 * folder's HEAD read) and the listing of its files, while the database work that does
 * not depend on them runs beside: what earlier failed builds left behind is undone,
 * and the serving generation is read to decide whether its rows may be reused.
 */
import "server-only";
import { discardFailedBuilds } from "../../db/garbage.ts";
import { fileHashes } from "../../db/index-reads.ts";
import { getGeneration } from "../../db/generations.ts";
import { streamFiles, type KnownFile } from "../../indexer/discover.ts";
import { collectVectorGarbage } from "../../indexer/embed.ts";
import { INDEX_FORMAT_VERSION } from "../../indexer/format.ts";
import { prepareCheckout } from "../../sources/checkout.ts";
import type { BuildRun, BuildState } from "../run.ts";

type Previous = BuildState["previous"] & { classRules: string | null };

/** The serving generation, once failed builds are discarded: rows of another index format are never reused. */
async function readPrevious(run: BuildRun): Promise<Previous> {
  const { repository } = run;
  // What earlier failed builds left behind is undone before anything is compared with it.
  await collectVectorGarbage(repository.id, await discardFailedBuilds(repository.id));
  const generation = repository.activeGenerationId
    ? await getGeneration(repository.activeGenerationId)
    : null;
  const stats = generation
    ? (JSON.parse(generation.stats) as { formatVersion?: number; classRules?: string })
    : null;
  const incremental = generation !== null && stats?.formatVersion === INDEX_FORMAT_VERSION;
  return {
    generation,
    incremental,
    hashes: incremental && generation ? await fileHashes(generation.id) : new Map<string, KnownFile>(),
    classRules: incremental ? (stats?.classRules ?? null) : null,
  };
}

export async function checkout(run: BuildRun): Promise<void> {
  const { repository, generation } = run;
  const git = repository.sourceKind === "git";
  await run.enter(git ? "fetching" : "discovering");
  const known = readPrevious(run);
  const knownHashes = known.then((k) => k.hashes);
  knownHashes.catch(() => undefined); // a failure is raised through `known` below
  const knownClassRules = known.then((k) => k.classRules);
  knownClassRules.catch(() => undefined);
  const listing = (async () => {
    const checkingOut = prepareCheckout(repository, generation.id);
    // A folder's files are listed while its commit is read; a Git source's once fetched.
    const root = git ? (await checkingOut).root : repository.rootPath;
    const [checkout, discovery] = await Promise.all([
      checkingOut,
      streamFiles(root, { maxFileBytes: run.maxFileBytes, known: knownHashes, knownClassRules }),
    ]);
    return { checkout, discovery };
  })();
  // Both settle before either failure is raised: the failure handling must not race them.
  const [knownResult, listingResult] = await Promise.allSettled([known, listing]);
  if (knownResult.status === "rejected") throw knownResult.reason;
  if (listingResult.status === "rejected") throw listingResult.reason;
  const { generation: previousGeneration, incremental, hashes } = knownResult.value;
  run.state.previous = { generation: previousGeneration, incremental, hashes };
  run.state.checkout = listingResult.value.checkout;
  run.state.discovery = listingResult.value.discovery;
  if (git) {
    await run.finish("fetching");
    await run.enter("discovering");
  }
  await run.finish("discovering");
}
