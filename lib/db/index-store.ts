/**
 * Code-index storage: repositories, generations, files, symbols, edges, chunks, the
 * FTS5 lexical index over chunks and the whole-file term counts (FileTerm). Rows are shared between generations (lib/db/snapshot.ts):
 * a build closes the rows of what changed and inserts new ones beside the serving
 * generation, flips `Repository.activeGenerationId` in one transaction, and garbage
 * collection deletes rows no kept generation reads. Every write of a build runs in a
 * transaction that first checks the build is still running, so a build declared dead
 * can never change rows after its successor cleaned up. Readers always pass the
 * generation they are pinned to.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import os from "node:os";
import { WayfinderError } from "../errors.ts";
import type { InValue } from "@libsql/client";
import type { FileClass } from "./file-shapes.ts";
import { db, sqliteConnection, type Db } from "./client.ts";
import { deleteCoChanges } from "./co-change.ts";
import {
  binaryOrder,
  executeRaw,
  ftsDeleteRows,
  ftsDropTable,
  ftsEnsureTable,
  ftsNeedsSync,
  ftsSync,
  hasNul,
  insertHead,
  insertTail,
  isPostgres,
  noIndex,
  param,
  queryRaw,
} from "./dialect.ts";
import { OPEN_GENERATION, snapshotOf, visibleIn, visibleSql, type Snapshot } from "./snapshot.ts";
import { withTempTable } from "./temp-table.ts";
import { repositoryTermSalt, termKey, type FileTermCounts } from "./tokenize.ts";

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
const BATCH = 400;

export interface RepositoryRow {
  id: string;
  name: string;
  rootPath: string;
  activeGenerationId: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** folder | git (lib/sources) */
  sourceKind?: string;
  gitUrl?: string | null;
  gitBranch?: string | null;
  pollMinutes?: number | null;
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

export interface FileInsert {
  path: string;
  language: string;
  kind: "code" | "text";
  hash: string;
  size: number;
  lines: number;
  imports: string;
  parseErrors: number;
  /** JSON FileFacts (lib/indexer/extract/facts.ts); "{}" for text files */
  facts: string;
  /** Bloom filter of the names the file's symbols call or extend (lib/indexer/name-filter.ts) */
  callNames: string;
  /** modification time (ns) that vouches for `hash` on a later build, if any (lib/indexer/discover.ts) */
  mtimeNs: string | null;
  /** vendored | generated | minified | documentation, and why (lib/indexer/file-class.ts); null: the repository's own source */
  fileClass: string | null;
  classReason: string | null;
  /** why a code file was indexed as text only: it timed out, exhausted a parse worker or failed to parse */
  unparsed: string | null;
  /** the file's length in words (the whole-file lexical index's document length) */
  words: number;
}

export interface SymbolInsert {
  fileId: number;
  path: string;
  qualifiedId: string;
  name: string;
  qualifiedName: string;
  kind: string;
  language: string;
  startLine: number;
  endLine: number;
  signature: string;
  docstring: string;
  parentId: string | null;
  exported: boolean;
  calls: string;
  raises: string;
  mutates: string;
  errorStrings: string;
  decorators: string;
  bases: string;
}

export interface EdgeInsert {
  kind: string;
  srcId: string;
  srcPath: string;
  dstId: string | null;
  dstPath: string | null;
  raw: string;
  confidence: number;
  line: number;
}

export interface ChunkInsert {
  fileId: number | null;
  path: string;
  kind: string;
  symbolId: string | null;
  title: string;
  startLine: number;
  endLine: number;
  text: string;
  searchText: string;
  tokens: number;
}

function chunks<T>(items: T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

// ---------------------------------------------------------------- repositories

export async function createRepository(input: {
  name: string;
  rootPath: string;
  /** a Git source: the credential-free remote URL and the branch followed (null: the default branch) */
  git?: { id: string; url: string; branch: string | null };
}): Promise<RepositoryRow> {
  const client = await db();
  const find = () =>
    client.repository.findFirst({ where: { OR: [{ name: input.name }, { rootPath: input.rootPath }] } });
  const existingOrConflict = (existing: RepositoryRow) => {
    if (existing.rootPath === input.rootPath) return existing;
    throw new WayfinderError(
      "conflict:repo_name",
      `A repository named "${input.name}" already exists for ${existing.rootPath}. Choose another name.`,
    );
  };
  const existing = await find();
  if (existing) return existingOrConflict(existing);
  try {
    const { git, ...folder } = input;
    const created = await client.repository.create({
      data: git
        ? { ...folder, id: git.id, sourceKind: "git", gitUrl: git.url, gitBranch: git.branch }
        : { ...folder, id: randomUUID().slice(0, 12) },
    });
    await ftsEnsureTable(client, created.id);
    return created;
  } catch (error) {
    // Two first-time index requests for one folder race here: the loser sees the winner's row.
    const raced = (error as { code?: string }).code === "P2002" ? await find() : null;
    if (raced) return existingOrConflict(raced);
    throw error;
  }
}

export async function listRepositories(): Promise<RepositoryRow[]> {
  const client = await db();
  return client.repository.findMany({ orderBy: { createdAt: "asc" } });
}

/** Finds a repository by id, name or root path. */
/** The repository with this id (not a name or a path), or null. */
export async function getRepository(id: string): Promise<RepositoryRow | null> {
  if (hasNul(id)) return null;
  const client = await db();
  return client.repository.findUnique({ where: { id } });
}

export async function findRepository(ref: string): Promise<RepositoryRow | null> {
  if (hasNul(ref)) return null;
  const client = await db();
  return client.repository.findFirst({ where: { OR: [{ id: ref }, { name: ref }, { rootPath: ref }] } });
}

export async function requireRepository(ref: string): Promise<RepositoryRow> {
  const repo = await findRepository(ref);
  if (!repo) throw new WayfinderError("not_found:repository", `No indexed repository "${ref}".`);
  return repo;
}

export async function deleteRepository(id: string): Promise<void> {
  const client = await db();
  const generations = await client.indexGeneration.findMany({
    where: { repositoryId: id },
    select: { id: true },
  });
  await ftsDropTable(client, id);
  await deleteFileTerms(client, id, "1 = 1");
  await client.termAssociations.deleteMany({ where: { repositoryId: id } });
  for (const table of RANGED_TABLES) {
    await client.$executeRawUnsafe(
      `DELETE FROM "${table}" WHERE "repositoryId" = ${isPostgres() ? "$1" : "?"}`,
      id,
    );
  }
  await client.finding.deleteMany({ where: { generationId: { in: generations.map((g) => g.id) } } });
  await deleteCoChanges(id);
  await client.repository.delete({ where: { id } });
}

// ----------------------------------------------------------------- generations

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

/** The index tables whose rows carry a generation range (lib/db/snapshot.ts). */
const RANGED_TABLES = ["Chunk", "Symbol", "Edge", "File", "WikiPage"] as const;

export interface GarbageReport {
  /** generations whose rows are no longer kept (failed or dead builds, old superseded ones) */
  generations: string[];
  /** chunks deleted, whose vectors can go too */
  chunkIds: number[];
}

/**
 * Deletes rows nobody should read any more: those of failed or dead builds (and the
 * rows such a build had closed are current again), and rows that no kept generation
 * reads — kept are the ready one and the most recent superseded one (so questions
 * that started just before a flip can finish on the generation they were pinned to).
 */
export async function collectGarbage(repositoryId: string): Promise<GarbageReport> {
  const client = await db();
  const generations = await client.indexGeneration.findMany({
    where: { repositoryId },
    orderBy: { number: "desc" },
  });
  const now = Date.now();
  const doomed: string[] = [];
  const kept: number[] = [];
  let keptSuperseded = 0;
  for (const g of generations) {
    if (g.status === "queued") continue;
    if (g.status === "ready") kept.push(g.number);
    if (g.status === "ready" || (g.status === "building" && isBuildAlive(g, now))) continue;
    if (g.status === "superseded" && keptSuperseded++ < 1) {
      kept.push(g.number);
      continue;
    }
    doomed.push(g.id);
  }
  for (const id of doomed) {
    // A failed build keeps the error it failed with; only a dead build gets this one.
    await client.indexGeneration.updateMany({
      where: { id, status: "building" },
      data: { status: "failed", error: "Interrupted: the indexing process stopped.", finishedAt: new Date() },
    });
    await client.indexGeneration.updateMany({
      where: { id, status: "superseded" },
      data: { status: "deleted" },
    });
  }
  const chunkIds = await discardFailedBuilds(repositoryId);
  if (kept.length > 0) {
    // Rows closed at or before the oldest kept generation belong to no kept one.
    chunkIds.push(
      ...(await deleteRangedRows(client, repositoryId, `"toGeneration" <= ?`, Math.min(...kept))),
    );
    await deleteUnreadAssociations(client, repositoryId, Math.min(...kept));
  }
  if (doomed.length > 0) await client.finding.deleteMany({ where: { generationId: { in: doomed } } });
  return { generations: doomed, chunkIds };
}

/**
 * Undoes what failed builds wrote that is still there: deletes the rows they
 * inserted and makes current again the rows they closed. Only builds newer than the
 * serving generation can have left any (each build starts by calling this). A build
 * whose rows are discarded is no longer `building`, so its own writes are refused from
 * then on (withBuild). Returns the ids of the deleted chunks.
 */
export async function discardFailedBuilds(repositoryId: string): Promise<number[]> {
  const client = await db();
  const repository = await client.repository.findUnique({
    where: { id: repositoryId },
    select: { activeGenerationId: true },
  });
  const active = repository?.activeGenerationId
    ? await client.indexGeneration.findUnique({ where: { id: repository.activeGenerationId } })
    : null;
  const failed = await client.indexGeneration.findMany({
    where: { repositoryId, status: "failed", number: { gt: active?.number ?? 0 } },
    select: { number: true },
  });
  const chunkIds: number[] = [];
  for (const { number } of failed) {
    chunkIds.push(...(await deleteRangedRows(client, repositoryId, `"fromGeneration" = ?`, number)));
    await client.termAssociations.deleteMany({ where: { repositoryId, generation: number } });
    for (const table of RANGED_TABLES) {
      await executeRaw(
        client,
        `UPDATE "${table}" SET "toGeneration" = ? WHERE "repositoryId" = ? AND "toGeneration" = ?`,
        OPEN_GENERATION,
        repositoryId,
        number,
      );
    }
  }
  return chunkIds;
}

/**
 * Deletes the term associations no kept generation reads: a generation reads the newest
 * learned at or before it, so the oldest kept one's row and all newer rows stay.
 */
async function deleteUnreadAssociations(client: Db, repositoryId: string, oldestKept: number): Promise<void> {
  const read = await client.termAssociations.findFirst({
    where: { repositoryId, generation: { lte: oldestKept } },
    orderBy: { generation: "desc" },
    select: { generation: true },
  });
  if (read) {
    await client.termAssociations.deleteMany({
      where: { repositoryId, generation: { lt: read.generation } },
    });
  }
}

/** Deletes a repository's rows matching `condition` in every ranged table (chunks from FTS first); returns the chunk ids. */
async function deleteRangedRows(
  client: Db,
  repositoryId: string,
  condition: string,
  ...params: unknown[]
): Promise<number[]> {
  const ids = await queryRaw<{ id: number }[]>(
    client,
    `SELECT id FROM "Chunk" WHERE "repositoryId" = ? AND ${condition}`,
    repositoryId,
    ...params,
  );
  if (ids.length > 0) await ftsDeleteRows(client, repositoryId, condition, ...params);
  await deleteFileTerms(client, repositoryId, condition, ...params);
  for (const table of RANGED_TABLES) {
    await executeRaw(
      client,
      `DELETE FROM "${table}" WHERE "repositoryId" = ? AND ${condition}`,
      repositoryId,
      ...params,
    );
  }
  return ids.map((r) => Number(r.id));
}

// ------------------------------------------------------------------- writing

/**
 * The rows a build may close or update: current, and from before it (parameters: the
 * open generation, the build's number). Written so that a condition on a path or slug
 * picks the index, not the range scan of every current row of the repository.
 */
export function openRows(alias?: string): string {
  const a = alias ? `${alias}.` : "";
  return `${noIndex(`${a}"toGeneration"`)} = ? AND ${noIndex(`${a}"fromGeneration"`)} < ?`;
}

/**
 * Runs a build's writes in one transaction that first checks the generation is still
 * building (on PostgreSQL locking its row, which a competing start or a failure must
 * update): a build that was declared dead and replaced cannot change rows after its
 * successor discarded its work (discardFailedBuilds), whatever it was still doing.
 */
export async function withBuild<T>(
  generationId: string,
  run: (tx: Db, snapshot: Snapshot) => Promise<T>,
): Promise<T> {
  // SQLite answers synchronously, so a build's chain of queries never leaves the
  // microtask queue: let timers (the heartbeat above all) run between its writes.
  await new Promise((resolve) => setImmediate(resolve));
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  return client.$transaction(
    async (tx) => {
      const rows = await (tx as unknown as Db).$queryRawUnsafe<{ status: string }[]>(
        isPostgres()
          ? `SELECT status FROM "IndexGeneration" WHERE id = $1 FOR UPDATE`
          : `SELECT status FROM "IndexGeneration" WHERE id = ?`,
        generationId,
      );
      if (rows[0]?.status !== "building") {
        throw new WayfinderError(
          "conflict:generation",
          `Generation ${snapshot.number} is no longer building (${rows[0]?.status ?? "deleted"}); its writes are refused.`,
        );
      }
      return run(tx as unknown as Db, snapshot);
    },
    { timeout: 30 * 60_000, maxWait: 60_000 },
  );
}

/**
 * Multi-row INSERT through Prisma's raw API. Several times faster than createMany for
 * index-sized batches (createMany pays per-row query-building costs we do not need).
 * Inside a build's transaction (`inBuild`) on SQLite the statements go straight to the
 * connection the transaction runs on: Prisma's raw pipeline copies every parameter
 * through JSON, which for file texts was most of a build's garbage and a good part of
 * its time.
 */
export async function bulkInsert<T extends Record<string, unknown>>(
  client: Db,
  table: string,
  columns: (keyof T & string)[],
  rows: T[],
  options: { orIgnore?: boolean; returning?: string; inBuild?: boolean } = {},
): Promise<Record<string, unknown>[]> {
  const direct = options.inBuild ? sqliteConnection() : null;
  const out: Record<string, unknown>[] = [];
  // SQLite allows 32766 bound parameters per statement (PostgreSQL 65535); stay well below.
  const perBatch = Math.max(1, Math.floor(8000 / columns.length));
  const ignore = options.orIgnore ?? false;
  const head = insertHead(table, columns, ignore);
  const tail = insertTail(ignore);
  const postgres = isPostgres();
  const tuple = `(${columns.map(() => "?").join(", ")})`;
  for (const batch of chunks(rows, perBatch)) {
    // PostgreSQL numbers its placeholders; written directly, as each batch is a new statement.
    const values = postgres
      ? batch
          .map((_, i) => `(${columns.map((_c, j) => `$${i * columns.length + j + 1}`).join(", ")})`)
          .join(", ")
      : batch.map(() => tuple).join(", ");
    const sql = head + values + tail;
    const params = batch.flatMap((r) => columns.map((c) => param(r[c])));
    if (direct) {
      const result = await direct.execute({
        sql: options.returning ? `${sql} RETURNING ${options.returning}` : sql,
        args: params as InValue[],
      });
      if (options.returning) for (const row of result.rows) out.push({ ...row });
      continue;
    }
    if (options.returning) {
      out.push(
        ...(await client.$queryRawUnsafe<Record<string, unknown>[]>(
          `${sql} RETURNING ${options.returning}`,
          ...params,
        )),
      );
    } else {
      await client.$executeRawUnsafe(sql, ...params);
    }
  }
  return out;
}

/** Columns every ranged row starts with: its repository and the generation that wrote it. */
function rangeColumns(s: Snapshot) {
  return { repositoryId: s.repositoryId, fromGeneration: s.number };
}
const RANGE_COLUMNS = ["repositoryId", "fromGeneration"] as const;

/** Inserts rows of the building generation (`s`) into a ranged table, in a build's transaction. */
async function insertRanged<T extends object>(
  tx: Db,
  s: Snapshot,
  table: (typeof RANGED_TABLES)[number],
  columns: readonly (keyof T & string)[],
  rows: T[],
  returning?: string,
): Promise<Record<string, unknown>[]> {
  return bulkInsert<Record<string, unknown>>(
    tx,
    table,
    [...RANGE_COLUMNS, ...columns],
    rows.map((r) => ({ ...r, ...rangeColumns(s) })),
    { inBuild: true, returning },
  );
}

export async function upsertBlobs(client: Db, blobs: { hash: string; content: string }[]): Promise<void> {
  await bulkInsert(client, "Blob", ["hash", "content"], blobs, { orIgnore: true, inBuild: true });
}

const FILE_COLUMNS = [
  "path",
  "language",
  "kind",
  "hash",
  "size",
  "lines",
  "imports",
  "parseErrors",
  "facts",
  "callNames",
  "mtimeNs",
  "fileClass",
  "classReason",
  "unparsed",
  "words",
] as const;

async function insertFileRows(client: Db, s: Snapshot, files: FileInsert[]): Promise<Map<string, number>> {
  const returned = await insertRanged(client, s, "File", FILE_COLUMNS, files, "id, path");
  return new Map(returned.map((r) => [String(r.path), Number(r.id)]));
}

const SYMBOL_COLUMNS = [
  "fileId",
  "path",
  "qualifiedId",
  "name",
  "qualifiedName",
  "kind",
  "language",
  "startLine",
  "endLine",
  "signature",
  "docstring",
  "parentId",
  "exported",
  "calls",
  "raises",
  "mutates",
  "errorStrings",
  "decorators",
  "bases",
] as const;

const EDGE_COLUMNS = ["kind", "srcId", "srcPath", "dstId", "dstPath", "raw", "confidence", "line"] as const;

const CHUNK_COLUMNS = [
  "fileId",
  "path",
  "kind",
  "symbolId",
  "title",
  "startLine",
  "endLine",
  "text",
  "searchText",
  "tokens",
] as const;

/** Inserts chunk rows of a snapshot and indexes them for full-text search; returns their ids in order. */
export async function insertChunkRows(client: Db, s: Snapshot, rows: ChunkInsert[]): Promise<number[]> {
  const returned = await insertRanged(client, s, "Chunk", CHUNK_COLUMNS, rows, "id");
  const ids = returned.map((r) => Number(r.id));
  // A loop, not Math.min(...ids): spreading 100k+ ids overflows the call stack on big repositories.
  const fromId = ids.reduce<number | null>((min, id) => (min === null || id < min ? id : min), null);
  if (ftsNeedsSync() && fromId !== null) {
    await ftsEnsureTable(client, s.repositoryId);
    await ftsSync(client, s.repositoryId, fromId);
  }
  return ids;
}

export interface ParsedFileRows {
  file: FileInsert;
  /** the file's text, stored once per distinct content (Blob) */
  content: string;
  symbols: Omit<SymbolInsert, "fileId">[];
  chunks: Omit<ChunkInsert, "fileId">[];
  /** the words of the file's path and text with their counts (the whole-file lexical index) */
  terms: FileTermCounts;
}

/**
 * Stores a batch of parsed files in the building generation: their text, File,
 * Symbol, Chunk (with FTS entries) and FileTerm rows, in one transaction, closing first the
 * rows of the files they replace (`replaced`: paths the previous generation had).
 */
export async function insertParsedFiles(
  generationId: string,
  batch: ParsedFileRows[],
  replaced: string[] = [],
): Promise<void> {
  if (batch.length === 0) return;
  await withBuild(generationId, async (tx, s) => {
    await closeFileRowsIn(tx, s, replaced);
    await upsertBlobs(
      tx,
      batch.map((p) => ({ hash: p.file.hash, content: p.content })),
    );
    const ids = await insertFileRows(
      tx,
      s,
      batch.map((p) => p.file),
    );
    const symbols: SymbolInsert[] = [];
    const chunkRows: ChunkInsert[] = [];
    for (const p of batch) {
      const fileId = ids.get(p.file.path) as number;
      for (const sym of p.symbols) symbols.push({ ...sym, fileId });
      for (const c of p.chunks) chunkRows.push({ ...c, fileId });
    }
    await insertRanged(tx, s, "Symbol", SYMBOL_COLUMNS, symbols);
    await insertChunkRows(tx, s, chunkRows);
    await insertFileTerms(
      tx,
      s,
      batch.map((p) => ({ fileId: ids.get(p.file.path) as number, counts: p.terms })),
    );
  });
}

/**
 * The FileTerm rows of newly inserted file rows: each word's key (salted with the
 * repository) and count. Words of one file that share a key are counted together.
 */
async function insertFileTerms(
  tx: Db,
  s: Snapshot,
  files: { fileId: number; counts: FileTermCounts }[],
): Promise<void> {
  const salt = repositoryTermSalt(s.repositoryId);
  const rows: { fileId: number; term: number; count: number }[] = [];
  for (const { fileId, counts } of files) {
    const byKey = new Map<number, number>();
    counts.terms.forEach((term, i) => {
      const key = termKey(term, salt);
      byKey.set(key, (byKey.get(key) ?? 0) + (counts.counts[i] as number));
    });
    for (const [term, count] of byKey) rows.push({ fileId, term, count });
  }
  await bulkInsert(tx, "FileTerm", ["fileId", "term", "count"], rows, { inBuild: true });
}

/** Deletes the FileTerm rows of a repository's file rows matching `condition` (SQL on "File"), before those go. */
async function deleteFileTerms(
  client: Db,
  repositoryId: string,
  condition: string,
  ...params: unknown[]
): Promise<void> {
  await executeRaw(
    client,
    `DELETE FROM "FileTerm" WHERE "fileId" IN (SELECT id FROM "File" WHERE "repositoryId" = ? AND (${condition}))`,
    repositoryId,
    ...params,
  );
}

/** Test and tooling entry: chunk rows of a generation (what builds and the wiki store write). */
export async function insertChunks(generationId: string, rows: ChunkInsert[]): Promise<number[]> {
  return withBuild(generationId, (tx, s) => insertChunkRows(tx, s, rows));
}

/**
 * Closes every current row of the repository in the building generation: a build
 * that reuses nothing (the first, or after an index format change) starts empty.
 */
export async function closeAllRows(generationId: string): Promise<void> {
  await withBuild(generationId, async (tx, s) => {
    for (const table of RANGED_TABLES) {
      await executeRaw(
        tx,
        `UPDATE "${table}" SET "toGeneration" = ?
          WHERE "repositoryId" = ? AND "toGeneration" = ? AND "fromGeneration" < ?`,
        s.number,
        s.repositoryId,
        OPEN_GENERATION,
        s.number,
      );
    }
  });
}

/**
 * Closes the File, Symbol and Chunk rows of changed and removed files in the building
 * generation (wiki chunks and edges are replaced by their own phases).
 */
export async function closeFileRows(generationId: string, paths: string[]): Promise<void> {
  if (paths.length === 0) return;
  await withBuild(generationId, (tx, s) => closeFileRowsIn(tx, s, paths));
}

async function closeFileRowsIn(tx: Db, s: Snapshot, paths: string[]): Promise<void> {
  if (paths.length === 0) return;
  await withTempTable(tx, "closed_paths", paths, async (closed) => {
    for (const table of ["File", "Symbol", "Chunk"] as const) {
      // Found by path (its index), not among every current row of the repository.
      await executeRaw(
        tx,
        `UPDATE "${table}" SET "toGeneration" = ?
          WHERE "repositoryId" = ? AND ${openRows()}
            AND path IN (SELECT value FROM ${closed})${table === "Chunk" ? ` AND kind != 'wiki'` : ""}`,
        s.number,
        s.repositoryId,
        OPEN_GENERATION,
        s.number,
      );
    }
  });
}

/** Which current edges an edge replacement covers (see replaceEdges). */
export type EdgeScope =
  | { kind: "fromPaths"; paths: string[] }
  | { kind: "callsAndBases"; sourceIds: string[] }
  | { kind: "imports"; paths: string[] };

function edgeKey(e: EdgeInsert): string {
  return `${e.kind}\u0000${e.srcId}\u0000${e.srcPath}\u0000${e.dstId ?? ""}\u0000${e.dstPath ?? ""}\u0000${e.raw}\u0000${Number(e.confidence)}\u0000${Number(e.line)}`;
}

/**
 * Makes the building generation's edges in `scope` equal to `edges`: current edges in
 * the scope that are not among them are closed, new ones inserted, identical ones left
 * shared with the previous generation. Returns how many were closed and inserted.
 */
export async function replaceEdges(
  generationId: string,
  scope: EdgeScope,
  edges: EdgeInsert[],
): Promise<{ closed: number; inserted: number }> {
  const values = scope.kind === "callsAndBases" ? scope.sourceIds : scope.paths;
  if (values.length === 0 && edges.length === 0) return { closed: 0, inserted: 0 };
  return withBuild(generationId, (tx, s) =>
    withTempTable(tx, "edge_scope", values, async (table) => {
      const visible = visibleSql(s);
      const condition =
        scope.kind === "fromPaths"
          ? `"srcPath" IN (SELECT value FROM ${table})`
          : scope.kind === "imports"
            ? `kind = 'imports' AND "srcPath" IN (SELECT value FROM ${table})`
            : `kind IN ('calls', 'inherits') AND "srcId" IN (SELECT value FROM ${table})`;
      const current = await queryRaw<(EdgeInsert & { id: number })[]>(
        tx,
        `SELECT id, kind, "srcId", "srcPath", "dstId", "dstPath", raw, confidence, line FROM "Edge"
          WHERE ${visible.sql} AND ${condition}`,
        ...visible.params,
      );
      const unmatched = new Map<string, number[]>();
      for (const e of current) {
        const key = edgeKey(e);
        const list = unmatched.get(key);
        if (list) list.push(Number(e.id));
        else unmatched.set(key, [Number(e.id)]);
      }
      const added: EdgeInsert[] = [];
      for (const e of edges) {
        const list = unmatched.get(edgeKey(e));
        if (list && list.length > 0) list.pop();
        else added.push(e);
      }
      const closedIds = [...unmatched.values()].flat();
      await closeRowsById(tx, s, "Edge", closedIds);
      await insertRanged(tx, s, "Edge", EDGE_COLUMNS, added);
      return { closed: closedIds.length, inserted: added.length };
    }),
  );
}

/** Inserts edges of the building generation (a build that starts empty writes them all at once). */
export async function insertEdges(generationId: string, edges: EdgeInsert[]): Promise<void> {
  if (edges.length === 0) return;
  await withBuild(generationId, (tx, s) => insertRanged(tx, s, "Edge", EDGE_COLUMNS, edges));
}

/** Closes rows by id: rows the building generation wrote itself are deleted instead (nobody else reads them). */
async function closeRowsById(tx: Db, s: Snapshot, table: (typeof RANGED_TABLES)[number], ids: number[]) {
  for (const batch of chunks(ids, 500)) {
    const list = batch.map(() => "?").join(",");
    if (table === "Chunk")
      await ftsDeleteRows(tx, s.repositoryId, `"fromGeneration" = ? AND id IN (${list})`, s.number, ...batch);
    await executeRaw(
      tx,
      `DELETE FROM "${table}" WHERE "fromGeneration" = ? AND id IN (${list})`,
      s.number,
      ...batch,
    );
    await executeRaw(
      tx,
      `UPDATE "${table}" SET "toGeneration" = ? WHERE id IN (${list})`,
      s.number,
      ...batch,
    );
  }
}

/** The classes whose files' edges count in no fan-in or fan-out (lib/indexer/file-class.ts). */
const THIRD_PARTY_CLASSES = `('vendored', 'generated', 'minified')`;

/**
 * A condition on an edge (alias `e` unless given) that both its ends lie outside
 * vendored, generated and minified files, given the SQL that selects the files' rows
 * (`visibleSql` of a snapshot, unaliased).
 */
export function ownEdge(
  files: { sql: string; params: readonly unknown[] },
  alias = "e",
): { sql: string; params: unknown[] } {
  const thirdParty = `SELECT path FROM "File" WHERE ${files.sql} AND "fileClass" IN ${THIRD_PARTY_CLASSES}`;
  const a = alias ? `${alias}.` : "";
  return {
    sql: `${a}"srcPath" NOT IN (${thirdParty}) AND ${a}"dstPath" NOT IN (${thirdParty})`,
    params: [...files.params, ...files.params],
  };
}

/**
 * Fan-in / fan-out of the building generation's symbols from its call edges. Calls into
 * or out of vendored, generated and minified files are not counted: a function that
 * calls into a vendored library is no hub of the repository, and vendored code's own
 * calls are not the repository's. A build that started empty counts them all in place.
 * Otherwise only symbols at either end of a call edge the build closed or inserted,
 * symbols it inserted, and symbols calling or called from a file whose class changed
 * can change: rows it inserted are updated in place, a shared row whose counts changed
 * is closed and continues as a new row (the previous generation keeps reading the old
 * counts).
 */
export async function updateFanCounts(generationId: string, options: { full: boolean }): Promise<void> {
  await withBuild(generationId, async (tx, s) => {
    if (options.full) {
      await updateAllFanCounts(tx, s);
      return;
    }
    const visible = visibleSql(s);
    // One branch per index: the build's rows are found through (repository, from/to generation).
    const edgeEnds = ["fromGeneration", "toGeneration"].flatMap((range) =>
      ["srcId", "dstId"].map(
        (end) =>
          `SELECT "${end}" AS id FROM "Edge" WHERE "repositoryId" = ? AND "${range}" = ? AND kind = 'calls' AND "${end}" IS NOT NULL`,
      ),
    );
    // Files whose class this build changed: the counts of their callers and callees move
    // although none of the edges between them did.
    const reclassed = `SELECT n.path FROM "File" n JOIN "File" o ON o."repositoryId" = n."repositoryId" AND o.path = n.path AND o."toGeneration" = ?
       WHERE n."repositoryId" = ? AND n."fromGeneration" = ? AND COALESCE(n."fileClass", '') != COALESCE(o."fileClass", '')`;
    const reclassedParams = [s.number, s.repositoryId, s.number];
    const acrossReclassed = `SELECT e."srcId" AS id FROM "Edge" e WHERE ${visibleSql(s, "e").sql} AND e.kind = 'calls' AND e."dstPath" IN (${reclassed})
       UNION SELECT e."dstId" AS id FROM "Edge" e WHERE ${visibleSql(s, "e").sql} AND e.kind = 'calls' AND e."dstId" IS NOT NULL AND e."srcPath" IN (${reclassed})`;
    const touched = await queryRaw<{ id: string }[]>(
      tx,
      `${edgeEnds.join(" UNION ")}
       UNION SELECT "qualifiedId" AS id FROM "Symbol" WHERE "repositoryId" = ? AND "fromGeneration" = ?
       UNION ${acrossReclassed}`,
      ...Array.from({ length: 5 }, () => [s.repositoryId, s.number]).flat(),
      ...visible.params,
      ...reclassedParams,
      ...visible.params,
      ...reclassedParams,
    );
    const own = ownEdge(visible);
    const ids = touched.map((r) => r.id);
    for (const batch of chunks(ids, 500)) {
      const list = batch.map(() => "?").join(",");
      const counts = await queryRaw<
        {
          id: string;
          symbolId: number;
          fromGeneration: number;
          fanIn: number;
          fanOut: number;
          newIn: number;
          newOut: number;
        }[]
      >(
        tx,
        `SELECT sy."qualifiedId" AS id, sy.id AS "symbolId", sy."fromGeneration", sy."fanIn", sy."fanOut",
                (SELECT count(DISTINCT e."srcId") FROM "Edge" e WHERE ${visibleSql(s, "e").sql} AND e.kind = 'calls' AND e."dstId" = sy."qualifiedId" AND ${own.sql}) AS "newIn",
                (SELECT count(DISTINCT e."dstId") FROM "Edge" e WHERE ${visibleSql(s, "e").sql} AND e.kind = 'calls' AND e."srcId" = sy."qualifiedId" AND ${own.sql}) AS "newOut"
           FROM "Symbol" sy WHERE ${visibleSql(s, "sy").sql} AND sy."qualifiedId" IN (${list})`,
        ...visible.params,
        ...own.params,
        ...visible.params,
        ...own.params,
        ...visible.params,
        ...batch,
      );
      for (const c of counts) {
        const [fanIn, fanOut] = [Number(c.newIn), Number(c.newOut)];
        if (fanIn === Number(c.fanIn) && fanOut === Number(c.fanOut)) continue;
        if (Number(c.fromGeneration) === s.number) {
          await executeRaw(
            tx,
            `UPDATE "Symbol" SET "fanIn" = ?, "fanOut" = ? WHERE id = ?`,
            fanIn,
            fanOut,
            c.symbolId,
          );
          continue;
        }
        const columns = SYMBOL_COLUMNS.map((col) => `"${col}"`).join(", ");
        await executeRaw(
          tx,
          `INSERT INTO "Symbol" ("repositoryId", "fromGeneration", ${columns}, "fanIn", "fanOut")
           SELECT "repositoryId", ?, ${columns}, ?, ? FROM "Symbol" WHERE id = ?`,
          s.number,
          fanIn,
          fanOut,
          c.symbolId,
        );
        await executeRaw(tx, `UPDATE "Symbol" SET "toGeneration" = ? WHERE id = ?`, s.number, c.symbolId);
      }
    }
  });
}

async function updateAllFanCounts(client: Db, s: Snapshot): Promise<void> {
  // Every file of a build that started empty is its own: the classified ones are found among them.
  const files = { sql: `"repositoryId" = ? AND "fromGeneration" = ?`, params: [s.repositoryId, s.number] };
  const [classified] = await queryRaw<{ n: number }[]>(
    client,
    `SELECT count(*) AS n FROM "File" WHERE ${files.sql} AND "fileClass" IN ${THIRD_PARTY_CLASSES}`,
    ...files.params,
  );
  // A repository without third-party files (most) counts every edge, without the check per edge.
  const own = Number(classified?.n ?? 0) > 0 ? ownEdge(files) : { sql: "1 = 1", params: [] };
  if (isPostgres()) {
    // The correlated form below is at the planner's mercy on PostgreSQL (one plan used
    // the dstId index for srcId lookups: 20 s on xarray); grouped joins take 0.2 s, once
    // the planner knows how many rows the build just wrote (else a nested loop: 110 s).
    await client.$executeRawUnsafe(`ANALYZE "Symbol", "Edge"`);
    await executeRaw(
      client,
      `UPDATE "Symbol" s SET "fanOut" = f.fan_out, "fanIn" = f.fan_in
         FROM (SELECT t.id, COALESCE(o.n, 0) AS fan_out, COALESCE(i.n, 0) AS fan_in FROM "Symbol" t
                 LEFT JOIN (SELECT e."srcId" AS id, count(DISTINCT e."dstId") AS n FROM "Edge" e
                             WHERE e."repositoryId" = ? AND e."fromGeneration" = ? AND e.kind = 'calls' AND ${own.sql} GROUP BY e."srcId") o ON o.id = t."qualifiedId"
                 LEFT JOIN (SELECT e."dstId" AS id, count(DISTINCT e."srcId") AS n FROM "Edge" e
                             WHERE e."repositoryId" = ? AND e."fromGeneration" = ? AND e.kind = 'calls' AND ${own.sql} GROUP BY e."dstId") i ON i.id = t."qualifiedId"
                WHERE t."repositoryId" = ? AND t."fromGeneration" = ?) f
        WHERE s.id = f.id`,
      s.repositoryId,
      s.number,
      ...own.params,
      s.repositoryId,
      s.number,
      ...own.params,
      s.repositoryId,
      s.number,
    );
    return;
  }
  await executeRaw(
    client,
    `UPDATE "Symbol" SET
       "fanOut" = (SELECT count(DISTINCT e."dstId") FROM "Edge" e
                   WHERE e."repositoryId" = "Symbol"."repositoryId" AND e."fromGeneration" = "Symbol"."fromGeneration"
                     AND e.kind = 'calls' AND e."srcId" = "Symbol"."qualifiedId" AND ${own.sql}),
       "fanIn"  = (SELECT count(DISTINCT e."srcId") FROM "Edge" e
                   WHERE e."repositoryId" = "Symbol"."repositoryId" AND e."fromGeneration" = "Symbol"."fromGeneration"
                     AND e.kind = 'calls' AND e."dstId" = "Symbol"."qualifiedId" AND ${own.sql})
     WHERE "repositoryId" = ? AND "fromGeneration" = ?`,
    ...own.params,
    ...own.params,
    s.repositoryId,
    s.number,
  );
}

// ------------------------------------------------------------------- reading

/**
 * A read of the index build (never of the web app): on SQLite straight from the
 * connection, as for bulk inserts — Prisma's raw pipeline copies every row through
 * JSON, which for a repository's calls, symbols and chunk texts was a large share of a
 * build's time and garbage. Builds run their reads between their own transactions, so
 * nothing else runs on the connection meanwhile. PostgreSQL goes through Prisma.
 */
async function buildRead<T>(sql: string, ...params: unknown[]): Promise<T[]> {
  const client = await db();
  const direct = sqliteConnection();
  if (!direct) return queryRaw<T[]>(client, sql, ...params);
  const result = await direct.execute({ sql, args: params.map(param) as InValue[] });
  const { columns } = result;
  return result.rows.map((row) => {
    const out: Record<string, unknown> = {};
    columns.forEach((column, i) => (out[column] = row[i]));
    return out as T;
  });
}

/** A symbol as call resolution reads it (JSON arrays as stored). */
export interface ResolverSymbolRow {
  id: number;
  qualifiedId: string;
  path: string;
  name: string;
  qualifiedName: string;
  kind: string;
  parentId: string | null;
  language: string;
  bases: string;
  startLine: number;
}

const RESOLVER_SYMBOL_COLUMNS = `id, "qualifiedId", path, name, "qualifiedName", kind, "parentId", language, bases, "startLine"`;

/** Every symbol of a generation as resolution reads it, without calls (id order, read a page at a time). */
export async function resolverSymbols(generationId: string): Promise<ResolverSymbolRow[]> {
  const snapshot = await snapshotOf(generationId);
  const visible = visibleSql(snapshot);
  const out: ResolverSymbolRow[] = [];
  for (let after = 0; ;) {
    const page = await buildRead<ResolverSymbolRow>(
      `SELECT ${RESOLVER_SYMBOL_COLUMNS} FROM "Symbol" WHERE ${visible.sql} AND id > ? ORDER BY id LIMIT 10000`,
      ...visible.params,
      after,
    );
    if (page.length === 0) return out;
    for (const row of page) out.push(row);
    after = Number((page.at(-1) as ResolverSymbolRow).id);
  }
}

/** Symbols of a generation with these names, or in these files (with their calls), id order per batch. */
export async function resolverSymbolsWhere(
  generationId: string,
  filter: { names: string[] } | { qualifiedNames: string[] } | { paths: string[] },
): Promise<(ResolverSymbolRow & { calls: string })[]> {
  const snapshot = await snapshotOf(generationId);
  const visible = visibleSql(snapshot);
  const [column, values] =
    "names" in filter
      ? (["name", filter.names] as const)
      : "qualifiedNames" in filter
        ? (['"qualifiedName"', filter.qualifiedNames] as const)
        : (["path", filter.paths] as const);
  const out: (ResolverSymbolRow & { calls: string })[] = [];
  for (const batch of chunks([...new Set(values)], 500)) {
    out.push(
      ...(await buildRead<ResolverSymbolRow & { calls: string }>(
        `SELECT ${RESOLVER_SYMBOL_COLUMNS}, calls FROM "Symbol"
          WHERE ${visible.sql} AND ${column} IN (${batch.map(() => "?").join(",")}) ORDER BY id`,
        ...visible.params,
        ...batch,
      )),
    );
  }
  return out;
}

/** The calls of a generation's symbols, a page at a time in id order (after `afterId`). */
export async function symbolCallsPage(
  generationId: string,
  afterId: number,
  take: number,
): Promise<{ id: number; calls: string }[]> {
  const snapshot = await snapshotOf(generationId);
  const visible = visibleSql(snapshot);
  return buildRead<{ id: number; calls: string }>(
    `SELECT id, calls FROM "Symbol" WHERE ${visible.sql} AND id > ? ORDER BY id LIMIT ?`,
    ...visible.params,
    afterId,
    take,
  );
}

/** A generation's code files: path, language and name filter (path order). */
export async function codeFiles(
  generationId: string,
): Promise<{ path: string; language: string; callNames: string }[]> {
  const snapshot = await snapshotOf(generationId);
  const visible = visibleSql(snapshot);
  const rows = await buildRead<{ path: string; language: string; callNames: string }>(
    `SELECT path, language, "callNames" FROM "File" WHERE ${visible.sql} AND kind = 'code'`,
    ...visible.params,
  );
  return rows.sort((a, b) => binaryOrder(a.path, b.path));
}

/** The extracted imports (JSON) of some of a generation's files. */
export async function fileImports(generationId: string, paths: string[]): Promise<Map<string, string>> {
  const snapshot = await snapshotOf(generationId);
  const visible = visibleSql(snapshot);
  const out = new Map<string, string>();
  for (const batch of chunks([...new Set(paths)], 500)) {
    const rows = await buildRead<{ path: string; imports: string }>(
      `SELECT path, imports FROM "File" WHERE ${visible.sql} AND path IN (${batch.map(() => "?").join(",")})`,
      ...visible.params,
      ...batch,
    );
    for (const r of rows) out.set(r.path, r.imports);
  }
  return out;
}

/** What a generation recorded about a file: what the next build compares the work tree with. */
export interface KnownFile {
  hash: string;
  lines: number;
  language: string;
  size: number;
  /** modification time (ns) that vouches for `hash`, if any (lib/indexer/discover.ts) */
  mtimeNs: string | null;
  /** the file's class and why (lib/indexer/file-class.ts) */
  fileClass: FileClass | null;
  classReason: string | null;
}

/** A generation's files by path, as the next build compares the work tree with them. */
export async function fileHashes(generationId: string): Promise<Map<string, KnownFile>> {
  const snapshot = await snapshotOf(generationId);
  const visible = visibleSql(snapshot);
  const rows = await buildRead<KnownFile & { path: string }>(
    `SELECT path, hash, lines, language, size, "mtimeNs", "fileClass", "classReason" FROM "File" WHERE ${visible.sql}`,
    ...visible.params,
  );
  return new Map(
    rows.map(({ path, hash, lines, language, size, mtimeNs, fileClass, classReason }) => [
      path,
      { hash, lines: Number(lines), language, size: Number(size), mtimeNs, fileClass, classReason },
    ]),
  );
}

/** What a generation's files are, by class, and the code files indexed as text only, with why. */
export interface FileReport {
  /** files per class (lib/indexer/file-class.ts); the repository's own source is not counted */
  classes: Record<string, number>;
  /** code files not parsed because their parse failed (not minified ones: that is their class) */
  unparsed: { path: string; reason: string }[];
  unparsedCount: number;
}

/** The file report of a generation; at most `limit` unparsed files are listed. */
export async function fileReport(generationId: string, limit = 100): Promise<FileReport> {
  const snapshot = await snapshotOf(generationId);
  const visible = visibleSql(snapshot);
  const [classes, unparsed] = await Promise.all([
    buildRead<{ fileClass: string; n: number }>(
      `SELECT "fileClass", count(*) AS n FROM "File" WHERE ${visible.sql} AND "fileClass" IS NOT NULL GROUP BY "fileClass"`,
      ...visible.params,
    ),
    buildRead<{ path: string; unparsed: string }>(
      `SELECT path, unparsed FROM "File" WHERE ${visible.sql} AND unparsed IS NOT NULL ORDER BY path`,
      ...visible.params,
    ),
  ]);
  return {
    classes: Object.fromEntries(classes.map((r) => [r.fileClass, Number(r.n)])),
    unparsed: unparsed.slice(0, limit).map((r) => ({ path: r.path, reason: r.unparsed })),
    unparsedCount: unparsed.length,
  };
}

/** A classified file of a generation, with the rule that decided its class. */
export interface ClassifiedFile {
  path: string;
  fileClass: string;
  reason: string | null;
}

/**
 * The first `perClass` files of each class in a generation, by path (for the admins'
 * file report; the counts are in the build stats). Read by the web app, not a build.
 */
export async function classifiedFiles(generationId: string, perClass = 10): Promise<ClassifiedFile[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const visible = visibleSql(snapshot);
  const rows = await queryRaw<{ path: string; fileClass: string; classReason: string | null; rn: number }[]>(
    client,
    `SELECT path, "fileClass", "classReason", rn FROM (
       SELECT path, "fileClass", "classReason",
              row_number() OVER (PARTITION BY "fileClass" ORDER BY path) AS rn
         FROM "File" WHERE ${visible.sql} AND "fileClass" IS NOT NULL) ranked
      WHERE rn <= ? ORDER BY "fileClass", path`,
    ...visible.params,
    perClass,
  );
  return rows.map((r) => ({ path: r.path, fileClass: r.fileClass, reason: r.classReason }));
}

/**
 * Records, on the current rows of unchanged files, the modification time at which this
 * build found their bytes unchanged (a touched file, or one whose time was too recent
 * to trust before), so the next build need not read them. Not part of any snapshot:
 * the time only tells discovery when it may skip reading, and stays true whatever
 * becomes of this build, so rows shared with older generations are updated in place.
 */
export async function stampFiles(
  generationId: string,
  stamps: { path: string; mtimeNs: string }[],
): Promise<void> {
  if (stamps.length === 0) return;
  await withBuild(generationId, async (tx, s) => {
    const direct = sqliteConnection();
    const sql = `UPDATE "File" SET "mtimeNs" = ?
      WHERE "repositoryId" = ? AND path = ? AND ${openRows()}`;
    for (const { path, mtimeNs } of stamps) {
      const args = [mtimeNs, s.repositoryId, path, OPEN_GENERATION, s.number];
      if (direct) await direct.execute({ sql, args });
      else await executeRaw(tx, sql, ...args);
    }
  });
}

export async function listFiles(generationId: string) {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  return client.file.findMany({
    where: visibleIn(snapshot),
    select: { id: true, path: true, language: true, kind: true, hash: true, size: true, lines: true },
    orderBy: { path: "asc" },
  });
}

export async function getFile(generationId: string, filePath: string) {
  if (hasNul(filePath)) return null;
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  return client.file.findFirst({ where: { ...visibleIn(snapshot), path: filePath } });
}

/** File text as indexed in a generation (never read from disk at question time). */
export async function getFileContent(generationId: string, filePath: string): Promise<string | null> {
  if (hasNul(filePath)) return null;
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const file = await client.file.findFirst({
    where: { ...visibleIn(snapshot), path: filePath },
    select: { hash: true },
  });
  if (!file) return null;
  const blob = await client.blob.findUnique({ where: { hash: file.hash } });
  return blob?.content ?? null;
}

export async function generationCounts(generationId: string) {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const where = visibleIn(snapshot);
  const [files, symbols, edges, chunks, languages] = await Promise.all([
    client.file.count({ where }),
    client.symbol.count({ where }),
    client.edge.count({ where }),
    client.chunk.count({ where }),
    client.file.groupBy({ by: ["language"], where, _count: { _all: true } }),
  ]);
  return {
    files,
    symbols,
    edges,
    chunks,
    languages: Object.fromEntries(languages.map((l) => [l.language, l._count._all])),
  };
}

/** Removes blobs no file row references any more (one index lookup per blob). */
export async function collectBlobs(): Promise<number> {
  const client = await db();
  return client.$executeRawUnsafe(
    `DELETE FROM "Blob" WHERE NOT EXISTS (SELECT 1 FROM "File" f WHERE f.hash = "Blob".hash)`,
  );
}

/**
 * Gives the query planners row statistics, after a build that wrote a repository's
 * rows anew. Without them SQLite may read a generation through a range index
 * (`toGeneration`, which nearly every row shares) instead of the name or path index a
 * lookup needs. SQLite samples at most a thousand rows per index, so this stays cheap.
 */
export async function analyzeIndexTables(): Promise<void> {
  const client = await db();
  if (isPostgres()) {
    await client.$executeRawUnsafe(`ANALYZE "File", "Symbol", "Edge", "Chunk", "WikiPage"`);
    return;
  }
  await client.$queryRawUnsafe(`PRAGMA analysis_limit = 1000`);
  await client.$executeRawUnsafe(`ANALYZE`);
}

/** Rows a generation reads: its files, symbols, edges (and call edges) and chunks. */
export interface RowCounts {
  files: number;
  symbols: number;
  edges: number;
  callEdges: number;
  chunks: number;
}

/**
 * What the building generation reads, counted from what it changed: the rows the
 * generation it was built from read (`previous`, from that generation's stats), plus
 * the rows this build inserted, minus those it closed. Without `previous` (a build that
 * started empty) the inserted rows are all there is.
 */
export async function countRows(generationId: string, previous: RowCounts | null): Promise<RowCounts> {
  const [client, s] = await Promise.all([db(), snapshotOf(generationId)]);
  const delta = async (table: "File" | "Symbol" | "Edge" | "Chunk", callsOnly = false) => {
    const kind = callsOnly ? ` AND kind = 'calls'` : "";
    const [row] = await queryRaw<{ added: number; closed: number }[]>(
      client,
      `SELECT (SELECT count(*) FROM "${table}" WHERE "repositoryId" = ? AND "fromGeneration" = ?${kind}) AS added,
              (SELECT count(*) FROM "${table}" WHERE "repositoryId" = ? AND "toGeneration" = ?${kind}) AS closed`,
      s.repositoryId,
      s.number,
      s.repositoryId,
      s.number,
    );
    return { added: Number(row?.added ?? 0), closed: Number(row?.closed ?? 0) };
  };
  const [files, symbols, edges, callEdges, chunkRows] = await Promise.all([
    delta("File"),
    delta("Symbol"),
    delta("Edge"),
    delta("Edge", true),
    delta("Chunk"),
  ]);
  const count = (d: { added: number; closed: number }, before: number | undefined) =>
    previous ? (before ?? 0) + d.added - d.closed : d.added;
  return {
    files: count(files, previous?.files),
    symbols: count(symbols, previous?.symbols),
    edges: count(edges, previous?.edges),
    callEdges: count(callEdges, previous?.callEdges),
    chunks: count(chunkRows, previous?.chunks),
  };
}

/** Ids of the chunks a generation reads, in id order. */
export async function chunkIdsIn(generationId: string): Promise<number[]> {
  const snapshot = await snapshotOf(generationId);
  const visible = visibleSql(snapshot);
  const rows = await buildRead<{ id: number }>(
    `SELECT id FROM "Chunk" WHERE ${visible.sql} ORDER BY id`,
    ...visible.params,
  );
  return rows.map((r) => Number(r.id));
}

/** Ids of the chunks a build inserted (new content): the only ones it embeds. */
export async function chunksAddedIn(generationId: string): Promise<number[]> {
  const s = await snapshotOf(generationId);
  const rows = await buildRead<{ id: number }>(
    `SELECT id FROM "Chunk" WHERE "repositoryId" = ? AND "fromGeneration" = ? ORDER BY id`,
    s.repositoryId,
    s.number,
  );
  return rows.map((r) => Number(r.id));
}

/** Text of chunks by id, for embedding. */
export async function chunkTexts(
  ids: number[],
): Promise<
  { id: number; title: string; text: string; path: string; kind: string; symbolId: string | null }[]
> {
  if (ids.length === 0) return [];
  return buildRead(
    `SELECT id, title, text, path, kind, "symbolId" FROM "Chunk" WHERE id IN (${ids.map(() => "?").join(",")}) ORDER BY id`,
    ...ids,
  );
}
