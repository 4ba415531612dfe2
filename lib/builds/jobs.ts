/**
 * Index builds as jobs that outlive the web process. A request registers a repository
 * or asks for a re-index; the job is a `queued` IndexGeneration row, created in one
 * transaction that refuses a second job while one is queued or building
 * (`conflict:index_running`, across processes and hosts: lib/db/generations.ts
 * startGeneration). Who runs the job depends on WAYFINDER_INDEX_WORKER:
 *
 * - `spawn` (default): this web process starts a worker (the CLI's `index` command,
 *   which claims the queued job and calls buildGeneration) and answers once the worker
 *   has claimed it. The worker is detached — its own process group, output to a log
 *   file under WAYFINDER_HOME/logs — so stopping or restarting the web server does not
 *   stop the build; a restarted server sees it by its heartbeat.
 * - `external`: web instances only queue; a separate long-running `wayfinder worker`
 *   (lib/builds/worker.ts) claims queued jobs and builds them.
 *
 * Builds never run inside the web server: parsing is CPU work that hardly ever yields
 * to the event loop. Progress and failures are stored in the generation row, so
 * readers poll the database, never the worker.
 *
 * Restart: recoverIndexJobs (run when the server starts, and by `wayfinder worker`)
 * fails every build whose worker is dead ("Interrupted: …") and resumes it as a fresh
 * queued build with `resumeOf` set — cheap, since a build is incremental against the
 * last ready generation.
 */
import "server-only";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { childProcessEnv, env } from "../env.ts";
import { WayfinderError, isWayfinderError } from "../errors.ts";
import { tsScriptArgs } from "../package-files.ts";
import { assertAllowedRoot } from "../paths.ts";
import { collectBlobs } from "../db/garbage.ts";
import {
  createRepository,
  deleteRepository,
  findRepository,
  requireRepository,
  type RepositoryRow,
} from "../db/repositories.ts";
import {
  failQueuedGeneration,
  getGeneration,
  isBuildAlive,
  listDeadBuilds,
  listGenerations,
  listQueuedGenerations,
  startGeneration,
  type GenerationRow,
} from "../db/generations.ts";
import { registerGitRepository } from "../sources/checkout.ts";
import { resolveRepositoryRoot } from "../indexer/discover.ts";
import { dropRepositoryVectors } from "../indexer/embed.ts";

// Workers started by this process, by repository id. Kept on globalThis so a dev-server
// hot reload does not forget a running build. The value is null while one is starting.
const globalForJobs = globalThis as unknown as { wayfinderIndexJobs?: Map<string, ChildProcess | null> };
const running = (globalForJobs.wayfinderIndexJobs ??= new Map());

const START_POLL_MS = 100;
const START_TIMEOUT_MS = 60_000;

const alreadyRunning = () =>
  new WayfinderError("conflict:index_running", "An index build of this repository is already running.");

/** Whether this process has a worker running for the repository (other processes: see the generation row). */
export function isIndexJobRunning(repositoryId: string): boolean {
  return running.has(repositoryId);
}

/** Where a worker for this job writes its output (WAYFINDER_HOME/logs). */
export function workerLogPath(repository: RepositoryRow, generation: { number: number }): string {
  return path.join(env().home, "logs", `index-${repository.id}-${generation.number}.log`);
}

/** Node's arguments for running the CLI as `npm run wayfinder -- …args` does, from the project at `root`. */
export function cliProcessArgs(args: string[], root = process.cwd()): string[] {
  return tsScriptArgs(path.join(root, "lib/cli/main.ts"), args, root);
}

function spawnWorker(rootPath: string, logFile: string): ChildProcess {
  const root = process.cwd();
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.openSync(logFile, "a");
  try {
    // Detached (own process group) and unreferenced: the build outlives this process.
    const child = spawn(process.execPath, cliProcessArgs(["index", rootPath, "--json"], root), {
      cwd: root,
      env: childProcessEnv(),
      detached: true,
      stdio: ["ignore", log, log],
    });
    child.unref();
    return child;
  } finally {
    fs.closeSync(log);
  }
}

function tail(file: string, chars = 4000): string {
  try {
    return fs.readFileSync(file, "utf8").slice(-chars);
  } catch {
    return "";
  }
}

/**
 * Starts a worker for a queued job and waits until it has claimed the job (the build
 * then runs on without us). A worker that exits before claiming fails the job with the
 * reason it printed.
 */
async function launchWorker(repository: RepositoryRow, job: GenerationRow): Promise<void> {
  running.set(repository.id, null);
  const logFile = workerLogPath(repository, job);
  let started: ChildProcess;
  try {
    // A Git source's checkout may not exist yet: the worker finds it by id.
    started = spawnWorker(repository.sourceKind === "git" ? repository.id : repository.rootPath, logFile);
  } catch (error) {
    running.delete(repository.id);
    await failQueuedGeneration(job.id, `The index worker could not start: ${String(error)}`);
    throw error;
  }
  running.set(repository.id, started);
  let exitCode: number | null = null;
  const done = (code: number) => {
    exitCode = code;
    if (running.get(repository.id) === started) running.delete(repository.id);
    if (code !== 0) {
      console.error(`[wayfinder] index worker for ${repository.name} exited with ${code}; log: ${logFile}`);
    }
  };
  started.on("error", () => done(-1));
  started.on("exit", (code) => done(code ?? -1));

  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const row = await getGeneration(job.id);
    if (!row || row.status !== "queued") return;
    if (exitCode !== null) {
      const message = tail(logFile)
        .match(/error: (.+)/)?.[1]
        ?.trim();
      if (message && /already (running|queued)/i.test(message)) throw alreadyRunning();
      const reason = message
        ? `The index build could not start: ${message}`
        : "The index build could not start.";
      await failQueuedGeneration(job.id, reason);
      throw new WayfinderError("unavailable:index_worker", reason, { cause: tail(logFile) });
    }
    await new Promise((resolve) => setTimeout(resolve, START_POLL_MS));
  }
  throw new WayfinderError("unavailable:index_worker", "The index build did not start in time.");
}

/**
 * Queues a build of the repository's index and, in `spawn` mode, starts its worker.
 * Resolves once the job exists (so an immediate poll sees it) and, in spawn mode, its
 * worker has claimed it; rejects with `conflict:index_running` when a build of this
 * repository is already queued or running, here or in any other process.
 */
export async function startIndexJob(
  repository: RepositoryRow,
  options: { resumeOf?: number } = {},
): Promise<GenerationRow> {
  // A worker this process is starting right now; past that the job rows decide. A worker
  // of ours that finished its build but has not exited yet (garbage collection, golden
  // questions) must not block the next build: a push arriving then would be lost.
  if (running.get(repository.id) === null) throw alreadyRunning();
  const job = await startGeneration(repository.id, null, { queued: true, resumeOf: options.resumeOf });
  if (env().WAYFINDER_INDEX_WORKER === "spawn") await launchWorker(repository, job);
  return job;
}

export interface RecoveryReport {
  /** interrupted builds, each with the generation that resumes it (null: could not be resumed) */
  resumed: { repositoryId: string; interrupted: number; resumedAs: number | null; error?: string }[];
  /** queued jobs given a worker (spawn mode only) */
  launched: number;
}

/**
 * After a restart: fails builds whose worker is dead and queues a fresh build of each
 * such repository (`resumeOf` = the interrupted generation). In spawn mode it also
 * starts workers for queued jobs nobody is running (this process queued them and died
 * before its worker started). Safe to run from several processes at once: the job
 * transaction lets one of them resume a build, the others see the conflict.
 */
export async function recoverIndexJobs(options: { launch?: boolean } = {}): Promise<RecoveryReport> {
  const launch = options.launch ?? env().WAYFINDER_INDEX_WORKER === "spawn";
  const report: RecoveryReport = { resumed: [], launched: 0 };
  for (const dead of await listDeadBuilds()) {
    try {
      const job = await startGeneration(dead.repositoryId, null, { queued: true, resumeOf: dead.number });
      report.resumed.push({
        repositoryId: dead.repositoryId,
        interrupted: dead.number,
        resumedAs: job.number,
      });
    } catch (error) {
      if (!isWayfinderError(error) || error.code !== "conflict:index_running") throw error;
      report.resumed.push({
        repositoryId: dead.repositoryId,
        interrupted: dead.number,
        resumedAs: null,
        error: error.message,
      });
    }
  }
  if (launch) {
    for (const job of await listQueuedGenerations(100)) {
      const repository = await findRepository(job.repositoryId);
      if (!repository || running.has(repository.id)) continue;
      try {
        await launchWorker(repository, job);
        report.launched++;
      } catch (error) {
        console.error(`[wayfinder] could not resume indexing ${repository.name}: ${String(error)}`);
      }
    }
  }
  return report;
}

/**
 * Registers a repository — a local folder, or a Git remote and branch — and starts its
 * first build. A folder or remote already registered, or a name another repository
 * uses, is refused with a clear error. A remote on this machine (a bare repository, a
 * file:// URL) obeys WAYFINDER_REPO_ROOTS like a folder.
 */
export async function addRepository(
  input: { path: string; name?: string } | { url: string; branch?: string; name?: string },
  allowedRoots: string[] | null,
): Promise<RepositoryRow> {
  if ("url" in input) {
    const repository = await registerGitRepository(input, (real) => assertAllowedRoot(real, allowedRoots));
    await startIndexJob(repository);
    return repository;
  }
  const root = resolveRepositoryRoot(input.path);
  assertAllowedRoot(root, allowedRoots);
  const existing = await findRepository(root);
  if (existing && existing.rootPath === root) {
    throw new WayfinderError("conflict:repo_path", `${root} is already added as "${existing.name}".`);
  }
  const name = input.name?.trim() || path.basename(root) || "repository";
  const repository = await createRepository({ name, rootPath: root });
  await startIndexJob(repository);
  return repository;
}

/**
 * Removes a repository with its whole index (generations, conversations, vectors).
 * 409 while a build is queued or running: its worker would write into removed rows.
 */
export async function removeRepository(id: string): Promise<void> {
  const repository = await requireRepository(id);
  const running = (await listGenerations(repository.id, 5)).find(
    (g) => g.status === "queued" || (g.status === "building" && isBuildAlive(g, Date.now())),
  );
  if (running)
    throw new WayfinderError(
      "conflict:index_running",
      `${repository.name} is being indexed (generation ${running.number}); remove it when the build ends.`,
    );
  await deleteRepository(repository.id);
  await dropRepositoryVectors(repository.id);
  await collectBlobs();
}

/** Re-indexes a registered repository; 409 (`conflict:index_running`) while a build is queued or runs. */
export async function reindexRepository(id: string): Promise<RepositoryRow> {
  const repository = await requireRepository(id);
  await startIndexJob(repository);
  return repository;
}
