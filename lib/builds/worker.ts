/**
 * `wayfinder worker`: the long-running indexing worker of scale-out mode
 * (WAYFINDER_INDEX_WORKER=external). Web instances only queue jobs; each worker loops:
 * resume builds whose worker died (recoverIndexJobs), claim the oldest queued job (one
 * atomic queued → building update: two workers never take the same job), build it,
 * re-check the golden questions, repeat; when the queue is empty it sleeps a moment.
 *
 * Stopping (SIGTERM/SIGINT → `stop()`): no new job is claimed; a build in progress
 * stops at its next phase boundary, is failed with an "Interrupted: …" error and queued
 * again (resumeOf) for the next worker, and the loop returns.
 */
import "server-only";
import os from "node:os";
import { WayfinderError } from "../errors.ts";
import {
  claimQueuedGeneration,
  listQueuedGenerations,
  startGeneration,
  type GenerationRow,
} from "../db/generations.ts";
import { findRepository } from "../db/repositories.ts";
import { buildGeneration } from "./build.ts";
import type { BuildStats } from "./types.ts";
import { recoverIndexJobs } from "./jobs.ts";
import { queueFollowUp } from "./refresh.ts";

export interface WorkerOptions {
  /** how long to sleep when the queue is empty */
  pollMs?: number;
  /** return as soon as the queue is empty (scripts, tests) */
  once?: boolean;
  log?: (line: string) => void;
}

export interface WorkerHandle {
  /** resolves when the loop has ended */
  done: Promise<{ built: number; failed: number }>;
  /** asks the loop to end; the current build is interrupted and re-queued */
  stop: (reason?: string) => void;
}

const STOPPED_CODE = "unavailable:worker_stopped";

export function startIndexWorker(options: WorkerOptions = {}): WorkerHandle {
  const pollMs = options.pollMs ?? 1000;
  const log = options.log ?? ((line: string) => console.log(line));
  let stopReason: string | null = null;
  let wake: (() => void) | null = null;
  const stop = (reason = "stopped") => {
    stopReason ??= reason;
    wake?.();
  };
  const sleep = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, pollMs);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

  const runJob = async (job: GenerationRow): Promise<boolean> => {
    const repository = await findRepository(job.repositoryId);
    if (!repository) return false;
    log(`[worker] building ${repository.name} generation ${job.number}`);
    try {
      const stats: BuildStats = await buildGeneration(repository, {
        generation: job,
        afterPhase: () => {
          if (stopReason) {
            throw new WayfinderError(
              STOPPED_CODE,
              `Interrupted: the indexing worker was ${stopReason}; the build is queued again.`,
            );
          }
        },
      });
      log(
        `[worker] ${repository.name} generation ${job.number} ready (${stats.files} files, ${stats.seconds}s)`,
      );
      const golden = await import("../admin/golden.ts").then((m) => m.runGoldenAfterReindex(repository.id));
      if (golden) log(`[worker] ${repository.name} golden questions ${golden.passed}/${golden.total} passed`);
      // A push reported while this build ran gets its own build.
      const followUp = await queueFollowUp(repository.id);
      if (followUp?.queued)
        log(`[worker] ${repository.name} moved during the build; generation ${followUp.generation} queued`);
      return true;
    } catch (error) {
      log(`[worker] ${repository.name} generation ${job.number} failed: ${(error as Error).message}`);
      if (error instanceof WayfinderError && error.code === STOPPED_CODE) {
        // buildGeneration stored the failure; queue the build again for the next worker.
        await startGeneration(repository.id, null, { queued: true, resumeOf: job.number }).catch(
          () => undefined,
        );
      }
      return false;
    }
  };

  const loop = async () => {
    let built = 0;
    let failed = 0;
    log(`[worker] started (pid ${process.pid} on ${os.hostname()})`);
    while (!stopReason) {
      let claimed: GenerationRow | null = null;
      try {
        const recovered = await recoverIndexJobs({ launch: false });
        for (const r of recovered.resumed) {
          log(`[worker] generation ${r.interrupted} was interrupted; queued again as ${r.resumedAs ?? "—"}`);
        }
        for (const job of await listQueuedGenerations()) {
          claimed = await claimQueuedGeneration(job.id, process.pid);
          if (claimed) break;
        }
      } catch (error) {
        // The database may be briefly unreachable; try again after the poll interval.
        log(`[worker] could not read the job queue: ${(error as Error).message}`);
      }
      if (claimed) {
        if (await runJob(claimed)) built++;
        else failed++;
        continue;
      }
      if (options.once) break;
      await sleep();
    }
    log(`[worker] stopped (${built} built, ${failed} failed)`);
    return { built, failed };
  };

  return { done: loop(), stop };
}
