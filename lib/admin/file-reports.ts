/**
 * The admins' file report: per repository, what its serving generation holds by file
 * class (vendored, generated, minified, documentation: counts, and the first files of
 * each with the rule that decided), and the files the build skipped or indexed as text,
 * with why. Read from the generation's build stats and its file rows.
 */
import "server-only";
import { classifiedFiles, type ClassifiedFile } from "../db/index-reads.ts";
import { generationNumber, getGeneration } from "../db/generations.ts";
import { listRepositories } from "../db/repositories.ts";
import { buildReportOf, type BuildReport } from "../db/build-report.ts";

/** Files of each class listed by path (the counts are complete). */
export const LISTED_PER_CLASS = 10;

export interface RepositoryFileReport {
  repositoryId: string;
  name: string;
  /** the serving generation's number (null: not indexed yet) */
  generation: number | null;
  files: number;
  report: BuildReport | null;
  /** the first files of each class, by path */
  classified: ClassifiedFile[];
}

function statsOf(json: string): Record<string, unknown> {
  try {
    return JSON.parse(json) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export async function loadFileReports(): Promise<RepositoryFileReport[]> {
  const out: RepositoryFileReport[] = [];
  for (const repository of await listRepositories()) {
    const generation = repository.activeGenerationId
      ? await getGeneration(repository.activeGenerationId)
      : null;
    const stats = generation ? statsOf(generation.stats) : {};
    out.push({
      repositoryId: repository.id,
      name: repository.name,
      generation: generation ? generationNumber(generation) : null,
      files: typeof stats.files === "number" ? stats.files : 0,
      report: generation ? buildReportOf(stats) : null,
      classified: generation ? await classifiedFiles(generation.id, LISTED_PER_CLASS) : [],
    });
  }
  return out;
}
