/**
 * Co-change: how often files changed together in a repository's git history
 * (`CoChange`), and the commit up to which that history is folded in (`CoChangeHead`).
 * Builds add the commits since the last one (lib/builds/history.ts); retrieval reads
 * the files that changed most often with a top-ranked file.
 */
import "server-only";
import { db, type Db } from "./client.ts";
import { executeRaw, queryRaw } from "./dialect.ts";

export interface CoChangeRow {
  path: string;
  partner: string;
  /** commits that changed both */
  count: number;
  /** commits that changed `path` */
  changes: number;
}

export async function coChangeHead(
  repositoryId: string,
): Promise<{ commitSha: string; commits: number } | null> {
  const client = await db();
  return client.coChangeHead.findUnique({
    where: { repositoryId },
    select: { commitSha: true, commits: true },
  });
}

/** Rows per statement: SQLite allows 32766 parameters, PostgreSQL 65535. */
const BATCH = 2000;

/**
 * Adds commits to a repository's co-change counts and moves its head there, in one
 * transaction; `replace` drops the counts first (the history was rewritten). Each commit
 * is the list of files it changed.
 */
export async function foldCoChanges(
  repositoryId: string,
  input: { commits: string[][]; head: string; replace: boolean },
): Promise<void> {
  const counts = new Map<string, number>();
  const bump = (a: string, b: string) => {
    const key = `${a}\n${b}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  for (const files of input.commits) {
    for (const a of files) {
      bump(a, a);
      for (const b of files) if (a !== b) bump(a, b);
    }
  }
  const rows = [...counts].map(([key, count]) => {
    const [path, partner] = key.split("\n") as [string, string];
    return { path, partner, count };
  });
  const client = await db();
  await client.$transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    if (input.replace) await tx.coChange.deleteMany({ where: { repositoryId } });
    for (let i = 0; i < rows.length; i += BATCH) {
      const batch = rows.slice(i, i + BATCH);
      await executeRaw(
        tx,
        `INSERT INTO "CoChange" ("repositoryId", path, partner, count) VALUES ${batch.map(() => "(?, ?, ?, ?)").join(", ")}
         ON CONFLICT ("repositoryId", path, partner) DO UPDATE SET count = "CoChange".count + excluded.count`,
        ...batch.flatMap((r) => [repositoryId, r.path, r.partner, r.count]),
      );
    }
    const previous = input.replace
      ? 0
      : ((await tx.coChangeHead.findUnique({ where: { repositoryId } }))?.commits ?? 0);
    await tx.coChangeHead.upsert({
      where: { repositoryId },
      create: { repositoryId, commitSha: input.head, commits: input.commits.length },
      update: { commitSha: input.head, commits: previous + input.commits.length },
    });
  });
}

/** The files that changed together with each given file, most often first. */
export async function coChangesOf(
  repositoryId: string,
  paths: string[],
  minCount = 2,
): Promise<Map<string, CoChangeRow[]>> {
  const files = [...new Set(paths)];
  const out = new Map<string, CoChangeRow[]>(files.map((p) => [p, []]));
  if (files.length === 0) return out;
  const client = await db();
  const rows = await queryRaw<{ path: string; partner: string; count: number }[]>(
    client,
    `SELECT path, partner, count FROM "CoChange"
     WHERE "repositoryId" = ? AND path IN (${files.map(() => "?").join(",")}) AND (count >= ? OR path = partner)
     ORDER BY count DESC`,
    repositoryId,
    ...files,
    minCount,
  );
  const changes = new Map(rows.filter((r) => r.path === r.partner).map((r) => [r.path, Number(r.count)]));
  for (const r of rows) {
    if (r.path === r.partner) continue;
    out.get(r.path)?.push({
      path: r.path,
      partner: r.partner,
      count: Number(r.count),
      changes: changes.get(r.path) ?? Number(r.count),
    });
  }
  return out;
}

/** Forgets a repository's history (the repository is being removed). */
export async function deleteCoChanges(repositoryId: string): Promise<void> {
  const client = await db();
  await client.coChange.deleteMany({ where: { repositoryId } });
  await client.coChangeHead.deleteMany({ where: { repositoryId } });
}
