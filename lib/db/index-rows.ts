/**
 * What the code-index store's modules share: the batch size of their statements, the
 * tables whose rows carry a generation range (lib/db/snapshot.ts), and the deletion of
 * a file row's whole-file term counts, which must go before the file rows they count.
 */
import "server-only";
import type { Db } from "./client.ts";
import { executeRaw } from "./dialect.ts";

const BATCH = 400;

export function chunks<T>(items: T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The index tables whose rows carry a generation range (lib/db/snapshot.ts). */
export const RANGED_TABLES = ["Chunk", "Symbol", "Edge", "File", "WikiPage"] as const;

/** Deletes the FileTerm rows of a repository's file rows matching `condition` (SQL on "File"), before those go. */
export async function deleteFileTerms(
  client: Db,
  repositoryId: string,
  condition: string,
  ...params: unknown[]
): Promise<void> {
  await executeRaw(
    client,
    `DELETE FROM "FileTerm" WHERE "fileId" IN (SELECT id FROM "File" WHERE "repositoryId" = ? AND (${condition}))`,
    repositoryId,
    ...params,
  );
}
