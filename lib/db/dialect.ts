/**
 * The one place that knows which relational database is in use and how its SQL
 * differs. Everything in lib/db writes SQLite-flavoured raw SQL with `?` placeholders
 * and goes through `queryRaw` / `executeRaw`; on SQLite they pass it through
 * untouched (the embedded default stays exactly as fast), on PostgreSQL the
 * placeholders become `$n`. What cannot be translated mechanically (JSON arrays,
 * full-text search, INSERT-ignore, temporary tables) is a function here with one
 * branch per database.
 */
import "server-only";
import { env } from "../env.ts";
import { ftsMatchToTsQuery } from "./tokenize.ts";
import type { Db } from "./client.ts";

export type DatabaseKind = "sqlite" | "postgres";

/**
 * The rows one generation reads: its repository's rows whose generation range holds
 * `number` (snapshot.ts makes them from a generation id and says why). Declared here,
 * below snapshot.ts, because the full-text query filters by it.
 */
export interface Snapshot {
  repositoryId: string;
  /** the generation's number within its repository */
  number: number;
}

export function databaseKind(): DatabaseKind {
  return env().databaseKind;
}

export function isPostgres(): boolean {
  return env().databaseKind === "postgres";
}

const translated = new Map<string, string>();

/**
 * `?` placeholders → `$1, $2 …`, outside quoted strings and identifiers. Cached:
 * the same few hundred statements run over and over.
 */
export function toPostgresPlaceholders(sql: string): string {
  const hit = translated.get(sql);
  if (hit !== undefined) return hit;
  let out = "";
  let n = 0;
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === "?") {
      out += `$${++n}`;
    } else {
      out += ch;
    }
  }
  if (translated.size > 2000) translated.clear();
  translated.set(sql, out);
  return out;
}

/** `$queryRawUnsafe` with `?` placeholders on either database. */
export function queryRaw<T>(client: Db, sql: string, ...params: unknown[]): Promise<T> {
  if (!isPostgres()) return client.$queryRawUnsafe<T>(sql, ...params);
  return client.$queryRawUnsafe<T>(toPostgresPlaceholders(sql), ...params);
}

/** `$executeRawUnsafe` with `?` placeholders on either database. */
export function executeRaw(client: Db, sql: string, ...params: unknown[]): Promise<number> {
  if (!isPostgres()) return client.$executeRawUnsafe(sql, ...params);
  return client.$executeRawUnsafe(toPostgresPlaceholders(sql), ...params);
}

// ---------------------------------------------------------------- SQL pieces

/** A bound value: SQLite stores booleans as 1/0, PostgreSQL has a boolean type. */
export function param(value: unknown): unknown {
  if (typeof value === "boolean" && !isPostgres()) return value ? 1 : 0;
  return value ?? null;
}

/** The literal for a boolean column comparison (`exported = ${sqlBool(true)}`). */
export function sqlBool(value: boolean): string {
  if (isPostgres()) return value ? "TRUE" : "FALSE";
  return value ? "1" : "0";
}

/** `INSERT [OR IGNORE] INTO …` head and the tail that ends the statement. */
export function insertHead(table: string, columns: string[], ignore: boolean): string {
  const cols = columns.map((c) => `"${c}"`).join(", ");
  if (isPostgres() || !ignore) return `INSERT INTO "${table}" (${cols}) VALUES `;
  return `INSERT OR IGNORE INTO "${table}" (${cols}) VALUES `;
}

export function insertTail(ignore: boolean): string {
  return ignore && isPostgres() ? " ON CONFLICT DO NOTHING" : "";
}

/**
 * A FROM item listing the elements of a JSON array held in a TEXT column, as rows
 * with one text column `value` (`FROM "Symbol" s, ${jsonArrayElements("s.raises", "j")}`).
 */
export function jsonArrayElements(column: string, alias: string): string {
  if (isPostgres()) return `json_array_elements_text(${column}::json) AS ${alias}(value)`;
  return `json_each(${column}) ${alias}`;
}

/** Position of `needle` in `haystack` (1-based, 0 when absent): SQLite instr, PostgreSQL strpos. */
export function position(haystack: string, needle: string): string {
  return isPostgres() ? `strpos(${haystack}, ${needle})` : `instr(${haystack}, ${needle})`;
}

/**
 * An expression SQLite must not answer from an index (unary `+`, a planner hint);
 * PostgreSQL has no such hint and no `+` on text, and plans the query well without it.
 */
export function noIndex(expression: string): string {
  return isPostgres() ? expression : `+${expression}`;
}

/** LIKE as SQLite does it: case-insensitive for ASCII (PostgreSQL's LIKE is not, ILIKE is). */
export function likeInsensitive(): string {
  return isPostgres() ? "ILIKE" : "LIKE";
}

/** `floor(expression)` as an integer (SQLite's CAST truncates, PostgreSQL's rounds). */
export function floorToInt(expression: string): string {
  return isPostgres() ? `CAST(floor(${expression}) AS INTEGER)` : `CAST(${expression} AS INTEGER)`;
}

/** A bound number PostgreSQL must read as floating point, not as the other operand's type. */
export function floatParam(): string {
  return isPostgres() ? "CAST(? AS DOUBLE PRECISION)" : "?";
}

type TextOp = "contains" | "startsWith" | "endsWith";

/**
 * A Prisma string filter with SQLite's semantics on both databases: Prisma's
 * contains/startsWith/endsWith become LIKE, case-insensitive for ASCII on SQLite;
 * on PostgreSQL the same needs `mode: "insensitive"` (ILIKE). The client type is
 * the SQLite one, which has no `mode`, hence the cast.
 */
export function textFilter<Op extends TextOp>(op: Op, value: string): { [K in Op]: string } {
  if (isPostgres()) return { [op]: value, mode: "insensitive" } as unknown as { [K in Op]: string };
  return { [op]: value } as { [K in Op]: string };
}

/**
 * Text keys from outside (a repository reference, a path, a slug) that contain NUL can
 * match no stored row: paths and names never contain it. PostgreSQL rejects NUL in
 * text outright, so lookups answer "not found" before asking, on both databases.
 */
export function hasNul(value: string): boolean {
  return value.includes("\u0000");
}

/**
 * Free text to store (a question, a title): PostgreSQL text cannot hold NUL, so there
 * it becomes U+FFFD; SQLite stores the text as given.
 */
export function storableText(value: string): string {
  return isPostgres() && hasNul(value) ? value.replaceAll("\u0000", "\uFFFD") : value;
}

// ------------------------------------------------------------ full-text search

/** Whether chunk rows need explicit full-text index maintenance (SQLite's external-content FTS5 tables). */
export function ftsNeedsSync(): boolean {
  return !isPostgres();
}

/**
 * SQLite keeps one FTS5 table per repository, so BM25 ranks (and computes its
 * statistics over) that repository's chunks only, never every repository's.
 */
export function ftsTableName(repositoryId: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(repositoryId)) throw new Error(`invalid repository id ${repositoryId}`);
  return `chunk_fts_${repositoryId.replace(/-/g, "_")}`;
}

/**
 * Creates the repository's FTS5 table if missing (SQLite; PostgreSQL's stored vector
 * needs nothing). Its external content is a view of the repository's Chunk rows, so
 * FTS5's integrity check compares the index with exactly those rows.
 */
export async function ftsEnsureTable(client: Db, repositoryId: string): Promise<void> {
  if (!ftsNeedsSync()) return;
  const table = ftsTableName(repositoryId);
  await client.$executeRawUnsafe(
    `CREATE VIEW IF NOT EXISTS "${table}_rows" AS
       SELECT id, title, path, "searchText" FROM "Chunk" WHERE "repositoryId" = '${repositoryId}'`,
  );
  await client.$executeRawUnsafe(
    `CREATE VIRTUAL TABLE IF NOT EXISTS "${table}" USING fts5(
       title, path, searchText,
       content = '${table}_rows', content_rowid = 'id',
       tokenize = 'unicode61 remove_diacritics 2')`,
  );
}

/**
 * Creates and fills the FTS5 table of every repository that has none (SQLite): after
 * the migration that split the single index into one per repository.
 */
export async function ftsEnsureAllTables(client: Db): Promise<void> {
  if (!ftsNeedsSync()) return;
  const existing = new Set(await ftsTables(client));
  const repositories = await client.repository.findMany({ select: { id: true } });
  for (const { id } of repositories) {
    const table = ftsTableName(id);
    if (existing.has(table)) continue;
    await ftsEnsureTable(client, id);
    await client.$executeRawUnsafe(`INSERT INTO "${table}"("${table}") VALUES ('rebuild')`);
  }
}

/** Drops a repository's FTS5 table (its rows are being deleted). */
export async function ftsDropTable(client: Db, repositoryId: string): Promise<void> {
  if (!ftsNeedsSync()) return;
  const table = ftsTableName(repositoryId);
  await client.$executeRawUnsafe(`DROP TABLE IF EXISTS "${table}"`);
  await client.$executeRawUnsafe(`DROP VIEW IF EXISTS "${table}_rows"`);
}

/** Repositories whose FTS5 table exists (SQLite). */
async function ftsTables(client: Db): Promise<string[]> {
  const rows = await client.$queryRawUnsafe<{ name: string }[]>(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, 10) = 'chunk_fts_' AND sql LIKE 'CREATE VIRTUAL TABLE%'`,
  );
  return rows.map((r) => r.name);
}

export interface FtsSearchOptions {
  kinds?: string[];
  pathPrefix?: string;
  limit: number;
}

/**
 * The ranked full-text query over one snapshot's chunks: columns of "Chunk" as `c`
 * and `score` (higher is better). `match` is an FTS5 expression from
 * lib/search/tokenize.ts (quoted phrases joined by OR). SQLite: FTS5 BM25 over the
 * repository's table with weights title 2, path 1.5, text 1; only chunks of the
 * repository's kept generations are ranked (the current rows and the few a newer
 * build replaced), then filtered to the snapshot. PostgreSQL: the stored weighted
 * tsvector (title A, path B, searchText C) ranked by ts_rank with the same weights,
 * scaled to ts_rank's 0..1 (0.5, 0.75, 1). No length normalisation: without BM25's
 * IDF, dividing by length lifted one-line chunks that mention a common word above the
 * code that answers (the golden-question tests show it). Equal scores are ordered by
 * location, not by row id: which rows are shared depends on the build history, and
 * the order must not. Null when nothing is searchable.
 */
export function ftsSearchQuery(
  snapshot: Snapshot,
  match: string,
  options: FtsSearchOptions,
): { sql: string; params: unknown[] } | null {
  const columns = `c.id, c.path, c.kind, c."symbolId", c.title, c."startLine", c."endLine", c.text`;
  const filterParams: unknown[] = [];
  let filter = "";
  if (options.kinds?.length) {
    filter += ` AND c.kind IN (${options.kinds.map(() => "?").join(",")})`;
    filterParams.push(...options.kinds);
  }
  if (options.pathPrefix) {
    filter += ` AND c.path ${likeInsensitive()} ? ESCAPE '\\'`;
    filterParams.push(`${options.pathPrefix.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`);
  }
  const visible = `c."repositoryId" = ? AND ${noIndex(`c."fromGeneration"`)} <= ? AND ${noIndex(`c."toGeneration"`)} > ?`;
  const visibleParams = [snapshot.repositoryId, snapshot.number, snapshot.number];
  if (isPostgres()) {
    const tsquery = ftsMatchToTsQuery(match);
    if (!tsquery) return null;
    return {
      sql: `SELECT ${columns}, ts_rank('{0, 0.5, 0.75, 1.0}', c."searchVector", q.query, 0) AS score
       FROM "Chunk" c, to_tsquery('simple', ?) AS q(query)
      WHERE c."searchVector" @@ q.query AND ${visible}${filter}
      ORDER BY score DESC, c.path, c."startLine", c.id
      LIMIT ?`,
      params: [tsquery, ...visibleParams, ...filterParams, options.limit],
    };
  }
  if (!snapshot.repositoryId) return null;
  const table = ftsTableName(snapshot.repositoryId);
  return {
    sql: `SELECT ${columns},
            -bm25("${table}", 2.0, 1.5, 1.0) AS score
       FROM "${table}" JOIN "Chunk" c ON c.id = "${table}".rowid
      WHERE "${table}" MATCH ? AND ${visible}${filter}
      ORDER BY bm25("${table}", 2.0, 1.5, 1.0), c.path, c."startLine", c.id
      LIMIT ?`,
    params: [match, ...visibleParams, ...filterParams, options.limit],
  };
}

/** Indexes a repository's chunk rows from `fromId` on (SQLite; PostgreSQL's generated column needs nothing). */
export async function ftsSync(client: Db, repositoryId: string, fromId: number | null): Promise<void> {
  if (fromId === null || !ftsNeedsSync()) return;
  const table = ftsTableName(repositoryId);
  await client.$executeRawUnsafe(
    `INSERT INTO "${table}"(rowid, title, path, searchText)
     SELECT id, title, path, "searchText" FROM "Chunk" WHERE "repositoryId" = ? AND id >= ?`,
    repositoryId,
    fromId,
  );
}

/**
 * Removes chunk rows of a repository from its full-text index, before the rows
 * themselves go (SQLite only): the rows matching `condition` (SQL on "Chunk" with `?`
 * parameters).
 */
export async function ftsDeleteRows(
  client: Db,
  repositoryId: string,
  condition: string,
  ...params: unknown[]
): Promise<void> {
  if (!ftsNeedsSync()) return;
  const table = ftsTableName(repositoryId);
  await client.$executeRawUnsafe(
    `INSERT INTO "${table}"("${table}", rowid, title, path, searchText)
     SELECT 'delete', id, title, path, "searchText" FROM "Chunk" WHERE "repositoryId" = ? AND (${condition})`,
    repositoryId,
    ...params,
  );
}

/**
 * The stored search vector of a "Chunk" row on PostgreSQL, exactly as the migration
 * 20261122000000_init defines the generated column (a test holds them equal).
 * ASCII punctuation in title and path becomes spaces, where FTS5's unicode61 splits.
 */
export const PG_SEARCH_VECTOR_SQL = `setweight(to_tsvector('simple'::regconfig, translate("title", '!"#$%&''()*+,-./:;<=>?@[\\]^_\`{|}~', '                                ')), 'A') ||
    setweight(to_tsvector('simple'::regconfig, translate("path", '!"#$%&''()*+,-./:;<=>?@[\\]^_\`{|}~', '                                ')), 'B') ||
    setweight(to_tsvector('simple'::regconfig, "searchText"), 'C')`;

/**
 * Checks that the full-text index agrees with the Chunk table. SQLite: FTS5's
 * integrity-check with rank 1 compares each repository's index with its rows, so a
 * missed sync or delete throws. PostgreSQL: every stored vector equals the one its
 * row gives now. Throws on a mismatch.
 */
export async function ftsIntegrityCheck(client: Db): Promise<void> {
  if (!isPostgres()) {
    for (const table of await ftsTables(client)) {
      await client.$executeRawUnsafe(
        `INSERT INTO "${table}"("${table}", rank) VALUES ('integrity-check', 1)`,
      );
    }
    return;
  }
  const rows = await client.$queryRawUnsafe<{ n: number }[]>(
    `SELECT CAST(count(*) AS INTEGER) AS n FROM "Chunk" WHERE "searchVector" IS DISTINCT FROM (${PG_SEARCH_VECTOR_SQL})`,
  );
  const n = Number(rows[0]?.n ?? 0);
  if (n !== 0) throw new Error(`full-text index out of step with Chunk: ${n} rows differ`);
}

/** Chunk ids of any repository whose indexed text matches one plain word (tests, diagnostics). */
export async function ftsMatchIds(client: Db, word: string): Promise<number[]> {
  if (isPostgres()) {
    const rows = await client.$queryRawUnsafe<{ id: number }[]>(
      `SELECT id FROM "Chunk" WHERE "searchVector" @@ to_tsquery('simple', $1) ORDER BY id`,
      ftsMatchToTsQuery(`"${word}"`) ?? "",
    );
    return rows.map((r) => Number(r.id));
  }
  const ids: number[] = [];
  for (const table of await ftsTables(client)) {
    const rows = await client.$queryRawUnsafe<{ id: number }[]>(
      `SELECT rowid AS id FROM "${table}" WHERE "${table}" MATCH ? ORDER BY rowid`,
      `"${word}"`,
    );
    ids.push(...rows.map((r) => Number(r.id)));
  }
  return ids.sort((a, b) => a - b);
}

/**
 * Compares strings as `<` does (by UTF-16 code unit), the order SQLite's binary
 * collation and PostgreSQL's C collation give paths, unlike `localeCompare`.
 */
export function binaryOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
