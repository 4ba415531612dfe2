/**
 * How files of one generation depend on each other, counted from the resolved edges:
 * calls, inheritance and imports (includes) between a few given files and every other
 * file, in both directions. Retrieval reads these to bring up the files a change to a
 * top-ranked file usually touches too (its header, the interface it implements, the
 * wrapper that delegates to it).
 */
import "server-only";
import { db } from "./client.ts";
import { queryRaw } from "./dialect.ts";
import { snapshotOf, visibleSql } from "./snapshot.ts";

export type RelationKind = "calls" | "inherits" | "imports";

export interface FileRelation {
  /** one of the files asked about */
  path: string;
  /** the file at the other end */
  other: string;
  kind: RelationKind;
  /** `out`: `path` calls, extends or imports `other`; `in`: the other way round */
  direction: "out" | "in";
  /** resolved edges between the two */
  count: number;
}

const KINDS = "('calls', 'inherits', 'imports')";

function placeholders(n: number): string {
  return Array.from({ length: n }, () => "?").join(",");
}

/**
 * Edges between the given files and all others, grouped per pair, kind and direction.
 * Incoming edges are found by their target symbol (`dstId` is indexed; calls and
 * inheritance name a symbol, imports the file itself).
 */
export async function fileRelations(generationId: string, paths: string[]): Promise<FileRelation[]> {
  const files = [...new Set(paths)];
  if (files.length === 0) return [];
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const edges = visibleSql(snapshot, "e");
  const symbols = visibleSql(snapshot, "s");
  const outgoing = await queryRaw<{ path: string; other: string; kind: RelationKind; count: number }[]>(
    client,
    `SELECT e."srcPath" AS path, e."dstPath" AS other, e.kind AS kind, COUNT(*) AS count
     FROM "Edge" e
     WHERE ${edges.sql} AND e."srcPath" IN (${placeholders(files.length)}) AND e.kind IN ${KINDS}
       AND e."dstPath" IS NOT NULL AND e."dstPath" <> e."srcPath"
     GROUP BY e."srcPath", e."dstPath", e.kind`,
    ...edges.params,
    ...files,
  );
  const targets = await queryRaw<{ qualifiedId: string; path: string }[]>(
    client,
    `SELECT s."qualifiedId" AS "qualifiedId", s.path AS path FROM "Symbol" s
     WHERE ${symbols.sql} AND s.path IN (${placeholders(files.length)})`,
    ...symbols.params,
    ...files,
  );
  const ids = [...targets.map((t) => t.qualifiedId), ...files];
  const incoming: { path: string; other: string; kind: RelationKind; count: number }[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const batch = ids.slice(i, i + 500);
    incoming.push(
      ...(await queryRaw<{ path: string; other: string; kind: RelationKind; count: number }[]>(
        client,
        `SELECT e."dstPath" AS path, e."srcPath" AS other, e.kind AS kind, COUNT(*) AS count
         FROM "Edge" e
         WHERE ${edges.sql} AND e.kind IN ${KINDS} AND e."dstId" IN (${placeholders(batch.length)})
           AND e."dstPath" IS NOT NULL AND e."dstPath" <> e."srcPath"
         GROUP BY e."dstPath", e."srcPath", e.kind`,
        ...edges.params,
        ...batch,
      )),
    );
  }
  const merged = new Map<string, FileRelation>();
  const add = (
    r: { path: string; other: string; kind: RelationKind; count: number },
    direction: "out" | "in",
  ) => {
    const key = `${r.path}\n${r.other}\n${r.kind}\n${direction}`;
    const existing = merged.get(key);
    if (existing) existing.count += Number(r.count);
    else merged.set(key, { path: r.path, other: r.other, kind: r.kind, direction, count: Number(r.count) });
  };
  for (const r of outgoing) add(r, "out");
  for (const r of incoming) add(r, "in");
  return [...merged.values()];
}

/**
 * For each given file, how many resolved calls it makes into other files, and how many
 * files import (include) it: the totals that say whether a relation is a large share.
 */
export async function fileDegrees(
  generationId: string,
  paths: string[],
): Promise<Map<string, { callsOut: number; importers: number }>> {
  const files = [...new Set(paths)];
  const out = new Map(files.map((p) => [p, { callsOut: 0, importers: 0 }]));
  if (files.length === 0) return out;
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const edges = visibleSql(snapshot, "e");
  const calls = await queryRaw<{ path: string; count: number }[]>(
    client,
    `SELECT e."srcPath" AS path, COUNT(*) AS count FROM "Edge" e
     WHERE ${edges.sql} AND e."srcPath" IN (${placeholders(files.length)}) AND e.kind = 'calls'
       AND e."dstPath" IS NOT NULL AND e."dstPath" <> e."srcPath"
     GROUP BY e."srcPath"`,
    ...edges.params,
    ...files,
  );
  const importers = await queryRaw<{ path: string; count: number }[]>(
    client,
    `SELECT e."dstId" AS path, COUNT(DISTINCT e."srcPath") AS count FROM "Edge" e
     WHERE ${edges.sql} AND e.kind = 'imports' AND e."dstId" IN (${placeholders(files.length)})
     GROUP BY e."dstId"`,
    ...edges.params,
    ...files,
  );
  for (const r of calls) {
    const entry = out.get(r.path);
    if (entry) entry.callsOut = Number(r.count);
  }
  for (const r of importers) {
    const entry = out.get(r.path);
    if (entry) entry.importers = Number(r.count);
  }
  return out;
}
