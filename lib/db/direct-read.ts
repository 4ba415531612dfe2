/**
 * The reads a question makes by the hundred (symbols by id or name, a symbol's callers
 * and callees, a file's text), on SQLite straight from the connection. Prisma's query
 * pipeline (compiling the query, copying parameters and rows through JSON) cost about
 * four times the query itself — 2.8 ms of CPU against 0.7 ms for fifteen symbols by id —
 * and was most of an offline answer's time. The rows a generation reads never change
 * once it is active, so a read that runs while a transaction holds the connection (a
 * build's, a session's) reads the same rows. Null on PostgreSQL: the caller reads
 * through Prisma.
 */
import "server-only";
import type { InValue } from "@libsql/client";
import { sqliteConnection } from "./client.ts";
import type { Snapshot } from "./snapshot.ts";

export async function directRows(sql: string, params: InValue[]): Promise<Record<string, unknown>[] | null> {
  const connection = sqliteConnection();
  if (!connection) return null;
  const result = await connection.execute({ sql, args: params });
  const { columns } = result;
  return result.rows.map((row) => {
    const out: Record<string, unknown> = {};
    columns.forEach((column, i) => (out[column] = row[i]));
    return out;
  });
}

/**
 * The rows a snapshot reads, written as Prisma writes `visibleIn` (no column kept from the
 * planner), so a direct read takes the same index, and gives rows in the same order, as
 * the Prisma read it stands in for.
 */
export function visibleWhere(s: Snapshot, alias?: string): { sql: string; params: [string, number, number] } {
  const a = alias ? `${alias}.` : "";
  return {
    sql: `${a}"repositoryId" = ? AND ${a}"fromGeneration" <= ? AND ${a}"toGeneration" > ?`,
    params: [s.repositoryId, s.number, s.number],
  };
}
