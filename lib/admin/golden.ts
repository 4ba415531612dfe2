/**
 * Golden questions: per repository, questions whose answers must cite certain files.
 * A run asks each one through the real engine (the admin's settings and model) and
 * passes when every expected file is among the verified citations' paths. Runs are
 * kept as history, so a quality drop after a re-index or a settings change shows up.
 * Runs happen after each successful re-index (web and CLI) and on demand.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import {
  createGoldenQuestion,
  deleteGoldenQuestion,
  getRepositoryBrief,
  listGoldenQuestions,
  listGoldenRuns,
  listRepositoryBriefs,
  pathsMissingFromGeneration,
  recordGoldenRun,
  type GoldenQuestionRow,
  type GoldenRunRow,
} from "../db/admin-store.ts";
import { WayfinderError } from "../errors.ts";
import { QUERY_MODE_LIST, type CitationPart, type QueryMode } from "../qa/types.ts";
import { InvalidFieldsError } from "./invalid-fields.ts";

export type GoldenTrigger = "reindex" | "manual";

/** A stored run as the page shows it: file lists parsed, the time as ISO text. */
export type GoldenRunView = Omit<
  GoldenRunRow,
  "goldenQuestionId" | "citedFiles" | "missingFiles" | "createdAt"
> & {
  citedFiles: string[];
  missingFiles: string[];
  createdAt: string;
};

/** A stored question as the page shows it, with its latest runs. */
export type GoldenQuestionView = Omit<GoldenQuestionRow, "mode" | "expectedFiles" | "createdAt"> & {
  mode: QueryMode | null;
  expectedFiles: string[];
  createdAt: string;
  /** newest first */
  runs: GoldenRunView[];
};

export interface GoldenListView {
  repositories: { id: string; name: string; indexed: boolean }[];
  repositoryId: string | null;
  questions: GoldenQuestionView[];
  running: boolean;
}

/** How many runs per question the page shows (the sparkline). */
export const HISTORY_LENGTH = 20;

// --------------------------------------------------------------- pure parts

/** Repository-relative, forward slashes, no leading `./` or `/`: how citations name files. */
export function normalizeRepoPath(raw: string): string {
  return raw
    .trim()
    .replace(/\\/g, "/")
    .replace(/^(\.\/)+/, "")
    .replace(/^\/+/, "")
    .replace(/\/{2,}/g, "/");
}

/** Pass when every expected file is among the verified citations; unverified ones never count. */
export function judgeCitations(
  expected: string[],
  citations: Pick<CitationPart, "path" | "verified">[],
): { passed: boolean; cited: string[]; missing: string[] } {
  const cited = [
    ...new Set(citations.filter((c) => c.verified).map((c) => normalizeRepoPath(c.path))),
  ].sort();
  const have = new Set(cited);
  const missing = expected.map(normalizeRepoPath).filter((p) => !have.has(p));
  return { passed: missing.length === 0, cited, missing };
}

function parseList(json: string): string[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

function runView(run: GoldenRunRow): GoldenRunView {
  return {
    id: run.id,
    generationId: run.generationId,
    trigger: run.trigger,
    passed: run.passed,
    citedFiles: parseList(run.citedFiles),
    missingFiles: parseList(run.missingFiles),
    durationMs: run.durationMs,
    error: run.error,
    createdAt: run.createdAt.toISOString(),
  };
}

function questionView(q: GoldenQuestionRow, runs: GoldenRunRow[]): GoldenQuestionView {
  return {
    id: q.id,
    repositoryId: q.repositoryId,
    question: q.question,
    mode: q.mode && (QUERY_MODE_LIST as readonly string[]).includes(q.mode) ? (q.mode as QueryMode) : null,
    expectedFiles: parseList(q.expectedFiles),
    createdAt: q.createdAt.toISOString(),
    runs: runs.filter((r) => r.goldenQuestionId === q.id).map(runView),
  };
}

// ------------------------------------------------------------ in-flight runs

// Runs in this process by repository id, on globalThis so a dev hot reload keeps them.
const globalForGolden = globalThis as unknown as {
  wayfinderGoldenRuns?: Map<string, Promise<GoldenRunView[]>>;
};
const inFlight = (globalForGolden.wayfinderGoldenRuns ??= new Map());

export function isGoldenRunInProgress(repositoryId: string): boolean {
  return inFlight.has(repositoryId);
}

// -------------------------------------------------------------------- service

export async function listGolden(repositoryId: string | null): Promise<GoldenListView> {
  const repositories = await listRepositoryBriefs();
  const selected = repositories.find((r) => r.id === repositoryId) ?? repositories[0] ?? null;
  const questions = selected ? await listGoldenQuestions({ repositoryId: selected.id }) : [];
  const runs = await listGoldenRuns({ questionIds: questions.map((q) => q.id), perQuestion: HISTORY_LENGTH });
  return {
    repositories: repositories.map((r) => ({
      id: r.id,
      name: r.name,
      indexed: r.activeGenerationId !== null,
    })),
    repositoryId: selected?.id ?? null,
    questions: questions.map((q) => questionView(q, runs)),
    running: selected ? isGoldenRunInProgress(selected.id) : false,
  };
}

export async function addGoldenQuestion(input: {
  repositoryId: string;
  question: string;
  mode: QueryMode | null;
  expectedFiles: string[];
}): Promise<GoldenQuestionView> {
  const repository = await getRepositoryBrief(input.repositoryId);
  if (!repository) throw new WayfinderError("not_found:repository", "No such repository.");
  const expectedFiles = [...new Set(input.expectedFiles.map(normalizeRepoPath).filter(Boolean))];
  if (!expectedFiles.length) {
    throw new InvalidFieldsError("golden", [
      { key: "expectedFiles", message: "Name at least one file the answer must cite." },
    ]);
  }
  // A typo would make the question fail forever; refuse paths the index does not have.
  if (repository.activeGenerationId) {
    const missing = await pathsMissingFromGeneration(repository.activeGenerationId, expectedFiles);
    if (missing.length) {
      throw new InvalidFieldsError("golden", [
        { key: "expectedFiles", message: `Not in the index of ${repository.name}: ${missing.join(", ")}.` },
      ]);
    }
  }
  const row = await createGoldenQuestion({
    id: randomUUID(),
    repositoryId: repository.id,
    question: input.question.trim(),
    mode: input.mode,
    expectedFiles,
  });
  return questionView(row, []);
}

export async function removeGoldenQuestion(id: string): Promise<void> {
  if (!(await deleteGoldenQuestion(id)))
    throw new WayfinderError("not_found:golden", "No such golden question.");
}

const silentWriter = { write: () => undefined };

async function runOne(
  question: GoldenQuestionRow,
  generationId: string,
  trigger: GoldenTrigger,
): Promise<GoldenRunView> {
  const started = performance.now();
  const expected = parseList(question.expectedFiles);
  let outcome: {
    passed: boolean;
    cited: string[];
    missing: string[];
    error: string | null;
    generationId: string;
  };
  try {
    // Loaded on first use: an index run (CLI or worker) whose repository has no golden
    // questions never loads the question engine.
    const { askQuestion } = await import("../qa/ask.ts");
    // Ephemeral: golden runs are checks, not traffic; they write no session or metrics row.
    const result = await askQuestion(
      {
        repository: question.repositoryId,
        question: question.question,
        overrides: question.mode ? { mode: question.mode as QueryMode } : undefined,
      },
      silentWriter,
      { ephemeral: true },
    );
    outcome = {
      ...judgeCitations(expected, result.citations),
      error: null,
      generationId: result.metadata.generationId,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    outcome = { passed: false, cited: [], missing: expected, error: message.slice(0, 500), generationId };
  }
  const run = await recordGoldenRun({
    goldenQuestionId: question.id,
    generationId: outcome.generationId,
    trigger,
    passed: outcome.passed,
    citedFiles: outcome.cited,
    missingFiles: outcome.missing,
    durationMs: Math.round(performance.now() - started),
    error: outcome.error,
  });
  return runView(run);
}

/**
 * Runs a repository's golden questions (or one of them) one after another and
 * records each run. A second request while a run is going joins it instead of
 * starting another.
 */
export function runGoldenQuestions(input: {
  repositoryId: string;
  trigger: GoldenTrigger;
  questionId?: string;
}): Promise<GoldenRunView[]> {
  const current = inFlight.get(input.repositoryId);
  // A re-index must be checked against the new generation: wait for the running set, then go again.
  if (current && input.trigger === "reindex") {
    return current.catch(() => []).then(() => runGoldenQuestions(input));
  }
  if (current) return current;
  const job = (async () => {
    const repository = await getRepositoryBrief(input.repositoryId);
    if (!repository) throw new WayfinderError("not_found:repository", "No such repository.");
    const questions = (await listGoldenQuestions({ repositoryId: repository.id })).filter(
      (q) => !input.questionId || q.id === input.questionId,
    );
    if (input.questionId && !questions.length) {
      throw new WayfinderError("not_found:golden", "No such golden question.");
    }
    if (!questions.length) return [];
    const runs: GoldenRunView[] = [];
    for (const q of questions) runs.push(await runOne(q, repository.activeGenerationId ?? "", input.trigger));
    return runs;
  })().finally(() => inFlight.delete(input.repositoryId));
  inFlight.set(input.repositoryId, job);
  return job;
}

/** The re-index hook (web jobs and CLI): runs the set and never throws into the build. */
export async function runGoldenAfterReindex(
  repositoryId: string,
): Promise<{ total: number; passed: number } | null> {
  try {
    const runs = await runGoldenQuestions({ repositoryId, trigger: "reindex" });
    if (!runs.length) return null;
    return { total: runs.length, passed: runs.filter((r) => r.passed).length };
  } catch (error) {
    console.error(`[wayfinder] golden questions after re-index of ${repositoryId} failed:`, error);
    return null;
  }
}
