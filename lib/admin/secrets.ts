/**
 * The admins' list of what indexing kept out: per repository, the secret files skipped
 * and the secrets redacted in its serving generation, by path, line and rule (never
 * the values, which were never stored).
 */
import "server-only";
import { generationNumber, getGeneration } from "../db/generations.ts";
import { listRepositories } from "../db/repositories.ts";
import { emptySecretReport, type SecretReport } from "../indexer/secrets.ts";

export interface RepositorySecrets {
  repositoryId: string;
  name: string;
  /** the serving generation's number (null: not indexed yet) */
  generation: number | null;
  /** null when that generation predates secret detection (re-index to see it) */
  secrets: SecretReport | null;
}

export async function loadSecretReports(): Promise<RepositorySecrets[]> {
  const out: RepositorySecrets[] = [];
  for (const repository of await listRepositories()) {
    const generation = repository.activeGenerationId
      ? await getGeneration(repository.activeGenerationId)
      : null;
    let secrets: SecretReport | null = generation ? emptySecretReport() : null;
    if (generation) {
      try {
        secrets = (JSON.parse(generation.stats) as { secrets?: SecretReport }).secrets ?? null;
      } catch {
        secrets = null;
      }
    }
    out.push({
      repositoryId: repository.id,
      name: repository.name,
      generation: generation ? generationNumber(generation) : null,
      secrets,
    });
  }
  return out;
}
