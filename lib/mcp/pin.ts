/**
 * What every repository-scoped tool does first: pin the repository's serving
 * generation, so the whole call reads one generation's rows, and say which generation
 * and commit it answered from.
 */
import "server-only";
import { getGeneration } from "../db/generations.ts";
import { requireRepository, type RepositoryRow } from "../db/repositories.ts";
import { WayfinderError } from "../errors.ts";

/** Which index a result comes from: the generation and, when known, its commit. */
export interface IndexRef {
  repositoryId: string;
  repository: string;
  generation: number;
  commit: string | null;
}

export interface Pinned {
  repository: RepositoryRow;
  generationId: string;
  index: IndexRef;
}

/** The repository (id, name or path) and the generation it serves; refused when it has none yet. */
export async function pin(ref: string): Promise<Pinned> {
  const repository = await requireRepository(ref);
  const generationId = repository.activeGenerationId;
  const generation = generationId ? await getGeneration(generationId) : null;
  if (!generationId || !generation) {
    throw new WayfinderError(
      "conflict:not_indexed",
      `Repository "${repository.name}" has no finished index yet.`,
    );
  }
  return {
    repository,
    generationId,
    index: {
      repositoryId: repository.id,
      repository: repository.name,
      generation: generation.number,
      commit: generation.commitSha ?? null,
    },
  };
}

/** Where a repository's content comes from: a folder, or a Git remote and branch. */
export function sourceOf(r: RepositoryRow) {
  return r.sourceKind === "git"
    ? { kind: "git" as const, url: r.gitUrl ?? null, branch: r.gitBranch ?? null }
    : { kind: "folder" as const, url: null, branch: null };
}
