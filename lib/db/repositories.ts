/**
 * Indexed repositories: creating one (a folder, or the clone of a Git source, with its
 * FTS5 table), finding one by id, name or root path, and deleting one with every row
 * of its index.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { WayfinderError } from "../errors.ts";
import { db } from "./client.ts";
import { deleteCoChanges } from "./co-change.ts";
import { ftsDropTable, ftsEnsureTable, hasNul, isPostgres } from "./dialect.ts";
import { RANGED_TABLES, deleteFileTerms } from "./index-rows.ts";

export interface RepositoryRow {
  id: string;
  name: string;
  rootPath: string;
  activeGenerationId: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** folder | git (lib/sources) */
  sourceKind?: string;
  gitUrl?: string | null;
  gitBranch?: string | null;
  pollMinutes?: number | null;
}

export async function createRepository(input: {
  name: string;
  rootPath: string;
  /** a Git source: the credential-free remote URL and the branch followed (null: the default branch) */
  git?: { id: string; url: string; branch: string | null };
}): Promise<RepositoryRow> {
  const client = await db();
  const find = () =>
    client.repository.findFirst({ where: { OR: [{ name: input.name }, { rootPath: input.rootPath }] } });
  const existingOrConflict = (existing: RepositoryRow) => {
    if (existing.rootPath === input.rootPath) return existing;
    throw new WayfinderError(
      "conflict:repo_name",
      `A repository named "${input.name}" already exists for ${existing.rootPath}. Choose another name.`,
    );
  };
  const existing = await find();
  if (existing) return existingOrConflict(existing);
  try {
    const { git, ...folder } = input;
    const created = await client.repository.create({
      data: git
        ? { ...folder, id: git.id, sourceKind: "git", gitUrl: git.url, gitBranch: git.branch }
        : { ...folder, id: randomUUID().slice(0, 12) },
    });
    await ftsEnsureTable(client, created.id);
    return created;
  } catch (error) {
    // Two first-time index requests for one folder race here: the loser sees the winner's row.
    const raced = (error as { code?: string }).code === "P2002" ? await find() : null;
    if (raced) return existingOrConflict(raced);
    throw error;
  }
}

export async function listRepositories(): Promise<RepositoryRow[]> {
  const client = await db();
  return client.repository.findMany({ orderBy: { createdAt: "asc" } });
}

/** The repository with this id (not a name or a path), or null. */
export async function getRepository(id: string): Promise<RepositoryRow | null> {
  if (hasNul(id)) return null;
  const client = await db();
  return client.repository.findUnique({ where: { id } });
}

/** Finds a repository by id, name or root path. */
export async function findRepository(ref: string): Promise<RepositoryRow | null> {
  if (hasNul(ref)) return null;
  const client = await db();
  return client.repository.findFirst({ where: { OR: [{ id: ref }, { name: ref }, { rootPath: ref }] } });
}

export async function requireRepository(ref: string): Promise<RepositoryRow> {
  const repo = await findRepository(ref);
  if (!repo) throw new WayfinderError("not_found:repository", `No indexed repository "${ref}".`);
  return repo;
}

export async function deleteRepository(id: string): Promise<void> {
  const client = await db();
  const generations = await client.indexGeneration.findMany({
    where: { repositoryId: id },
    select: { id: true },
  });
  await ftsDropTable(client, id);
  await deleteFileTerms(client, id, "1 = 1");
  await client.termAssociations.deleteMany({ where: { repositoryId: id } });
  for (const table of RANGED_TABLES) {
    await client.$executeRawUnsafe(
      `DELETE FROM "${table}" WHERE "repositoryId" = ${isPostgres() ? "$1" : "?"}`,
      id,
    );
  }
  await client.finding.deleteMany({ where: { generationId: { in: generations.map((g) => g.id) } } });
  await deleteCoChanges(id);
  await client.repository.delete({ where: { id } });
}
