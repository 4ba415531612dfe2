/**
 * Background index builds for the web app. A request registers a repository or asks
 * for a re-index and gets an answer as soon as the build has really started (its
 * IndexGeneration row exists), while the build itself keeps running in this process.
 * Progress is persisted by buildGeneration, so readers poll the database, not us.
 */
import "server-only";
import path from "node:path";
import { WayfinderError } from "../errors.ts";
import {
  createRepository,
  findRepository,
  requireRepository,
  type RepositoryRow,
} from "../db/index-store.ts";
import { buildGeneration } from "./build.ts";
import { resolveRepositoryRoot } from "./discover.ts";

// Builds running in this process, by repository id. Kept on globalThis so a dev-server
// hot reload does not forget a running build and start a second one.
const globalForJobs = globalThis as unknown as { wayfinderIndexJobs?: Map<string, Promise<void>> };
const running = (globalForJobs.wayfinderIndexJobs ??= new Map());

export function isIndexJobRunning(repositoryId: string): boolean {
  return running.has(repositoryId);
}

/**
 * Starts a build of the repository's index in the background. Resolves once the
 * build's generation exists (so an immediate poll sees it), rejects with
 * `conflict:index_running` when a build of this repository is already running here
 * or in another process (startGeneration refuses then).
 */
export function startIndexJob(repository: RepositoryRow): Promise<void> {
  // Checked and set before any await: two simultaneous requests cannot both pass.
  if (running.has(repository.id)) {
    return Promise.reject(
      new WayfinderError("conflict:index_running", "An index build of this repository is already running."),
    );
  }
  let started = false;
  let resolveStarted!: () => void;
  let rejectStarted!: (error: unknown) => void;
  const startedSignal = new Promise<void>((resolve, reject) => {
    resolveStarted = resolve;
    rejectStarted = reject;
  });
  const job = buildGeneration(repository, {
    // The first progress report comes right after startGeneration created the row.
    onProgress: () => {
      if (started) return;
      started = true;
      resolveStarted();
    },
  })
    .then(
      () => {
        // Re-check the golden questions against the new generation; not awaited, so the
        // job ends (and a new re-index is allowed) as soon as the index is live.
        void import("../admin/golden.ts")
          .then((m) => m.runGoldenAfterReindex(repository.id))
          .catch((error: unknown) => console.error("[wayfinder] golden questions did not run:", error));
      },
      (error: unknown) => {
        if (!started) rejectStarted(error);
        // After the start the failure is already stored on the generation (failGeneration).
        else console.error(`[wayfinder] index build of ${repository.name} failed:`, error);
      },
    )
    .finally(() => running.delete(repository.id));
  running.set(repository.id, job);
  return startedSignal;
}

/**
 * Registers a repository by local path and starts its first build. A folder that is
 * already registered, or a name another repository uses, is refused with a clear error.
 */
export async function addRepository(input: { path: string; name?: string }): Promise<RepositoryRow> {
  const root = resolveRepositoryRoot(input.path);
  const existing = await findRepository(root);
  if (existing && existing.rootPath === root) {
    throw new WayfinderError("conflict:repo_path", `${root} is already added as "${existing.name}".`);
  }
  const name = input.name?.trim() || path.basename(root) || "repository";
  const repository = await createRepository({ name, rootPath: root });
  await startIndexJob(repository);
  return repository;
}

/** Re-indexes a registered repository; 409 (`conflict:index_running`) while a build runs. */
export async function reindexRepository(id: string): Promise<RepositoryRow> {
  // Read fresh: the build compares against the currently active generation.
  const repository = await requireRepository(id);
  await startIndexJob(repository);
  return repository;
}
