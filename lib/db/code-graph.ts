/**
 * Read queries over one generation's code index: symbol lookup, callers and callees,
 * error anchors (raises / error strings), mutators, and BM25 search over chunks.
 * Every function takes the generation it reads so a question stays pinned to one
 * (lib/db/snapshot.ts: the rows a generation reads).
 */
import "server-only";
import { db, sqliteConnection } from "./client.ts";
import { directRows, visibleWhere } from "./direct-read.ts";
import { ftsSearchQuery, jsonArrayElements, position, queryRaw, textFilter } from "./dialect.ts";
import { snapshotOf, visibleIn, visibleSql, type Snapshot } from "./snapshot.ts";
import { splitQualifiedId } from "./symbol-ids.ts";
import type { Chunk as ChunkModel, Edge as EdgeModel, Symbol as SymbolModel } from "./generated/client.ts";

/** A symbol as questions read it: the stored row without its generation bookkeeping (JSON arrays as stored). */
export type SymbolRecord = Pick<SymbolModel, keyof typeof SYMBOL_SELECT>;

export const SYMBOL_SELECT = {
  id: true,
  path: true,
  qualifiedId: true,
  name: true,
  qualifiedName: true,
  kind: true,
  language: true,
  startLine: true,
  endLine: true,
  signature: true,
  docstring: true,
  parentId: true,
  exported: true,
  calls: true,
  raises: true,
  mutates: true,
  errorStrings: true,
  decorators: true,
  bases: true,
  fanIn: true,
  fanOut: true,
} as const;

const SYMBOL_COLUMNS = Object.keys(SYMBOL_SELECT) as (keyof typeof SYMBOL_SELECT)[];

/**
 * Symbols of a snapshot matching `condition` (then `tail`: ORDER BY, LIMIT; its
 * parameters last), read directly (direct-read.ts) as the Prisma read with the same
 * condition would give them; null on PostgreSQL. The matching rows' ids come first,
 * then only the rows not already kept (`symbolRows`).
 */
async function directSymbols(
  snapshot: Snapshot,
  condition: string,
  params: (string | number)[],
  tail = "",
): Promise<SymbolRecord[] | null> {
  const visible = visibleWhere(snapshot);
  const found = await directRows(
    `SELECT "id", "fanIn", "fanOut" FROM "Symbol" WHERE (${visible.sql} AND ${condition}) ${tail}`,
    [...visible.params, ...params],
  );
  if (!found) return null;
  return symbolRows(found as { id: number; fanIn: number; fanOut: number }[]);
}

/**
 * A symbol row's columns never change but for its fan counts (a build sets them on the
 * rows it adds): the rows questions read again and again (a class, the functions of a
 * flow) are kept by id, per database, a kept row used only while its fan counts are
 * the stored ones. Each caller gets its own copy.
 */
const keptByDatabase = new WeakMap<object, Map<number, SymbolRecord>>();
const KEPT_SYMBOLS = 10_000;

async function symbolRows(found: { id: number; fanIn: number; fanOut: number }[]): Promise<SymbolRecord[]> {
  const connection = sqliteConnection();
  if (!connection) return [];
  let keptSymbols = keptByDatabase.get(connection);
  if (!keptSymbols) {
    keptSymbols = new Map();
    keptByDatabase.set(connection, keptSymbols);
  }
  const kept = keptSymbols;
  const current = (f: { id: number; fanIn: number; fanOut: number }) => {
    const row = kept.get(f.id);
    return row && row.fanIn === f.fanIn && row.fanOut === f.fanOut ? row : undefined;
  };
  const missing = [...new Set(found.filter((f) => !current(f)).map((f) => f.id))];
  if (missing.length > 0) {
    const rows = await directRows(
      `SELECT ${SYMBOL_COLUMNS.map((c) => `"${c}"`).join(", ")} FROM "Symbol" WHERE "id" IN (${placeholders(missing)})`,
      missing,
    );
    for (const row of rows ?? []) {
      const symbol = symbolOfRow(row);
      kept.delete(symbol.id);
      kept.set(symbol.id, symbol);
    }
    while (kept.size > KEPT_SYMBOLS) kept.delete(kept.keys().next().value as number);
  }
  return found.flatMap((f) => {
    const row = kept.get(f.id);
    return row ? [{ ...row, fanIn: f.fanIn, fanOut: f.fanOut }] : [];
  });
}

/** A stored row as Prisma reads it: SQLite keeps a boolean as 1 or 0. */
function symbolOfRow(row: Record<string, unknown>): SymbolRecord {
  const out: Record<string, unknown> = {};
  for (const c of SYMBOL_COLUMNS) out[c] = c === "exported" ? Boolean(row[c]) : row[c];
  return out as SymbolRecord;
}

const placeholders = (values: readonly unknown[]) => values.map(() => "?").join(",");

/**
 * Loads the symbols of a generation matching a raw condition on `s` (JSON-array
 * conditions Prisma cannot express), which may end with ORDER BY / LIMIT.
 */
async function symbolsWhereRaw(
  generationId: string,
  condition: string,
  ...params: unknown[]
): Promise<SymbolRecord[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const visible = visibleSql(snapshot, "s");
  const ids = await queryRaw<{ id: number }[]>(
    client,
    `SELECT s.id FROM "Symbol" s WHERE ${visible.sql} AND ${condition}`,
    ...visible.params,
    ...params,
  );
  if (ids.length === 0) return [];
  const wanted = ids.map((r) => Number(r.id));
  const direct = await directRows(
    `SELECT ${SYMBOL_COLUMNS.map((c) => `"${c}"`).join(", ")} FROM "Symbol" WHERE "id" IN (${placeholders(wanted)})`,
    wanted,
  );
  if (direct) return direct.map(symbolOfRow);
  return client.symbol.findMany({
    where: { id: { in: wanted } },
    select: SYMBOL_SELECT,
  });
}

export async function symbolsByName(generationId: string, name: string, limit = 20): Promise<SymbolRecord[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const direct = await directSymbols(snapshot, `"name" = ?`, [name, limit], "LIMIT ?");
  if (direct) return direct;
  return client.symbol.findMany({
    where: { ...visibleIn(snapshot), name },
    select: SYMBOL_SELECT,
    take: limit,
  });
}

export async function symbolsByQualifiedName(
  generationId: string,
  qualifiedName: string,
  limit = 20,
): Promise<SymbolRecord[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const direct = await directSymbols(snapshot, `"qualifiedName" = ?`, [qualifiedName, limit], "LIMIT ?");
  if (direct) return direct;
  return client.symbol.findMany({
    where: { ...visibleIn(snapshot), qualifiedName },
    select: SYMBOL_SELECT,
    take: limit,
  });
}

export async function symbolByQualifiedId(
  generationId: string,
  qualifiedId: string,
): Promise<SymbolRecord | null> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const direct = await directSymbols(snapshot, `"qualifiedId" = ?`, [qualifiedId], "LIMIT 1");
  if (direct) return direct[0] ?? null;
  return client.symbol.findFirst({ where: { ...visibleIn(snapshot), qualifiedId }, select: SYMBOL_SELECT });
}

/**
 * The symbols a qualified id names: that one for a numbered id (`a.ts::f#2`), every
 * definition of the name in the file, in source order, for a plain one (`a.ts::f`).
 */
export async function symbolsOfQualifiedId(
  generationId: string,
  qualifiedId: string,
): Promise<SymbolRecord[]> {
  const parts = splitQualifiedId(qualifiedId);
  if (!parts || parts.ordinal !== null) {
    const one = await symbolByQualifiedId(generationId, qualifiedId);
    return one ? [one] : [];
  }
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const direct = await directSymbols(
    snapshot,
    `"path" = ? AND "qualifiedName" = ?`,
    [parts.path, parts.qualifiedName],
    `ORDER BY "startLine" ASC`,
  );
  if (direct) return direct;
  return client.symbol.findMany({
    where: { ...visibleIn(snapshot), path: parts.path, qualifiedName: parts.qualifiedName },
    select: SYMBOL_SELECT,
    orderBy: { startLine: "asc" },
  });
}

export async function symbolsByQualifiedIds(generationId: string, ids: string[]): Promise<SymbolRecord[]> {
  if (ids.length === 0) return [];
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const direct = await directSymbols(snapshot, `"qualifiedId" IN (${placeholders(ids)})`, ids);
  if (direct) return direct;
  return client.symbol.findMany({
    where: { ...visibleIn(snapshot), qualifiedId: { in: ids } },
    select: SYMBOL_SELECT,
  });
}

export async function symbolsInFile(generationId: string, path: string): Promise<SymbolRecord[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const direct = await directSymbols(snapshot, `"path" = ?`, [path], `ORDER BY "startLine" ASC`);
  if (direct) return direct;
  return client.symbol.findMany({
    where: { ...visibleIn(snapshot), path },
    select: SYMBOL_SELECT,
    orderBy: { startLine: "asc" },
  });
}

/**
 * In one query, the symbols lying wholly inside any of the given line spans, grouped by
 * file in line order; every asked file has an entry.
 */
export async function symbolsWithinSpans(
  generationId: string,
  spans: { path: string; startLine: number; endLine: number }[],
): Promise<Map<string, SymbolRecord[]>> {
  const byPath = new Map<string, SymbolRecord[]>(spans.map((s) => [s.path, []]));
  if (byPath.size === 0) return byPath;
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const rows =
    (await directSymbols(
      snapshot,
      `(${spans.map(() => `("path" = ? AND "startLine" >= ? AND "endLine" <= ?)`).join(" OR ")})`,
      spans.flatMap((s) => [s.path, s.startLine, s.endLine]),
      `ORDER BY "path" ASC, "startLine" ASC`,
    )) ??
    (await client.symbol.findMany({
      where: {
        ...visibleIn(snapshot),
        OR: spans.map((s) => ({
          path: s.path,
          startLine: { gte: s.startLine },
          endLine: { lte: s.endLine },
        })),
      },
      select: SYMBOL_SELECT,
      orderBy: [{ path: "asc" }, { startLine: "asc" }],
    }));
  for (const row of rows) byPath.get(row.path)?.push(row);
  return byPath;
}

/** Line spans of the symbols of several files, in one query (citation checks need no more). */
export async function symbolSpansInFiles(
  generationId: string,
  paths: string[],
): Promise<Map<string, { qualifiedId: string; startLine: number; endLine: number }[]>> {
  const byPath = new Map<string, { qualifiedId: string; startLine: number; endLine: number }[]>(
    paths.map((p) => [p, []]),
  );
  if (byPath.size === 0) return byPath;
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const rows = await client.symbol.findMany({
    where: { ...visibleIn(snapshot), path: { in: [...byPath.keys()] } },
    select: { path: true, qualifiedId: true, startLine: true, endLine: true },
    orderBy: [{ path: "asc" }, { startLine: "asc" }],
  });
  for (const { path, ...span } of rows) byPath.get(path)?.push(span);
  return byPath;
}

/** Files whose path ends with the given suffix (`deps.py` finds `backend/api/deps.py`). */
export async function filesBySuffix(generationId: string, suffix: string, limit = 10): Promise<string[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const rows = await client.file.findMany({
    where: { ...visibleIn(snapshot), OR: [{ path: suffix }, { path: textFilter("endsWith", `/${suffix}`) }] },
    select: { path: true },
    take: limit,
  });
  return rows.map((r) => r.path).sort((a, b) => a.length - b.length);
}

/** Symbols whose name or qualified name contains a fragment (case-insensitive in SQLite for ASCII). */
export async function symbolsMatching(
  generationId: string,
  fragment: string,
  limit = 30,
): Promise<SymbolRecord[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  return client.symbol.findMany({
    where: {
      ...visibleIn(snapshot),
      OR: [{ name: textFilter("contains", fragment) }, { qualifiedName: textFilter("contains", fragment) }],
    },
    select: SYMBOL_SELECT,
    take: limit,
  });
}

/** A call, import, inherits or contains edge: the stored row without its generation bookkeeping. */
export type EdgeRecord = Pick<EdgeModel, keyof typeof EDGE_SELECT>;

export const EDGE_SELECT = {
  srcId: true,
  srcPath: true,
  dstId: true,
  dstPath: true,
  raw: true,
  confidence: true,
  line: true,
  kind: true,
} as const;

/** Call edges of a snapshot (direct-read.ts), as the Prisma read with the same condition gives them; null on PostgreSQL. */
async function directCalls(
  snapshot: Snapshot,
  condition: string,
  params: (string | number)[],
  tail: string,
): Promise<EdgeRecord[] | null> {
  const visible = visibleWhere(snapshot);
  const rows = await directRows(
    `SELECT ${Object.keys(EDGE_SELECT)
      .map((c) => `"${c}"`)
      .join(", ")} FROM "Edge" WHERE (${visible.sql} AND "kind" = ? AND ${condition}) ${tail}`,
    [...visible.params, "calls", ...params],
  );
  return rows as EdgeRecord[] | null;
}

export async function callersOf(
  generationId: string,
  qualifiedId: string,
  limit = 50,
): Promise<EdgeRecord[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const direct = await directCalls(
    snapshot,
    `"dstId" = ?`,
    [qualifiedId, limit],
    `ORDER BY "confidence" DESC LIMIT ?`,
  );
  if (direct) return direct;
  return client.edge.findMany({
    where: { ...visibleIn(snapshot), kind: "calls", dstId: qualifiedId },
    select: EDGE_SELECT,
    orderBy: { confidence: "desc" },
    take: limit,
  });
}

export async function calleesOf(
  generationId: string,
  qualifiedId: string,
  limit = 50,
): Promise<EdgeRecord[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const direct = await directCalls(
    snapshot,
    `"srcId" = ?`,
    [qualifiedId, limit],
    `ORDER BY "line" ASC LIMIT ?`,
  );
  if (direct) return direct;
  return client.edge.findMany({
    where: { ...visibleIn(snapshot), kind: "calls", srcId: qualifiedId },
    select: EDGE_SELECT,
    orderBy: [{ line: "asc" }],
    take: limit,
  });
}

/**
 * The ids of the types that extend, implement or mix in any of `typeIds` (their
 * `inherits` edges), each with the type it inherits from.
 */
export async function inheritorsOf(
  generationId: string,
  typeIds: string[],
  limit = 200,
): Promise<{ srcId: string; dstId: string }[]> {
  if (typeIds.length === 0) return [];
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const rows = await client.edge.findMany({
    where: { ...visibleIn(snapshot), kind: "inherits", dstId: { in: typeIds } },
    select: { srcId: true, dstId: true },
    take: limit,
  });
  return rows.flatMap((r) => (r.dstId ? [{ srcId: r.srcId, dstId: r.dstId }] : []));
}

/** The ids of the types that `typeIds` extend, implement or mix in (their resolved `inherits` edges). */
export async function ancestorsOf(generationId: string, typeIds: string[], limit = 50): Promise<string[]> {
  if (typeIds.length === 0) return [];
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const rows = await client.edge.findMany({
    where: { ...visibleIn(snapshot), kind: "inherits", srcId: { in: typeIds } },
    select: { dstId: true },
    take: limit,
  });
  return [...new Set(rows.flatMap((r) => (r.dstId ? [r.dstId] : [])))];
}

/**
 * Callees and callers of many symbols in two queries (not two per symbol): at most
 * `limit` edges per symbol and direction, in the order `calleesOf` and `callersOf`
 * give (callees by line, callers by confidence), ties broken by edge id.
 */
export async function callEdgesOfMany(
  generationId: string,
  qualifiedIds: string[],
  limit: { callees: number; callers: number },
): Promise<{ callees: Map<string, EdgeRecord[]>; callers: Map<string, EdgeRecord[]> }> {
  const ids = [...new Set(qualifiedIds)];
  const callees = new Map<string, EdgeRecord[]>();
  const callers = new Map<string, EdgeRecord[]>();
  if (ids.length === 0) return { callees, callers };
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const visible = visibleSql(snapshot, "e");
  const windowed = (key: '"srcId"' | '"dstId"', order: string) =>
    `SELECT "srcId", "srcPath", "dstId", "dstPath", raw, confidence, line, kind FROM (
       SELECT e.*, ROW_NUMBER() OVER (PARTITION BY e.${key} ORDER BY ${order}, e.id) AS rank
       FROM "Edge" e WHERE ${visible.sql} AND e.kind = 'calls' AND e.${key} IN (${ids.map(() => "?").join(",")})
     ) ranked WHERE rank <= ? ORDER BY ${key}, rank`;
  // A direction asked for no edges is not read.
  const [outgoing, incoming] = await Promise.all([
    limit.callees > 0
      ? queryRaw<EdgeRecord[]>(
          client,
          windowed('"srcId"', "e.line ASC"),
          ...visible.params,
          ...ids,
          limit.callees,
        )
      : [],
    limit.callers > 0
      ? queryRaw<EdgeRecord[]>(
          client,
          windowed('"dstId"', "e.confidence DESC"),
          ...visible.params,
          ...ids,
          limit.callers,
        )
      : [],
  ]);
  const add = (map: Map<string, EdgeRecord[]>, key: string, edge: EdgeRecord) => {
    const list = map.get(key);
    if (list) list.push(edge);
    else map.set(key, [edge]);
  };
  for (const e of outgoing) add(callees, e.srcId, normalizeEdge(e));
  for (const e of incoming) if (e.dstId) add(callers, e.dstId, normalizeEdge(e));
  return { callees, callers };
}

/** Raw rows may carry BigInt or string numbers depending on the driver. */
function normalizeEdge(e: EdgeRecord): EdgeRecord {
  return { ...e, confidence: Number(e.confidence), line: Number(e.line) };
}

export async function edgesOfKind(
  generationId: string,
  kind: string,
  limit = 100_000,
): Promise<EdgeRecord[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  return client.edge.findMany({ where: { ...visibleIn(snapshot), kind }, select: EDGE_SELECT, take: limit });
}

/**
 * Symbols whose JSON array column has an element meeting `test` (an SQL condition on
 * `j.value` taking `params`), at most `limit` of them.
 */
function symbolsWithElement(
  generationId: string,
  column: string,
  test: string,
  params: unknown[],
  limit: number,
): Promise<SymbolRecord[]> {
  return symbolsWhereRaw(
    generationId,
    `${column} != '[]'
       AND EXISTS (SELECT 1 FROM ${jsonArrayElements(column, "j")} WHERE ${test})
     LIMIT ?`,
    ...params,
    limit,
  );
}

/** Symbols raising one of the given exception types (exact element match in the JSON array). */
export async function symbolsRaising(
  generationId: string,
  types: string[],
  limit = 40,
): Promise<SymbolRecord[]> {
  if (types.length === 0) return [];
  return symbolsWithElement(
    generationId,
    "s.raises",
    `j.value IN (${types.map(() => "?").join(",")})`,
    types,
    limit,
  );
}

/** Symbols with an error string containing a fragment (case-insensitive). */
export async function symbolsWithErrorString(
  generationId: string,
  fragment: string,
  limit = 40,
): Promise<SymbolRecord[]> {
  const pattern = `%${fragment.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return symbolsWithElement(
    generationId,
    's."errorStrings"',
    "lower(j.value) LIKE ? ESCAPE '\\'",
    [pattern],
    limit,
  );
}

/** Symbols writing a given piece of state (`self.cache`, `_registry`). */
export async function symbolsMutating(
  generationId: string,
  target: string,
  limit = 40,
): Promise<SymbolRecord[]> {
  return symbolsWithElement(generationId, "s.mutates", "j.value = ?", [target], limit);
}

/**
 * Code files of a generation whose text holds literal strings, each literal given as
 * its alternative spellings (`"--fix"`, `'--fix'`): one scan over the files' text, as
 * grep would do it (no index can answer a substring). Returns each file with the
 * indexes of the literals found in it, at most `limit` files.
 */
export async function filesContainingLiterals(
  generationId: string,
  literals: string[][],
  limit = 200,
): Promise<{ path: string; found: number[] }[]> {
  const spelled = literals.filter((forms) => forms.length > 0);
  if (spelled.length === 0) return [];
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const visible = visibleSql(snapshot, "f");
  const columns = spelled.map(
    (forms, i) =>
      `CASE WHEN ${forms.map(() => `${position("b.content", "?")} > 0`).join(" OR ")} THEN 1 ELSE 0 END AS m${i}`,
  );
  const rows = await queryRaw<Record<string, unknown>[]>(
    client,
    `SELECT * FROM (
       SELECT f.path, ${columns.join(", ")}
       FROM "File" f JOIN "Blob" b ON b.hash = f.hash
       WHERE ${visible.sql} AND f.kind = 'code'
     ) found WHERE ${spelled.map((_, i) => `m${i}`).join(" + ")} > 0
     ORDER BY path LIMIT ?`,
    ...spelled.flat(),
    ...visible.params,
    limit,
  );
  return rows.map((r) => ({
    path: String(r.path),
    found: spelled.flatMap((_, i) => (Number(r[`m${i}`]) > 0 ? [i] : [])),
  }));
}

/** A chunk a search found, with its score. */
export type ChunkHit = Pick<
  ChunkModel,
  "id" | "path" | "kind" | "symbolId" | "title" | "startLine" | "endLine" | "text"
> & { score: number };

/**
 * Full-text search over chunks of one generation, best first. `match` is an FTS5
 * expression built by lib/search (never raw user text). SQLite ranks by BM25 (lower
 * bm25() is better; we return -bm25), PostgreSQL by ts_rank (lib/db/dialect.ts):
 * higher score is better everywhere.
 */
export async function searchChunks(
  generationId: string,
  match: string,
  options: { limit?: number; kinds?: string[]; pathPrefix?: string } = {},
): Promise<ChunkHit[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const query = ftsSearchQuery(snapshot, match, {
    kinds: options.kinds,
    pathPrefix: options.pathPrefix,
    limit: options.limit ?? 50,
  });
  if (!query) return [];
  const rows = await queryRaw<ChunkHit[]>(client, query.sql, ...query.params);
  return rows.map((r) => ({ ...r, id: Number(r.id), score: Number(r.score) }));
}

export async function chunksByIds(generationId: string, ids: number[]): Promise<Omit<ChunkHit, "score">[]> {
  if (ids.length === 0) return [];
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  return client.chunk.findMany({
    where: { ...visibleIn(snapshot), id: { in: ids } },
    select: {
      id: true,
      path: true,
      kind: true,
      symbolId: true,
      title: true,
      startLine: true,
      endLine: true,
      text: true,
    },
  });
}

/** Number of files under a path prefix (to tell a path scope from a vague one). */
export async function countFilesUnder(generationId: string, prefix: string): Promise<number> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  return client.file.count({ where: { ...visibleIn(snapshot), path: textFilter("startsWith", prefix) } });
}

/** Symbols of a generation (optionally under a path prefix) ordered by a fan metric. */
export async function topSymbolsBy(
  generationId: string,
  metric: "fanIn" | "fanOut",
  options: {
    prefix?: string;
    limit?: number;
    /** the lowest first, among symbols the metric counts at least once */
    ascending?: boolean;
    /** functions and methods only */
    callable?: boolean;
  } = {},
): Promise<SymbolRecord[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  return client.symbol.findMany({
    where: {
      ...visibleIn(snapshot),
      ...(options.prefix ? { path: textFilter("startsWith", options.prefix) } : {}),
      ...(options.ascending ? { [metric]: { gte: 1 } } : {}),
      ...(options.callable ? { kind: { in: ["function", "method"] } } : {}),
    },
    select: SYMBOL_SELECT,
    // Ties in the same order on every database (a limit would otherwise cut them differently).
    orderBy: [{ [metric]: options.ascending ? "asc" : "desc" }, { qualifiedId: "asc" }],
    take: options.limit ?? 20,
  });
}

/** How many symbols of a generation share each of the given names (for specificity weighting). */
export async function nameFrequencies(generationId: string, names: string[]): Promise<Map<string, number>> {
  if (names.length === 0) return new Map();
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const rows = await client.symbol.groupBy({
    by: ["name"],
    where: { ...visibleIn(snapshot), name: { in: names } },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r.name, r._count._all]));
}

/** Symbols whose qualified name equals `qualifiedName` ignoring case (`DataSet.update` finds `Dataset.update`). */
export async function symbolsByQualifiedNameLoose(
  generationId: string,
  qualifiedName: string,
  limit = 10,
): Promise<SymbolRecord[]> {
  return symbolsWhereRaw(generationId, `lower(s."qualifiedName") = lower(?) LIMIT ?`, qualifiedName, limit);
}

/** The names of a generation's symbols with where they are: what name matching reads. */
export interface SymbolNameRow {
  qualifiedId: string;
  name: string;
  qualifiedName: string;
  path: string;
  kind: string;
  parentId: string | null;
  exported: boolean;
  fanIn: number;
}

export async function symbolNameRows(generationId: string): Promise<SymbolNameRow[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  return client.symbol.findMany({
    where: visibleIn(snapshot),
    select: {
      qualifiedId: true,
      name: true,
      qualifiedName: true,
      path: true,
      kind: true,
      parentId: true,
      exported: true,
      fanIn: true,
    },
  });
}

/** Files whose facts record entry points (routes, commands, mains, manifest scripts), with those facts. */
export async function entryPointFacts(generationId: string): Promise<{ path: string; facts: string }[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  return client.file.findMany({
    where: { ...visibleIn(snapshot), facts: textFilter("contains", '"entryPoints":[{') },
    select: { path: true, facts: true },
  });
}

/** Paths of a generation's files that have `segment` as one of their folders or as their name. */
export async function pathsWithSegment(generationId: string, segment: string, limit = 50): Promise<string[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const rows = await client.file.findMany({
    where: {
      ...visibleIn(snapshot),
      OR: [
        { path: textFilter("startsWith", `${segment}/`) },
        { path: textFilter("contains", `/${segment}/`) },
      ],
    },
    select: { path: true },
    take: limit,
  });
  return rows.map((r) => r.path);
}

/** Paths of a generation's files under a folder whose dotted name ends with `segment` (`Foo.Extensions/`). */
export async function pathsWithDottedSegment(
  generationId: string,
  segment: string,
  limit = 50,
): Promise<string[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const rows = await client.file.findMany({
    where: { ...visibleIn(snapshot), path: textFilter("contains", `.${segment}/`) },
    select: { path: true },
    take: limit,
  });
  return rows.map((r) => r.path);
}

/** Paths of a generation's files that start with `prefix`, shortest first. */
export async function filesStartingWith(generationId: string, prefix: string, limit = 20): Promise<string[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const rows = await client.file.findMany({
    where: { ...visibleIn(snapshot), path: textFilter("startsWith", prefix) },
    select: { path: true },
    take: limit,
  });
  return rows.map((r) => r.path).sort((a, b) => a.length - b.length);
}
