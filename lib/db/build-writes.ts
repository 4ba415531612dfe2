/**
 * A build's writes to the code index: files (with their text, facts and whole-file term
 * counts), symbols, edges and chunks, inserted beside the serving generation, and the
 * rows of what changed closed in the building one (lib/db/snapshot.ts); planner
 * statistics (fan-in and fan-out: fan-counts.ts). Every write of a build runs in a transaction that
 * first checks the build is still running (withBuild), so a build declared dead can
 * never change rows after its successor cleaned up.
 */
import "server-only";
import { WayfinderError } from "../errors.ts";
import type { InValue } from "@libsql/client";
import { db, sqliteConnection, type Db } from "./client.ts";
import {
  executeRaw,
  ftsDeleteRows,
  ftsEnsureTable,
  ftsNeedsSync,
  ftsSync,
  insertHead,
  insertTail,
  isPostgres,
  noIndex,
  param,
  queryRaw,
} from "./dialect.ts";
import { OPEN_GENERATION, snapshotOf, visibleSql, type Snapshot } from "./snapshot.ts";
import { withTempTable } from "./temp-table.ts";
import { repositoryTermSalt, termKey, type FileTermCounts } from "./tokenize.ts";
import { chunks, RANGED_TABLES } from "./index-rows.ts";
import type { EdgeRecord, SymbolRecord } from "./code-graph.ts";
import type { Chunk } from "./generated/client.ts";

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

/** A symbol row as a build writes it: the row without its id and fan counts, with its file row's id. */
export type SymbolInsert = Omit<SymbolRecord, "id" | "fanIn" | "fanOut"> & { fileId: number };

/** An edge row as a build writes it: the same columns questions read. */
export type EdgeInsert = EdgeRecord;

/** A chunk row as a build writes it: the row without its id, repository and generation range. */
export type ChunkInsert = Omit<Chunk, "id" | "repositoryId" | "fromGeneration" | "toGeneration">;

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

export const SYMBOL_COLUMNS = [
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
