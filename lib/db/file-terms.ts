/**
 * BM25 over whole files: the whole-file lexical channel, read from the FileTerm rows
 * (each file row's word counts) of one snapshot. Plain SQL, the same on SQLite and
 * PostgreSQL, so both rank files identically: textbook BM25 (k1 = 1.2, b = 0.75) with
 * the repository's own statistics, each query word's IDF multiplied by the weight the
 * caller gives it (query understanding weighs words; expansions weigh less).
 */
import "server-only";
import { db } from "./client.ts";
import { floatParam, likeInsensitive, queryRaw } from "./dialect.ts";
import { snapshotOf, visibleSql } from "./snapshot.ts";
import { repositoryTermSalt, termKey } from "./tokenize.ts";

export interface WeightedWord {
  word: string;
  /** multiplies the word's IDF; 1 for a word as asked */
  weight: number;
}

export interface FileScore {
  path: string;
  score: number;
}

export interface FileTermSearchOptions {
  limit?: number;
  /** only files under this path (statistics stay the repository's) */
  pathPrefix?: string;
  /** only files of this kind: `code` (parsed source) or `text` */
  kind?: "code" | "text";
}

const K1 = 1.2;
const B = 0.75;

/** BM25's inverse document frequency (never negative). */
export function bm25Idf(files: number, documentFrequency: number): number {
  return Math.log(1 + (files - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/**
 * Files ranked by BM25 of the weighted words, best first; files that hold none of them
 * are left out. Words are compared as the index stores them (lower case, identifier
 * parts and whole identifiers), so callers pass words from lib/db/tokenize.ts.
 */
export async function bm25Files(
  generationId: string,
  words: WeightedWord[],
  options: FileTermSearchOptions = {},
): Promise<FileScore[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const salt = repositoryTermSalt(snapshot.repositoryId);
  const weights = new Map<number, number>();
  for (const { word, weight } of words) {
    if (!(weight > 0)) continue;
    const key = termKey(word, salt);
    weights.set(key, Math.max(weights.get(key) ?? 0, weight));
  }
  if (weights.size === 0) return [];
  const visible = visibleSql(snapshot, "f");
  const keys = [...weights.keys()];
  const keyList = `(VALUES ${keys.map(() => "(CAST(? AS INTEGER))").join(", ")})`;
  const [{ files, averageWords }, frequencies] = await Promise.all([
    fileStatistics(generationId),
    queryRaw<{ term: number; df: number | bigint }[]>(
      client,
      `WITH q(term) AS ${keyList}
       SELECT t.term AS term, COUNT(*) AS df
         FROM q JOIN "FileTerm" t ON t.term = q.term JOIN "File" f ON f.id = t."fileId"
        WHERE ${visible.sql}
        GROUP BY t.term`,
      ...keys,
      ...visible.params,
    ),
  ]);
  if (files === 0 || averageWords <= 0) return [];
  const scored = frequencies.map((r) => ({
    term: Number(r.term),
    weight: bm25Idf(files, Number(r.df)) * (weights.get(Number(r.term)) ?? 0),
  }));
  if (scored.length === 0) return [];
  const float = floatParam();
  const filter: { sql: string; params: string[] } = { sql: "", params: [] };
  if (options.pathPrefix) {
    filter.sql += ` AND f.path ${likeInsensitive()} ? ESCAPE '\\'`;
    filter.params.push(likePrefix(options.pathPrefix));
  }
  if (options.kind) {
    filter.sql += " AND f.kind = ?";
    filter.params.push(options.kind);
  }
  const rows = await queryRaw<{ path: string; score: number }[]>(
    client,
    `WITH q(term, weight) AS (VALUES ${scored.map(() => `(CAST(? AS INTEGER), ${float})`).join(", ")})
     SELECT f.path AS path,
            SUM(q.weight * t.count * ${K1 + 1} / (t.count + ${K1} * (${1 - B} + ${B} * f.words / ${float}))) AS score
       FROM q JOIN "FileTerm" t ON t.term = q.term JOIN "File" f ON f.id = t."fileId"
      WHERE ${visible.sql}${filter.sql}
      GROUP BY f.path
      ORDER BY score DESC, f.path
      LIMIT ?`,
    ...scored.flatMap((s) => [s.term, s.weight]),
    averageWords,
    ...visible.params,
    ...filter.params,
    options.limit ?? 50,
  );
  return rows.map((r) => ({ path: r.path, score: Number(r.score) }));
}

/**
 * For each word, the files whose text holds it (as the index stores words: a
 * whole identifier lower-cased, `JsonParser` → `jsonparser`): who mentions a type by
 * name, which a language lets a file do without importing it.
 */
export async function filesMentioning(generationId: string, words: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const unique = [...new Set(words)];
  if (unique.length === 0) return out;
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const salt = repositoryTermSalt(snapshot.repositoryId);
  const byKey = new Map<number, string[]>();
  for (const word of unique) {
    const key = termKey(word, salt);
    byKey.set(key, [...(byKey.get(key) ?? []), word]);
  }
  const visible = visibleSql(snapshot, "f");
  const keys = [...byKey.keys()];
  for (let i = 0; i < keys.length; i += MENTION_BATCH) {
    const batch = keys.slice(i, i + MENTION_BATCH);
    const rows = await queryRaw<{ term: number; path: string }[]>(
      client,
      `WITH q(term) AS (VALUES ${batch.map(() => "(CAST(? AS INTEGER))").join(", ")})
       SELECT t.term AS term, f.path AS path
         FROM q JOIN "FileTerm" t ON t.term = q.term JOIN "File" f ON f.id = t."fileId"
        WHERE ${visible.sql}`,
      ...batch,
      ...visible.params,
    );
    for (const r of rows)
      for (const word of byKey.get(Number(r.term)) ?? []) {
        const list = out.get(word);
        if (list) list.push(r.path);
        else out.set(word, [r.path]);
      }
  }
  return out;
}

const MENTION_BATCH = 400;

/** A generation's file count and average length in words, read once: a generation questions read never changes. */
const statistics = new Map<string, Promise<{ files: number; averageWords: number }>>();
const STATISTICS_KEPT = 64;

function fileStatistics(generationId: string): Promise<{ files: number; averageWords: number }> {
  let hit = statistics.get(generationId);
  if (!hit) {
    hit = (async () => {
      const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
      const visible = visibleSql(snapshot, "f");
      const rows = await queryRaw<{ n: number | bigint; average: number | null }[]>(
        client,
        `SELECT COUNT(*) AS n, AVG(f.words) AS average FROM "File" f WHERE ${visible.sql}`,
        ...visible.params,
      );
      return { files: Number(rows[0]?.n ?? 0), averageWords: Number(rows[0]?.average ?? 0) };
    })();
    // A failed read is not kept: the next search asks again.
    hit.catch(() => statistics.delete(generationId));
    if (statistics.size >= STATISTICS_KEPT) statistics.delete(statistics.keys().next().value as string);
    statistics.set(generationId, hit);
  }
  return hit;
}

function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
