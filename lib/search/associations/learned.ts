/**
 * The repository associations a generation reads (lib/db/associations-store.ts),
 * decoded once per stored row and kept while the process runs: rows never change, and
 * many generations read the same one.
 */
import "server-only";
import { associationsData, associationsFor } from "../../db/associations-store.ts";
import { decodeRepositoryAssociations, type RepositoryAssociations } from "./repository.ts";

/** Keyed by repository and row: a row id alone repeats across databases (tests open many). */
const decoded = new Map<string, RepositoryAssociations>();
const LIMIT = 16;

export async function repositoryAssociations(generationId: string): Promise<RepositoryAssociations | null> {
  const row = await associationsFor(generationId);
  if (!row) return null;
  const key = `${row.repositoryId}:${row.id}`;
  let associations = decoded.get(key);
  if (!associations) {
    const data = await associationsData(row.id);
    if (!data) return null;
    associations = decodeRepositoryAssociations(data);
    if (decoded.size >= LIMIT) decoded.delete(decoded.keys().next().value as string);
    decoded.set(key, associations);
  }
  return associations;
}
