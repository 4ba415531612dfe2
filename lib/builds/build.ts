/**
 * The index build: checkout → discover + parse → resolve → wiki → embed → activate, one
 * phase a file under phases/, run in order over one BuildRun (run.ts) — a new phase is
 * one file and one entry in PHASES.
 * Each build is a new generation assembled beside the serving one, sharing every row
 * that did not change (lib/db/snapshot.ts): files whose content hash is unchanged are
 * neither re-parsed nor copied, changed and removed files' rows are closed and new
 * ones inserted, and only edges that can resolve differently are re-resolved. Only a
 * complete build is activated; a failed or killed one leaves the previous generation
 * serving, and its rows are discarded.
 */
import "server-only";
import { WayfinderError } from "../errors.ts";
import { createRepository, findRepository, type RepositoryRow } from "../db/repositories.ts";
import { discardFailedBuilds } from "../db/garbage.ts";
import { failGeneration, startGeneration } from "../db/generations.ts";
import { resolveRepositoryRoot } from "../indexer/discover.ts";
import { collectVectorGarbage } from "../indexer/embed.ts";
import { activate } from "./phases/activate.ts";
import { checkout } from "./phases/checkout.ts";
import { embed } from "./phases/embed.ts";
import { discoverAndParse } from "./phases/parse.ts";
import { resolve } from "./phases/resolve.ts";
import { wiki } from "./phases/wiki.ts";
import { createBuildRun, startHeartbeat, type BuildStep } from "./run.ts";
import type { BuildOptions, BuildResult, BuildStats } from "./types.ts";

/** The phases of a build, in order; each ends with the caller's afterPhase hook. */
const PHASES: readonly BuildStep[] = [checkout, discoverAndParse, resolve, wiki, embed, activate];

/** Registers a folder repository if needed (or takes a registered Git source) and builds a new generation of its index. */
export async function indexRepository(inputPath: string, options: BuildOptions = {}): Promise<BuildResult> {
  // A Git-sourced repository is named by its id, name or checkout path; its folder may not exist yet.
  const registered = await findRepository(inputPath);
  if (registered?.sourceKind === "git") {
    const stats = await buildGeneration(registered, options);
    return { repository: (await findRepository(registered.id)) ?? registered, stats };
  }
  const root = resolveRepositoryRoot(inputPath);
  const existing = await findRepository(root);
  const name = options.name ?? existing?.name ?? defaultName(root);
  const repository = existing ?? (await createRepository({ name, rootPath: root }));
  const stats = await buildGeneration(repository, options);
  return { repository: (await findRepository(repository.id)) ?? repository, stats };
}

function defaultName(root: string): string {
  return root.split("/").filter(Boolean).pop() ?? "repository";
}

export async function buildGeneration(
  repository: RepositoryRow,
  options: BuildOptions = {},
): Promise<BuildStats> {
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const generation = options.generation ?? (await startGeneration(repository.id, process.pid));
  const run = createBuildRun({ repository, generation, options, started, cpuStart });
  const stopHeartbeat = startHeartbeat(run);
  try {
    for (const phase of PHASES) await phase(run);
    return run.need("stats");
  } catch (error) {
    const message =
      error instanceof WayfinderError
        ? error.message
        : error instanceof Error
          ? error.message
          : String(error);
    await failGeneration(generation.id, message).catch(() => undefined);
    // A failed build's rows and vectors are never read: discard them now (best effort).
    await discardFailedBuilds(repository.id)
      .then((chunkIds) => collectVectorGarbage(repository.id, chunkIds))
      .catch(() => undefined);
    throw error;
  } finally {
    stopHeartbeat();
  }
}
