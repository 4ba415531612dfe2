/**
 * Index generations, the builds of a repository's index: starting or claiming a build
 * (one at a time per repository; a dead build is noticed and resumed), its progress and
 * heartbeat, and its end: activated (the repository's `activeGenerationId` flipped in one
 * transaction) or failed. Rows are shared between generations (lib/db/snapshot.ts).
 */
import "server-only";
import { randomUUID } from "node:crypto";
import os from "node:os";
import { WayfinderError } from "../errors.ts";
import { db, type Db } from "./client.ts";
import { isPostgres } from "./dialect.ts";

/** A build whose heartbeat is older than this is considered dead (killed process). */
export const STALE_BUILD_MS = 60_000;

/**
 * Whether a build is still alive: its heartbeat is fresh and, when it ran on this
 * host, its process still exists (a killed worker is noticed at once, not after the
 * heartbeat times out). A worker on another host is judged by its heartbeat alone:
 * its PID means nothing here. Rows from before workerHost existed count as local.
 */
export function isBuildAlive(
  build: { heartbeatAt: Date; workerPid?: number | null; workerHost?: string | null },
  now = Date.now(),
): boolean {
  if (now - build.heartbeatAt.getTime() >= STALE_BUILD_MS) return false;
  const local = !build.workerHost || build.workerHost === os.hostname();
  if (local && build.workerPid && build.workerPid !== process.pid) {
    try {
      process.kill(build.workerPid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    }
  }
  return true;
}

export interface GenerationRow {
  id: string;
  repositoryId: string;
  /** the build's number (failed builds counted): orders row validity ranges */
  number: number;
  /** the generation number people read, given at activation (failed builds have none) */
  serial?: number | null;
  status: string;
  phase: string;
  filesDone: number;
  filesTotal: number;
  startedAt: Date;
  finishedAt: Date | null;
  heartbeatAt: Date;
  workerPid?: number | null;
  workerHost?: string | null;
  /** number of the interrupted generation this build resumes */
  resumeOf?: number | null;
  /** the commit the build indexed, when the source is a git repository */
  commitSha?: string | null;
  error: string | null;
  stats: string;
}

export async function getGeneration(id: string): Promise<GenerationRow | null> {
  const client = await db();
  return client.indexGeneration.findUnique({ where: { id } });
}

export async function listGenerations(repositoryId: string, take = 10): Promise<GenerationRow[]> {
  const client = await db();
  return client.indexGeneration.findMany({ where: { repositoryId }, orderBy: { number: "desc" }, take });
}

const buildConflict = (b: { number: number; phase: string; status: string }) =>
  new WayfinderError(
    "conflict:index_running",
    b.status === "queued"
      ? `An index build of this repository is already queued (generation ${b.number}).`
      : `An index build of this repository is already running (generation ${b.number}, ${b.phase}).`,
  );

/** What a worker writes when it takes a generation: who it is, and a fresh heartbeat. */
function claimData(workerPid: number) {
  const now = new Date();
  return {
    status: "building",
    phase: "discovering",
    workerPid,
    workerHost: os.hostname(),
    startedAt: now,
    heartbeatAt: now,
  };
}

/**
 * Starts a build, or (`queued`) enqueues one for a worker to claim. At most one
 * generation per repository is queued or building at a time: a live build or a
 * queued job refuses the request with `conflict:index_running`, except that a worker
 * starting a build claims the queued job instead of creating another. A build whose
 * worker died (stale heartbeat, or a vanished process on this host) is marked failed
 * first. Two simultaneous starts cannot both win: the generation number is unique
 * per repository, and a start that lost the race re-checks and reports the conflict.
 */
export async function startGeneration(
  repositoryId: string,
  workerPid: number | null,
  options: { queued?: boolean; resumeOf?: number } = {},
): Promise<GenerationRow> {
  if (!options.queued && workerPid === null) throw new Error("A build needs its worker's pid.");
  const client = await db();
  const attempt = () =>
    client.$transaction(async (tx) => {
      await lockRepository(tx as unknown as Db, repositoryId);
      const pending = await tx.indexGeneration.findMany({
        where: { repositoryId, status: { in: ["building", "queued"] } },
        orderBy: { number: "asc" },
      });
      const last = await tx.indexGeneration.findFirst({
        where: { repositoryId },
        orderBy: { number: "desc" },
      });
      const next = (last?.number ?? 0) + 1;
      for (const b of pending) {
        if (b.status === "queued") {
          if (options.queued) throw buildConflict(b);
          const claimed = await tx.indexGeneration.updateMany({
            where: { id: b.id, status: "queued" },
            data: claimData(workerPid!),
          });
          if (claimed.count !== 1) throw buildConflict(b);
          return tx.indexGeneration.findUniqueOrThrow({ where: { id: b.id } });
        }
        if (isBuildAlive(b)) throw buildConflict(b);
        await tx.indexGeneration.updateMany({
          where: { id: b.id, status: "building" },
          data: {
            status: "failed",
            error:
              options.resumeOf === b.number
                ? `Interrupted: the indexing process stopped; resumed as generation ${next}.`
                : "Interrupted: the indexing process stopped.",
            finishedAt: new Date(),
          },
        });
      }
      return tx.indexGeneration.create({
        data: {
          id: randomUUID(),
          repositoryId,
          number: next,
          resumeOf: options.resumeOf ?? null,
          ...(options.queued ? { status: "queued", phase: "queued" } : claimData(workerPid!)),
        },
      });
    });
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (error instanceof WayfinderError) throw error;
      // Lost a race (unique generation number, or a write lock): whoever won now holds it.
      const holder = await client.indexGeneration.findFirst({
        where: { repositoryId, status: { in: ["building", "queued"] } },
        orderBy: { number: "desc" },
      });
      if (holder && (holder.status === "queued" || isBuildAlive(holder))) throw buildConflict(holder);
      if (tries >= 3) throw error;
    }
  }
}

/**
 * Serialises the read-then-write transactions that start builds of one repository.
 * SQLite runs one writing transaction at a time; PostgreSQL (read committed) would
 * let a second start miss the first one's new generation between two reads and
 * create another, so there the repository row is locked first.
 */
async function lockRepository(tx: Db, repositoryId: string): Promise<void> {
  if (!isPostgres()) return;
  await tx.$queryRawUnsafe(`SELECT id FROM "Repository" WHERE id = $1 FOR UPDATE`, repositoryId);
}

/**
 * Claims a queued job for this worker: the one update that moves it from queued to
 * building wins, so two workers never build the same job. Null when another worker
 * (or a build started by hand) took it first.
 */
export async function claimQueuedGeneration(
  generationId: string,
  workerPid: number,
): Promise<GenerationRow | null> {
  const client = await db();
  const claimed = await client.indexGeneration.updateMany({
    where: { id: generationId, status: "queued" },
    data: claimData(workerPid),
  });
  return claimed.count === 1 ? client.indexGeneration.findUnique({ where: { id: generationId } }) : null;
}

/** Queued jobs, oldest first (what `wayfinder worker` claims). */
export async function listQueuedGenerations(take = 20): Promise<GenerationRow[]> {
  const client = await db();
  return client.indexGeneration.findMany({
    where: { status: "queued" },
    orderBy: { startedAt: "asc" },
    take,
  });
}

/** Builds marked building whose worker is gone (stale heartbeat or, on this host, no such process). */
export async function listDeadBuilds(): Promise<GenerationRow[]> {
  const client = await db();
  const building = await client.indexGeneration.findMany({ where: { status: "building" } });
  const now = Date.now();
  return building.filter((b) => !isBuildAlive(b, now));
}

/** Fails a job that never started (its worker could not run); a claimed one is left alone. */
export async function failQueuedGeneration(generationId: string, error: string): Promise<boolean> {
  const client = await db();
  const { count } = await client.indexGeneration.updateMany({
    where: { id: generationId, status: "queued" },
    data: { status: "failed", error: error.slice(0, 2000), finishedAt: new Date() },
  });
  return count === 1;
}

export async function reportProgress(
  generationId: string,
  progress: { phase: string; filesDone?: number; filesTotal?: number },
): Promise<void> {
  const client = await db();
  await client.indexGeneration.update({
    where: { id: generationId },
    data: { ...progress, heartbeatAt: new Date() },
  });
}

/** The number to show for a generation: its serial once activated, else (a build) its build number. */
export function generationNumber(row: Pick<GenerationRow, "number" | "serial">): number {
  return row.serial ?? row.number;
}

/**
 * Atomically makes a finished build the one readers see, and gives it the next
 * generation number people read (`serial`: failed builds never get one, so a
 * repository's first good index is generation 1). Returns that number.
 */
export async function activateGeneration(generationId: string, stats: object): Promise<number> {
  const client = await db();
  return client.$transaction(async (tx) => {
    const gen = await tx.indexGeneration.findUniqueOrThrow({ where: { id: generationId } });
    if (gen.status !== "building") {
      throw new WayfinderError("conflict:generation", `Build ${gen.number} is ${gen.status}, not building.`);
    }
    const last = await tx.indexGeneration.aggregate({
      where: { repositoryId: gen.repositoryId },
      _max: { serial: true },
    });
    const serial = (last._max.serial ?? 0) + 1;
    await tx.indexGeneration.updateMany({
      where: { repositoryId: gen.repositoryId, status: "ready" },
      data: { status: "superseded" },
    });
    await tx.indexGeneration.update({
      where: { id: generationId },
      data: {
        status: "ready",
        phase: "done",
        finishedAt: new Date(),
        heartbeatAt: new Date(),
        serial,
        stats: JSON.stringify({ ...stats, generation: serial, build: gen.number }),
      },
    });
    await tx.repository.update({
      where: { id: gen.repositoryId },
      data: { activeGenerationId: generationId },
    });
    return serial;
  });
}

export async function failGeneration(generationId: string, error: string): Promise<void> {
  const client = await db();
  await client.indexGeneration.updateMany({
    where: { id: generationId, status: "building" },
    data: { status: "failed", error: error.slice(0, 2000), finishedAt: new Date() },
  });
}
