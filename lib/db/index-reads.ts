/**
 * Reads of a generation's code index: what call and import resolution reads (through
 * the SQLite connection directly during a build), the files a build compares against
 * (hashes, times), the file report and classes, files and their text for the app and
 * tools, and row counts. Readers always pass the generation they are pinned to.
 */
import "server-only";
import type { InValue } from "@libsql/client";
import type { FileClass } from "./file-shapes.ts";
import { db, sqliteConnection } from "./client.ts";
import { binaryOrder, hasNul, param, queryRaw } from "./dialect.ts";
import { snapshotOf, visibleIn, visibleSql } from "./snapshot.ts";
import { chunks } from "./index-rows.ts";
import { directRows, visibleWhere } from "./direct-read.ts";
import type { SymbolRecord } from "./code-graph.ts";

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

/** A symbol as call resolution reads it (JSON arrays as stored): the columns below. */
export type ResolverSymbolRow = Pick<
  SymbolRecord,
  | "id"
  | "qualifiedId"
  | "path"
  | "name"
  | "qualifiedName"
  | "kind"
  | "parentId"
  | "language"
  | "bases"
  | "startLine"
  | "signature"
>;

const RESOLVER_SYMBOL_COLUMNS = `id, "qualifiedId", path, name, "qualifiedName", kind, "parentId", language, bases, "startLine", signature`;

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

/**
 * What Go imports resolve against in a generation: each Go file's package name and each
 * go.mod's module path (from their facts), in path order.
 */
export async function goLayout(
  generationId: string,
): Promise<{ path: string; language: string; goPackage?: string; goModule?: string }[]> {
  const snapshot = await snapshotOf(generationId);
  const visible = visibleSql(snapshot);
  const rows = await buildRead<{ path: string; language: string; facts: string }>(
    `SELECT path, language, facts FROM "File" WHERE ${visible.sql} AND language IN ('go', 'gomod')`,
    ...visible.params,
  );
  return rows
    .map((r) => {
      const facts = JSON.parse(r.facts) as { goPackage?: string; goModule?: string };
      return { path: r.path, language: r.language, goPackage: facts.goPackage, goModule: facts.goModule };
    })
    .sort((a, b) => binaryOrder(a.path, b.path));
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

/** Lines and language of the given files of a generation, in one query, in the order asked; absent files are left out. */
export async function fileLinesOf(
  generationId: string,
  filePaths: string[],
): Promise<Map<string, { lines: number; language: string }>> {
  const paths = [...new Set(filePaths)].filter((p) => !hasNul(p));
  const out = new Map<string, { lines: number; language: string }>();
  if (paths.length === 0) return out;
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const rows = await client.file.findMany({
    where: { ...visibleIn(snapshot), path: { in: paths } },
    select: { path: true, lines: true, language: true },
  });
  const byPath = new Map<string, { lines: number; language: string }>();
  for (const r of rows) if (!byPath.has(r.path)) byPath.set(r.path, { lines: r.lines, language: r.language });
  for (const p of paths) {
    const file = byPath.get(p);
    if (file) out.set(p, file);
  }
  return out;
}

/**
 * A blob's text never changes (its hash is its content's): the texts of the files
 * questions read again and again are kept, about this many characters of them.
 */
const KEPT_TEXT_CHARS = 8_000_000;
const keptTexts = new Map<string, string>();
let keptChars = 0;

function keepText(hash: string, content: string): void {
  if (content.length > KEPT_TEXT_CHARS / 8 || keptTexts.has(hash)) return;
  keptTexts.set(hash, content);
  keptChars += content.length;
  for (const [oldest, text] of keptTexts) {
    if (keptChars <= KEPT_TEXT_CHARS) break;
    keptTexts.delete(oldest);
    keptChars -= text.length;
  }
}

/** File text as indexed in a generation (never read from disk at question time). */
export async function getFileContent(generationId: string, filePath: string): Promise<string | null> {
  if (hasNul(filePath)) return null;
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const visible = visibleWhere(snapshot);
  const direct = await directRows(`SELECT "hash" FROM "File" WHERE (${visible.sql} AND "path" = ?) LIMIT 1`, [
    ...visible.params,
    filePath,
  ]);
  const hash = direct
    ? ((direct[0]?.hash as string | undefined) ?? null)
    : ((
        await client.file.findFirst({
          where: { ...visibleIn(snapshot), path: filePath },
          select: { hash: true },
        })
      )?.hash ?? null);
  if (hash === null) return null;
  const kept = keptTexts.get(hash);
  if (kept !== undefined) return kept;
  const content = direct
    ? ((await directRows(`SELECT "content" FROM "Blob" WHERE "hash" = ?`, [hash]))?.[0]?.content as
        | string
        | undefined)
    : (await client.blob.findUnique({ where: { hash } }))?.content;
  if (content === undefined) return null;
  keepText(hash, content);
  return content;
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
