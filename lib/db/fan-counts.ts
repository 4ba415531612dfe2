/**
 * Fan-in and fan-out of a build's symbols: how many distinct symbols call each one and
 * how many it calls, over the generation's call edges, leaving out edges that touch
 * vendored, generated or minified files. A symbol whose counts change gets a new row in
 * the building generation (rows are shared between generations, lib/db/snapshot.ts).
 */
import "server-only";
import type { Db } from "./client.ts";
import { executeRaw, isPostgres, queryRaw } from "./dialect.ts";
import { visibleSql, type Snapshot } from "./snapshot.ts";
import { chunks } from "./index-rows.ts";
import { SYMBOL_COLUMNS, withBuild } from "./build-writes.ts";

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
