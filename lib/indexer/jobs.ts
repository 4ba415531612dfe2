/**
 * Background index builds for the web app. A request registers a repository or asks
 * for a re-index and is answered as soon as the build has really started (its
 * IndexGeneration row exists); the build itself runs on.
 *
 * Builds run in a worker process (the CLI's `index` command, which calls
 * buildGeneration), not inside the web server: parsing is CPU work that hardly ever
 * yields to the event loop, so an in-process build froze every request, progress
 * polls included, until parsing ended. A worker also keeps a crashing parser away
 * from the server. Progress and failures are persisted by buildGeneration in the
 * IndexGeneration row, so readers poll the database, never the worker. Being the CLI
 * command, the worker also re-checks the golden questions after a successful build.
 */
import "server-only";
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { WayfinderError } from "../errors.ts";
import {
  createRepository,
  findRepository,
  listGenerations,
  requireRepository,
  STALE_BUILD_MS,
  type RepositoryRow,
} from "../db/index-store.ts";
import { resolveRepositoryRoot } from "./discover.ts";

// Workers started by this process, by repository id. Kept on globalThis so a dev-server
// hot reload does not forget a running build and start a second one.
// The value is null while the worker is being started.
const globalForJobs = globalThis as unknown as { wayfinderIndexJobs?: Map<string, ChildProcess | null> };
const running = (globalForJobs.wayfinderIndexJobs ??= new Map());

const START_POLL_MS = 100;
const START_TIMEOUT_MS = 60_000;

const alreadyRunning = () =>
  new WayfinderError("conflict:index_running", "An index build of this repository is already running.");

export function isIndexJobRunning(repositoryId: string): boolean {
  return running.has(repositoryId);
}

/** Number of the newest generation, and whether a live build (fresh heartbeat) holds it. */
async function latestBuild(repositoryId: string): Promise<{ number: number; live: boolean }> {
  const [latest] = await listGenerations(repositoryId, 1);
  if (!latest) return { number: 0, live: false };
  const live = latest.status === "building" && Date.now() - latest.heartbeatAt.getTime() < STALE_BUILD_MS;
  return { number: latest.number, live };
}

function spawnWorker(rootPath: string): ChildProcess {
  const root = process.cwd();
  // The same entry point as `npm run wayfinder -- index`, with the same module conditions.
  return spawn(
    process.execPath,
    [
      path.join(root, "node_modules/tsx/dist/cli.mjs"),
      "--conditions=react-server",
      path.join(root, "lib/cli/main.ts"),
      "index",
      rootPath,
      "--json",
    ],
    { cwd: root, stdio: ["ignore", "ignore", "pipe"] },
  );
}

/**
 * Starts a build of the repository's index in a worker. Resolves once the build's
 * generation exists (so an immediate poll sees it); rejects with
 * `conflict:index_running` when a build of this repository is already running, here
 * or in any other process.
 */
export async function startIndexJob(repository: RepositoryRow): Promise<void> {
  // Checked and claimed before any await: two simultaneous requests cannot both pass.
  if (running.has(repository.id)) throw alreadyRunning();
  running.set(repository.id, null);
  let worker: ChildProcess | null = null;
  try {
    const before = await latestBuild(repository.id);
    if (before.live) throw alreadyRunning();
    const started = spawnWorker(repository.rootPath);
    worker = started;
    running.set(repository.id, started);
    let stderr = "";
    started.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-4000);
    });
    const exited = new Promise<number>((resolve) => {
      started.on("error", () => resolve(-1));
      started.on("exit", (code) => resolve(code ?? -1));
    });
    void exited.then((code) => {
      if (running.get(repository.id) === started) running.delete(repository.id);
      // After the start a failure is stored on the generation (failGeneration); this is for logs.
      if (code !== 0) {
        console.error(
          `[wayfinder] index worker for ${repository.name} exited with ${code}: ${stderr.trim()}`,
        );
      }
    });
    await waitForStart(repository.id, before.number, exited, () => stderr);
  } catch (error) {
    if (worker === null) running.delete(repository.id);
    throw error;
  }
}

async function waitForStart(
  repositoryId: string,
  previousNumber: number,
  exited: Promise<number>,
  stderr: () => string,
): Promise<void> {
  let exitCode: number | null = null;
  void exited.then((code) => {
    exitCode = code;
  });
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if ((await latestBuild(repositoryId)).number > previousNumber) return;
    if (exitCode !== null) {
      const message = stderr()
        .match(/error: (.+)/)?.[1]
        ?.trim();
      if (message && /already running/i.test(message)) throw alreadyRunning();
      throw new WayfinderError(
        "unavailable:index_worker",
        message ? `The index build could not start: ${message}` : "The index build could not start.",
        { cause: stderr() },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, START_POLL_MS));
  }
  throw new WayfinderError("unavailable:index_worker", "The index build did not start in time.");
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
  const repository = await requireRepository(id);
  await startIndexJob(repository);
  return repository;
}
