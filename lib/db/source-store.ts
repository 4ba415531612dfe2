/**
 * Where repository content comes from and how it is kept fresh: Git remotes, the
 * commit each generation indexed, poll schedules and their leases. A poll is claimed
 * by moving `nextPollAt` forward in one conditional update (compare-and-set on the
 * value read), so however many web instances and workers look for due polls, each
 * one is made by exactly one of them.
 */
import "server-only";
import { db } from "./client.ts";
import type { GenerationRow } from "./generations.ts";
import type { RepositoryRow } from "./repositories.ts";

export interface SourceRow extends RepositoryRow {
  sourceKind: string;
  gitUrl: string | null;
  gitBranch: string | null;
  pollMinutes: number | null;
  nextPollAt: Date | null;
  lastPolledAt: Date | null;
  pollError: string | null;
  remoteHeadSha: string | null;
}

export async function getSource(repositoryId: string): Promise<SourceRow | null> {
  const client = await db();
  return client.repository.findUnique({ where: { id: repositoryId } });
}

/** Git repositories with an existing url+branch pair (adding the same remote twice is refused). */
export async function findGitSource(url: string, branch: string | null): Promise<SourceRow | null> {
  const client = await db();
  return client.repository.findFirst({ where: { sourceKind: "git", gitUrl: url, gitBranch: branch } });
}

/** Sets (minutes) or clears (null) a repository's poll schedule; the first poll is one interval away. */
export async function setPollSchedule(
  repositoryId: string,
  minutes: number | null,
  now = new Date(),
): Promise<SourceRow> {
  const client = await db();
  return client.repository.update({
    where: { id: repositoryId },
    data: {
      pollMinutes: minutes,
      nextPollAt: minutes === null ? null : new Date(now.getTime() + minutes * 60_000),
      pollError: minutes === null ? null : undefined,
    },
  });
}

/** Git repositories whose poll is due. */
export async function listDuePolls(now: Date, take = 50): Promise<SourceRow[]> {
  const client = await db();
  return client.repository.findMany({
    where: {
      sourceKind: "git",
      pollMinutes: { not: null },
      OR: [{ nextPollAt: null }, { nextPollAt: { lte: now } }],
    },
    orderBy: { nextPollAt: "asc" },
    take,
  });
}

/**
 * Takes the due poll of a repository for this process: moves `nextPollAt` from the
 * value it was read with to one interval after `now`. False when another process
 * moved it first (it polls; this one does not).
 */
export async function claimPoll(source: SourceRow, now: Date): Promise<boolean> {
  if (source.pollMinutes === null) return false;
  const client = await db();
  const { count } = await client.repository.updateMany({
    where: { id: source.id, pollMinutes: source.pollMinutes, nextPollAt: source.nextPollAt },
    data: { nextPollAt: new Date(now.getTime() + source.pollMinutes * 60_000) },
  });
  return count === 1;
}

/** The outcome of a poll: the head seen, or why the remote could not be read. */
export async function recordPoll(
  repositoryId: string,
  outcome: { sha: string; error?: undefined } | { sha?: undefined; error: string },
  now = new Date(),
): Promise<void> {
  const client = await db();
  await client.repository.update({
    where: { id: repositoryId },
    data: {
      lastPolledAt: now,
      pollError: outcome.error?.slice(0, 1000) ?? null,
      ...(outcome.sha ? { remoteHeadSha: outcome.sha } : {}),
    },
  });
}

/** A branch head reported by a push webhook. */
export async function recordRemoteHead(repositoryId: string, sha: string): Promise<void> {
  const client = await db();
  await client.repository.update({ where: { id: repositoryId }, data: { remoteHeadSha: sha } });
}

/**
 * What a build checked out: the generation's commit, and for Git sources the branch
 * (resolved when the remote's default was followed) and the head it saw, which is
 * now the newest known; a push reported after this moment changes it again.
 */
export async function recordCheckout(
  generationId: string,
  checkout: { commitSha: string | null; git?: { repositoryId: string; branch: string } },
): Promise<void> {
  const client = await db();
  await client.indexGeneration.update({
    where: { id: generationId },
    data: { commitSha: checkout.commitSha },
  });
  if (checkout.git && checkout.commitSha) {
    await client.repository.update({
      where: { id: checkout.git.repositoryId },
      data: { gitBranch: checkout.git.branch, remoteHeadSha: checkout.commitSha },
    });
  }
}

/** The newest generation of a repository, whatever its state. */
export async function latestGeneration(repositoryId: string): Promise<GenerationRow | null> {
  const client = await db();
  return client.indexGeneration.findFirst({ where: { repositoryId }, orderBy: { number: "desc" } });
}
