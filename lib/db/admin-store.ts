/**
 * Every query of the admin area: persisted settings and their change log, question
 * metrics for the dashboards, and golden questions with their runs. Object
 * arguments, typed rows out; the admin services in lib/admin hold the logic.
 */
import "server-only";
import type { MetricRow } from "./metrics.ts";
import { db } from "./client.ts";
import type { GoldenQuestion, GoldenRun, Setting, SettingChange } from "./generated/client.ts";
import { snapshotOf, visibleIn } from "./snapshot.ts";

// ------------------------------------------------------------------ settings

export type SettingRow = Setting;

export type SettingChangeRow = SettingChange;

export async function listSettingRows(): Promise<SettingRow[]> {
  const client = await db();
  return client.setting.findMany({ orderBy: { key: "asc" } });
}

/** Writes a settings change and its log entries together: the log never disagrees with the table. */
export async function applySettingChanges(input: {
  upserts: { key: string; value: string }[];
  deletes: string[];
  changes: Omit<SettingChangeRow, "id" | "createdAt">[];
}): Promise<void> {
  if (!input.upserts.length && !input.deletes.length && !input.changes.length) return;
  const client = await db();
  await client.$transaction([
    ...input.upserts.map((u) =>
      client.setting.upsert({ where: { key: u.key }, create: u, update: { value: u.value } }),
    ),
    client.setting.deleteMany({ where: { key: { in: input.deletes } } }),
    client.settingChange.createMany({ data: input.changes }),
  ]);
}

export async function listSettingChanges(input: { limit: number }): Promise<SettingChangeRow[]> {
  const client = await db();
  return client.settingChange.findMany({
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit,
  });
}

// ------------------------------------------------------------------- metrics

export async function listQuestionMetrics(input: {
  since: Date | null;
  repositoryId?: string;
}): Promise<MetricRow[]> {
  const client = await db();
  return client.questionMetric.findMany({
    where: {
      ...(input.since ? { createdAt: { gte: input.since } } : {}),
      ...(input.repositoryId ? { repositoryId: input.repositoryId } : {}),
    },
    orderBy: { createdAt: "asc" },
  });
}

export interface RecentQuestionRow extends MetricRow {
  repositoryName: string | null;
  /** the question as asked (null when it failed before being stored) */
  question: string | null;
}

/**
 * The latest questions with their text. A metric row is written after its messages,
 * so the question is the session's last user message at or before the row.
 */
export async function listRecentQuestions(input: {
  limit: number;
  repositoryId?: string;
}): Promise<RecentQuestionRow[]> {
  const client = await db();
  const rows = await client.questionMetric.findMany({
    where: input.repositoryId ? { repositoryId: input.repositoryId } : {},
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit,
  });
  const repositories = await client.repository.findMany({
    where: { id: { in: [...new Set(rows.map((r) => r.repositoryId))] } },
    select: { id: true, name: true },
  });
  const names = new Map(repositories.map((r) => [r.id, r.name]));
  return Promise.all(
    rows.map(async (row) => {
      const message =
        row.sessionId && !row.error
          ? await client.message.findFirst({
              where: { sessionId: row.sessionId, role: "user", createdAt: { lte: row.createdAt } },
              orderBy: { createdAt: "desc" },
              select: { content: true },
            })
          : null;
      return {
        ...row,
        repositoryName: names.get(row.repositoryId) ?? null,
        question: message?.content ?? null,
      };
    }),
  );
}

// --------------------------------------------------------------- repositories

export interface RepositoryBrief {
  id: string;
  name: string;
  activeGenerationId: string | null;
}

export async function listRepositoryBriefs(): Promise<RepositoryBrief[]> {
  const client = await db();
  return client.repository.findMany({
    select: { id: true, name: true, activeGenerationId: true },
    orderBy: { name: "asc" },
  });
}

export async function getRepositoryBrief(id: string): Promise<RepositoryBrief | null> {
  const client = await db();
  return client.repository.findUnique({
    where: { id },
    select: { id: true, name: true, activeGenerationId: true },
  });
}

/** Which of these paths the generation does not contain. */
export async function pathsMissingFromGeneration(generationId: string, paths: string[]): Promise<string[]> {
  if (!paths.length) return [];
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const found = await client.file.findMany({
    where: { ...visibleIn(snapshot), path: { in: paths } },
    select: { path: true },
  });
  const present = new Set(found.map((f) => f.path));
  return paths.filter((p) => !present.has(p));
}

// ---------------------------------------------------------- golden questions

/** A golden question as stored: its expected files as a JSON array. */
export type GoldenQuestionRow = GoldenQuestion;

/** One run of a golden question as stored: its cited and missing files as JSON arrays. */
export type GoldenRunRow = GoldenRun;

export async function createGoldenQuestion(
  input: Omit<GoldenQuestionRow, "createdAt" | "expectedFiles"> & { expectedFiles: string[] },
): Promise<GoldenQuestionRow> {
  const client = await db();
  return client.goldenQuestion.create({
    data: { ...input, expectedFiles: JSON.stringify(input.expectedFiles) },
  });
}

export async function getGoldenQuestion(id: string): Promise<GoldenQuestionRow | null> {
  const client = await db();
  return client.goldenQuestion.findUnique({ where: { id } });
}

export async function listGoldenQuestions(input: { repositoryId: string }): Promise<GoldenQuestionRow[]> {
  const client = await db();
  return client.goldenQuestion.findMany({
    where: { repositoryId: input.repositoryId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

/** Deletes the question and (cascade) its runs; false when it did not exist. */
export async function deleteGoldenQuestion(id: string): Promise<boolean> {
  const client = await db();
  const { count } = await client.goldenQuestion.deleteMany({ where: { id } });
  return count > 0;
}

export async function recordGoldenRun(
  input: Omit<GoldenRunRow, "id" | "createdAt" | "citedFiles" | "missingFiles"> & {
    citedFiles: string[];
    missingFiles: string[];
  },
): Promise<GoldenRunRow> {
  const client = await db();
  return client.goldenRun.create({
    data: {
      ...input,
      citedFiles: JSON.stringify(input.citedFiles),
      missingFiles: JSON.stringify(input.missingFiles),
    },
  });
}

/** The latest runs of each question, newest first. */
export async function listGoldenRuns(input: {
  questionIds: string[];
  perQuestion: number;
}): Promise<GoldenRunRow[]> {
  if (!input.questionIds.length) return [];
  const client = await db();
  const lists = await Promise.all(
    input.questionIds.map((goldenQuestionId) =>
      client.goldenRun.findMany({
        where: { goldenQuestionId },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: input.perQuestion,
      }),
    ),
  );
  return lists.flat();
}
