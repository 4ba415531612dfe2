/**
 * Code-index storage: repositories, generations, files, symbols, edges, chunks and
 * the FTS5 lexical index. Builds write a new generation beside the serving one and
 * flip `Repository.activeGenerationId` in one transaction; readers always pass the
 * generation they are pinned to.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import os from "node:os";
import { WayfinderError } from "../errors.ts";
import { db, type Db } from "./client.ts";
import {
  executeRaw,
  ftsDeleteGeneration,
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
import { withTempTable } from "./temp-table.ts";

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
  number: number;
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
    return await client.repository.create({
      data: git
        ? { ...folder, id: git.id, sourceKind: "git", gitUrl: git.url, gitBranch: git.branch }
        : { ...folder, id: randomUUID().slice(0, 12) },
    });
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
  for (const g of generations) await deleteGenerationRows(client, g.id);
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

/** Atomically makes a finished build the one readers see. */
export async function activateGeneration(generationId: string, stats: object): Promise<void> {
  const client = await db();
  await client.$transaction(async (tx) => {
    const gen = await tx.indexGeneration.findUniqueOrThrow({ where: { id: generationId } });
    if (gen.status !== "building") {
      throw new WayfinderError(
        "conflict:generation",
        `Generation ${gen.number} is ${gen.status}, not building.`,
      );
    }
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
        stats: JSON.stringify(stats),
      },
    });
    await tx.repository.update({
      where: { id: gen.repositoryId },
      data: { activeGenerationId: generationId },
    });
  });
}

export async function failGeneration(generationId: string, error: string): Promise<void> {
  const client = await db();
  await client.indexGeneration.updateMany({
    where: { id: generationId, status: "building" },
    data: { status: "failed", error: error.slice(0, 2000), finishedAt: new Date() },
  });
}

/**
 * Deletes rows of generations nobody should read any more: failed or dead builds,
 * and superseded generations except the most recent one (kept so questions that
 * started just before a flip can finish on the generation they were pinned to).
 */
export async function collectGarbage(repositoryId: string): Promise<string[]> {
  const client = await db();
  const generations = await client.indexGeneration.findMany({
    where: { repositoryId },
    orderBy: { number: "desc" },
  });
  const now = Date.now();
  const doomed: string[] = [];
  let keptSuperseded = 0;
  for (const g of generations) {
    if (g.status === "ready" || g.status === "queued") continue;
    if (g.status === "building" && isBuildAlive(g, now)) continue;
    if (g.status === "superseded" && keptSuperseded++ < 1) continue;
    doomed.push(g.id);
  }
  for (const id of doomed) {
    await deleteGenerationRows(client, id);
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
  return doomed;
}

async function deleteGenerationRows(client: Db, generationId: string): Promise<void> {
  await ftsDeleteGeneration(client, generationId);
  await client.chunk.deleteMany({ where: { generationId } });
  await client.wikiPage.deleteMany({ where: { generationId } });
  await client.finding.deleteMany({ where: { generationId } });
  await client.edge.deleteMany({ where: { generationId } });
  await client.symbol.deleteMany({ where: { generationId } });
  await client.file.deleteMany({ where: { generationId } });
}

// ------------------------------------------------------------------- writing

/**
 * Multi-row INSERT through Prisma's raw API. Several times faster than createMany for
 * index-sized batches (createMany pays per-row query-building costs we do not need).
 */
export async function bulkInsert<T extends Record<string, unknown>>(
  client: Db,
  table: string,
  columns: (keyof T & string)[],
  rows: T[],
  options: { orIgnore?: boolean; returning?: string } = {},
): Promise<Record<string, unknown>[]> {
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

export async function upsertBlobs(blobs: { hash: string; content: string }[]): Promise<void> {
  const client = await db();
  await bulkInsert(client, "Blob", ["hash", "content"], blobs, { orIgnore: true });
}

export async function insertFiles(generationId: string, files: FileInsert[]): Promise<Map<string, number>> {
  const client = await db();
  const rows = files.map((f) => ({ ...f, generationId }));
  const returned = await bulkInsert(
    client,
    "File",
    ["generationId", "path", "language", "kind", "hash", "size", "lines", "imports", "parseErrors", "facts"],
    rows,
    { returning: "id, path" },
  );
  return new Map(returned.map((r) => [String(r.path), Number(r.id)]));
}

const SYMBOL_COLUMNS = [
  "generationId",
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

export async function insertSymbols(generationId: string, symbols: SymbolInsert[]): Promise<void> {
  const client = await db();
  await bulkInsert(
    client,
    "Symbol",
    [...SYMBOL_COLUMNS],
    symbols.map((s) => ({ ...s, generationId })),
  );
}

export async function insertEdges(generationId: string, edges: EdgeInsert[]): Promise<void> {
  const client = await db();
  await bulkInsert(
    client,
    "Edge",
    ["generationId", "kind", "srcId", "srcPath", "dstId", "dstPath", "raw", "confidence", "line"],
    edges.map((e) => ({ ...e, generationId })),
  );
}

/** Inserts chunks and their FTS rows. */
export async function insertChunks(generationId: string, rows: ChunkInsert[]): Promise<number[]> {
  const client = await db();
  const returned = await bulkInsert(
    client,
    "Chunk",
    [
      "generationId",
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
    ],
    rows.map((c) => ({ ...c, generationId })),
    { returning: "id" },
  );
  const ids = returned.map((r) => Number(r.id));
  // A loop, not Math.min(...ids): spreading 100k+ ids overflows the call stack on big repositories.
  const fromId = ids.reduce<number | null>((min, id) => (min === null || id < min ? id : min), null);
  await syncFts(client, generationId, fromId);
  return ids;
}

/** Indexes a generation's chunk rows from `fromId` on for full-text search (a no-op on PostgreSQL). */
export async function syncFts(client: Db, generationId: string, fromId: number | null): Promise<void> {
  await ftsSync(client, generationId, fromId);
}

/** Where the FTS sync of rows about to be copied starts: past the highest chunk id (null when nothing needs syncing). */
export async function ftsSyncStart(client: Db): Promise<number | null> {
  if (!ftsNeedsSync()) return null;
  const before = await client.chunk.aggregate({ _max: { id: true } });
  return (before._max.id ?? 0) + 1;
}

/**
 * Copies the rows of unchanged files from the previous generation, in SQL: files,
 * symbols and chunks (with FTS rows). Returns the new file ids by path. Wiki chunks
 * are left to the wiki phase, which knows which pages are still current.
 */
export async function copyUnchanged(
  fromGenerationId: string,
  toGenerationId: string,
  paths: string[],
): Promise<Map<string, number>> {
  const client = await db();
  if (paths.length === 0) return new Map();
  return withTempTable(client, "keep_paths", paths, async (keepPaths) => {
    await executeRaw(
      client,
      `INSERT INTO "File" ("generationId", path, language, kind, hash, size, lines, imports, "parseErrors", facts)
       SELECT ?, path, language, kind, hash, size, lines, imports, "parseErrors", facts FROM "File"
       WHERE "generationId" = ? AND path IN (SELECT value FROM ${keepPaths})`,
      toGenerationId,
      fromGenerationId,
    );
    const files = await client.file.findMany({
      where: { generationId: toGenerationId },
      select: { id: true, path: true },
    });
    const ids = new Map(files.map((f) => [f.path, f.id]));
    const symbolColumns = `path, "qualifiedId", name, "qualifiedName", kind, language, "startLine", "endLine", signature,
      docstring, "parentId", exported, calls, raises, mutates, "errorStrings", decorators, bases`;
    await executeRaw(
      client,
      `INSERT INTO "Symbol" ("generationId", "fileId", ${symbolColumns})
       SELECT ?, nf.id, ${symbolColumns.replace(/(^|,\s*)(?=[a-z"])/g, "$1s.")}
       FROM "Symbol" s JOIN "File" nf ON nf."generationId" = ? AND nf.path = s.path
       WHERE s."generationId" = ? AND s.path IN (SELECT value FROM ${keepPaths})`,
      toGenerationId,
      toGenerationId,
      fromGenerationId,
    );
    const syncFrom = await ftsSyncStart(client);
    const chunkColumns = `path, kind, "symbolId", title, "startLine", "endLine", text, "searchText", tokens`;
    await executeRaw(
      client,
      `INSERT INTO "Chunk" ("generationId", "fileId", ${chunkColumns})
       SELECT ?, nf.id, ${chunkColumns.replace(/(^|,\s*)(?=[a-z"])/g, "$1c.")}
       FROM "Chunk" c JOIN "File" nf ON nf."generationId" = ? AND nf.path = c.path
       WHERE c."generationId" = ? AND c.path IN (SELECT value FROM ${keepPaths}) AND c.kind != 'wiki'`,
      toGenerationId,
      toGenerationId,
      fromGenerationId,
    );
    await syncFts(client, toGenerationId, syncFrom);
    return ids;
  });
}

/** Recomputes fan-in / fan-out of every symbol of a generation from its call edges. */
export async function updateFanCounts(generationId: string): Promise<void> {
  const client = await db();
  if (isPostgres()) {
    // The correlated form below is at the planner's mercy on PostgreSQL (one plan used
    // the dstId index for srcId lookups: 20 s on xarray); grouped joins take 0.2 s, once
    // the planner knows how many rows the build just wrote (else a nested loop: 110 s).
    await client.$executeRawUnsafe(`ANALYZE "Symbol", "Edge"`);
    await executeRaw(
      client,
      `UPDATE "Symbol" s SET "fanOut" = f.fan_out, "fanIn" = f.fan_in
         FROM (SELECT t.id, COALESCE(o.n, 0) AS fan_out, COALESCE(i.n, 0) AS fan_in FROM "Symbol" t
                 LEFT JOIN (SELECT "srcId" AS id, count(DISTINCT "dstId") AS n FROM "Edge"
                             WHERE "generationId" = ? AND kind = 'calls' GROUP BY "srcId") o ON o.id = t."qualifiedId"
                 LEFT JOIN (SELECT "dstId" AS id, count(DISTINCT "srcId") AS n FROM "Edge"
                             WHERE "generationId" = ? AND kind = 'calls' GROUP BY "dstId") i ON i.id = t."qualifiedId"
                WHERE t."generationId" = ?) f
        WHERE s.id = f.id`,
      generationId,
      generationId,
      generationId,
    );
    return;
  }
  await executeRaw(
    client,
    `UPDATE "Symbol" SET
       "fanOut" = (SELECT count(DISTINCT e."dstId") FROM "Edge" e
                   WHERE e."generationId" = "Symbol"."generationId" AND e.kind = 'calls' AND e."srcId" = "Symbol"."qualifiedId"),
       "fanIn"  = (SELECT count(DISTINCT e."srcId") FROM "Edge" e
                   WHERE e."generationId" = "Symbol"."generationId" AND e.kind = 'calls' AND e."dstId" = "Symbol"."qualifiedId")
     WHERE "generationId" = ?`,
    generationId,
  );
}

// ------------------------------------------------------------------- reading

export interface ResolverRows {
  symbols: {
    qualifiedId: string;
    path: string;
    name: string;
    qualifiedName: string;
    kind: string;
    parentId: string | null;
    language: string;
    bases: string;
    calls: string;
    startLine: number;
  }[];
  files: { path: string; language: string; imports: string; kind: string }[];
}

/** Everything call resolution needs about a generation, without source text. */
export async function loadResolverRows(generationId: string): Promise<ResolverRows> {
  const client = await db();
  const [symbols, files] = await Promise.all([
    client.symbol.findMany({
      where: { generationId },
      select: {
        qualifiedId: true,
        path: true,
        name: true,
        qualifiedName: true,
        kind: true,
        parentId: true,
        language: true,
        bases: true,
        calls: true,
        startLine: true,
      },
    }),
    client.file.findMany({
      where: { generationId },
      select: { path: true, language: true, imports: true, kind: true },
    }),
  ]);
  return { symbols, files };
}

export async function listFiles(generationId: string) {
  const client = await db();
  return client.file.findMany({
    where: { generationId },
    select: { id: true, path: true, language: true, kind: true, hash: true, size: true, lines: true },
    orderBy: { path: "asc" },
  });
}

export async function getFile(generationId: string, filePath: string) {
  if (hasNul(filePath)) return null;
  const client = await db();
  return client.file.findUnique({ where: { generationId_path: { generationId, path: filePath } } });
}

/** File text as indexed in a generation (never read from disk at question time). */
export async function getFileContent(generationId: string, filePath: string): Promise<string | null> {
  if (hasNul(filePath)) return null;
  const client = await db();
  const file = await client.file.findUnique({
    where: { generationId_path: { generationId, path: filePath } },
    select: { hash: true },
  });
  if (!file) return null;
  const blob = await client.blob.findUnique({ where: { hash: file.hash } });
  return blob?.content ?? null;
}

export async function generationCounts(generationId: string) {
  const client = await db();
  const [files, symbols, edges, chunks, languages] = await Promise.all([
    client.file.count({ where: { generationId } }),
    client.symbol.count({ where: { generationId } }),
    client.edge.count({ where: { generationId } }),
    client.chunk.count({ where: { generationId } }),
    client.file.groupBy({ by: ["language"], where: { generationId }, _count: { _all: true } }),
  ]);
  return {
    files,
    symbols,
    edges,
    chunks,
    languages: Object.fromEntries(languages.map((l) => [l.language, l._count._all])),
  };
}

/** Removes blobs no file of any generation references. */
export async function collectBlobs(): Promise<number> {
  const client = await db();
  return client.$executeRawUnsafe(`DELETE FROM "Blob" WHERE hash NOT IN (SELECT DISTINCT hash FROM "File")`);
}

/** Distinct symbol names defined in the given files of a generation. */
export async function symbolNamesInPaths(generationId: string, paths: string[]): Promise<Set<string>> {
  const client = await db();
  const names = new Set<string>();
  for (const batch of chunks(paths, 500)) {
    const rows = await client.symbol.findMany({
      where: { generationId, path: { in: batch } },
      select: { name: true },
      distinct: ["name"],
    });
    for (const r of rows) names.add(r.name);
  }
  return names;
}

/**
 * Copies edges whose source is unaffected by a build's changes: edges leaving
 * unchanged files, except those of `skipSources` (symbols to re-resolve) and,
 * unless `includeImports`, import edges. Runs entirely in SQL.
 */
export async function copyEdges(input: {
  fromGenerationId: string;
  toGenerationId: string;
  unchangedPaths: string[];
  skipSources: string[];
  includeImports: boolean;
}): Promise<number> {
  const client = await db();
  if (input.unchangedPaths.length === 0) return 0;
  return withTempTable(client, "edge_keep_paths", input.unchangedPaths, (keepPaths) =>
    withTempTable(client, "edge_skip_src", input.skipSources, (skipSources) =>
      executeRaw(
        client,
        `INSERT INTO "Edge" ("generationId", kind, "srcId", "srcPath", "dstId", "dstPath", raw, confidence, line)
     SELECT ?, kind, "srcId", "srcPath", "dstId", "dstPath", raw, confidence, line FROM "Edge"
     WHERE "generationId" = ? AND "srcPath" IN (SELECT value FROM ${keepPaths})
       AND "srcId" NOT IN (SELECT value FROM ${skipSources})
       ${input.includeImports ? "" : "AND kind != 'imports'"}`,
        input.toGenerationId,
        input.fromGenerationId,
      ),
    ),
  );
}

/**
 * Chunks of `toGenerationId` identical to a chunk of `fromGenerationId` (same file,
 * kind, title, range and text): their embeddings can be reused. The unary `+` keeps
 * SQLite off the (generationId, kind) index for `o`, which made this join quadratic
 * (every old chunk of a kind scanned per new chunk: ~10 s on xarray); the path index
 * narrows to one file's chunks.
 */
export async function unchangedChunkPairs(
  fromGenerationId: string,
  toGenerationId: string,
): Promise<{ newId: number; oldId: number }[]> {
  const client = await db();
  const rows = await queryRaw<{ newId: number; oldId: number }[]>(
    client,
    `SELECT n.id AS "newId", o.id AS "oldId" FROM "Chunk" n
       JOIN "Chunk" o ON o."generationId" = ? AND o.path = n.path AND o."startLine" = n."startLine"
        AND o."endLine" = n."endLine" AND ${noIndex("o.kind")} = n.kind AND o.title = n.title AND o.text = n.text
      WHERE n."generationId" = ?`,
    fromGenerationId,
    toGenerationId,
  );
  return rows.map((r) => ({ newId: Number(r.newId), oldId: Number(r.oldId) }));
}

/** Edge totals of a generation: all edges and call edges. */
export async function edgeTotals(generationId: string): Promise<{ edges: number; callEdges: number }> {
  const client = await db();
  const [edges, callEdges] = await Promise.all([
    client.edge.count({ where: { generationId } }),
    client.edge.count({ where: { generationId, kind: "calls" } }),
  ]);
  return { edges, callEdges };
}
