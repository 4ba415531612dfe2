/**
 * Keeping an index in step with its Git remote. Three things ask for a build: a poll
 * that sees the branch head move, a signed push webhook, and the end of a build that
 * finished while a newer head was reported. All three go through `requestBuild`, and
 * the job queue allows one queued or running build per repository (lib/db/generations.ts
 * startGeneration), so a burst of pushes queues one build. A head reported while a
 * build runs is not lost: the build records the head it fetched, and `queueFollowUp`
 * (run after every build) queues one more when the newest known head differs.
 *
 * Polls use `git ls-remote`, which needs no clone, so any web instance or worker can
 * make them; a lease in the database (source-store claimPoll) makes each due poll
 * happen once across all of them. The build fetches the commit itself.
 */
import "server-only";
import { isWayfinderError } from "../errors.ts";
import { env } from "../env.ts";
import { getGeneration } from "../db/generations.ts";
import {
  claimPoll,
  getSource,
  latestGeneration,
  listDuePolls,
  recordPoll,
  type SourceRow,
} from "../db/source-store.ts";
import { startIndexJob } from "./jobs.ts";
import { remoteHead } from "../sources/git.ts";

export type BuildRequestOutcome =
  | { queued: true; generation: number }
  | { queued: false; reason: "up-to-date" | "already-queued" | "building" | "failed-at-head" | "not-git" };

/** The commit the serving generation indexed, if any. */
async function activeCommit(source: SourceRow): Promise<string | null> {
  if (!source.activeGenerationId) return null;
  return (await getGeneration(source.activeGenerationId))?.commitSha ?? null;
}

/**
 * Queues a build when `head` is not what the repository already serves or is building.
 * A head whose last build failed is not retried by itself (a person re-indexes, or the
 * next push moves the head): a broken commit must not rebuild on every poll.
 */
export async function requestBuild(repositoryId: string, head: string | null): Promise<BuildRequestOutcome> {
  const source = await getSource(repositoryId);
  if (!source || source.sourceKind !== "git") return { queued: false, reason: "not-git" };
  if (head && head === (await activeCommit(source))) return { queued: false, reason: "up-to-date" };
  const latest = await latestGeneration(repositoryId);
  if (latest?.status === "queued") return { queued: false, reason: "already-queued" };
  if (head && latest?.status === "failed" && latest.commitSha === head) {
    return { queued: false, reason: "failed-at-head" };
  }
  try {
    const job = await startIndexJob(source);
    return { queued: true, generation: job.number };
  } catch (error) {
    if (isWayfinderError(error) && error.code === "conflict:index_running") {
      const now = await latestGeneration(repositoryId);
      return { queued: false, reason: now?.status === "queued" ? "already-queued" : "building" };
    }
    throw error;
  }
}

/**
 * After a build of a Git source: when a newer head was reported while it ran (a push
 * or poll after its fetch), queue the build that catches up.
 */
export async function queueFollowUp(repositoryId: string): Promise<BuildRequestOutcome | null> {
  const source = await getSource(repositoryId);
  if (!source || source.sourceKind !== "git" || !source.remoteHeadSha) return null;
  if (source.remoteHeadSha === (await activeCommit(source))) return null;
  return requestBuild(repositoryId, source.remoteHeadSha);
}

export interface PollReport {
  repositoryId: string;
  head: string | null;
  error: string | null;
  outcome: BuildRequestOutcome | null;
}

/** Makes every due poll this process wins: read the remote head, record it, queue a build if it moved. */
export async function pollDueRepositories(now = new Date()): Promise<PollReport[]> {
  const reports: PollReport[] = [];
  for (const source of await listDuePolls(now)) {
    if (!source.gitUrl || !(await claimPoll(source, now))) continue;
    try {
      const head = await remoteHead(source.gitUrl, source.gitBranch);
      await recordPoll(source.id, { sha: head.sha }, now);
      reports.push({
        repositoryId: source.id,
        head: head.sha,
        error: null,
        outcome: await requestBuild(source.id, head.sha),
      });
    } catch (error) {
      const message = isWayfinderError(error) ? error.message : String(error);
      await recordPoll(source.id, { error: message }, now).catch(() => undefined);
      reports.push({ repositoryId: source.id, head: null, error: message, outcome: null });
    }
  }
  return reports;
}

export interface SchedulerHandle {
  stop(): void;
}

/**
 * Looks for due polls every WAYFINDER_POLL_TICK_SECONDS (web servers and `wayfinder
 * worker` each run one; the lease keeps them from polling a repository twice).
 */
export function startPollScheduler(log: (line: string) => void = console.log): SchedulerHandle {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      for (const r of await pollDueRepositories()) {
        if (r.error) log(`[wayfinder] poll of ${r.repositoryId} failed: ${r.error}`);
        else if (r.outcome?.queued)
          log(
            `[wayfinder] ${r.repositoryId} moved to ${r.head?.slice(0, 12)}; build ${r.outcome.generation} queued`,
          );
      }
    } catch (error) {
      log(`[wayfinder] polling failed: ${(error as Error).message}`);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), env().WAYFINDER_POLL_TICK_SECONDS * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
