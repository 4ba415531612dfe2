/**
 * Read models for the web pages: a repository with its serving generation and its
 * latest build (the live progress the repositories page polls). Dates leave as ISO
 * strings so the results cross the server/client boundary and JSON unchanged.
 */
import "server-only";
import { buildReportOf, type BuildReport } from "./build-report.ts";
import { db } from "./client.ts";
import { STALE_BUILD_MS, type GenerationRow } from "./generations.ts";
import type { SourceRow } from "./source-store.ts";

export type RepositoryStatus = "ready" | "indexing" | "failed" | "not-indexed";

export interface GenerationStatsView {
  files: number;
  symbols: number;
  edges: number;
  chunks: number;
  lines: number;
  languages: Record<string, number>;
  seconds: number | null;
  /**
   * Files skipped or indexed as text, with their reasons, and the files per class. The
   * lists hold the first CARD_LISTED of each; the counts are complete (the admin page
   * lists every recorded file).
   */
  report: BuildReport;
}

/** Files of each list a repository view carries (it is polled while a build runs). */
export const CARD_LISTED = 12;

export interface BuildView {
  generationId: string;
  number: number;
  /** queued | building | ready | failed | superseded | deleted; a dead build reads as failed */
  status: string;
  /** true while a build is queued, or running with a fresh heartbeat */
  live: boolean;
  phase: string;
  filesDone: number;
  filesTotal: number;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
  /** the commit the build checked out (known once it has fetched) */
  commitSha: string | null;
}

export interface RepositorySourceView {
  kind: "folder" | "git";
  /** git: the remote (no credentials) and the branch followed (null until known) */
  url: string | null;
  branch: string | null;
  pollMinutes: number | null;
  lastPolledAt: string | null;
  /** why the last poll failed, if it did */
  pollError: string | null;
}

export interface RepositoryView {
  id: string;
  name: string;
  rootPath: string;
  source: RepositorySourceView;
  status: RepositoryStatus;
  active: {
    generationId: string;
    number: number;
    finishedAt: string | null;
    commitSha: string | null;
    stats: GenerationStatsView;
  } | null;
  /** the most recent build, finished or not */
  build: BuildView | null;
}

function parseStats(json: string): GenerationStatsView {
  let raw: Record<string, unknown> = {};
  try {
    raw = JSON.parse(json) as Record<string, unknown>;
  } catch {
    // Stats are informative only; a malformed row shows as zeros.
  }
  const num = (key: string) => (typeof raw[key] === "number" ? (raw[key] as number) : 0);
  const languages =
    raw.languages && typeof raw.languages === "object" ? (raw.languages as Record<string, number>) : {};
  const report = buildReportOf(raw);
  return {
    files: num("files"),
    symbols: num("symbols"),
    edges: num("edges"),
    chunks: num("chunks"),
    lines: num("lines"),
    languages,
    seconds: typeof raw.seconds === "number" ? raw.seconds : null,
    report: {
      ...report,
      skippedFiles: report.skippedFiles?.slice(0, CARD_LISTED) ?? null,
      unparsedFiles: report.unparsedFiles.slice(0, CARD_LISTED),
    },
  };
}

function buildView(row: GenerationRow, now: number): BuildView {
  const dead = row.status === "building" && now - row.heartbeatAt.getTime() >= STALE_BUILD_MS;
  return {
    generationId: row.id,
    number: row.number,
    status: dead ? "failed" : row.status,
    live: (row.status === "building" && !dead) || row.status === "queued",
    phase: row.phase,
    filesDone: row.filesDone,
    filesTotal: row.filesTotal,
    error: dead ? "Interrupted: the indexing process stopped." : row.error,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    commitSha: row.commitSha ?? null,
  };
}

function sourceView(repo: SourceRow): RepositorySourceView {
  return {
    kind: repo.sourceKind === "git" ? "git" : "folder",
    url: repo.gitUrl,
    branch: repo.gitBranch,
    pollMinutes: repo.pollMinutes,
    lastPolledAt: repo.lastPolledAt?.toISOString() ?? null,
    pollError: repo.pollError,
  };
}

async function toView(repo: SourceRow): Promise<RepositoryView> {
  const client = await db();
  const [latest, active] = await Promise.all([
    client.indexGeneration.findFirst({ where: { repositoryId: repo.id }, orderBy: { number: "desc" } }),
    repo.activeGenerationId
      ? client.indexGeneration.findUnique({ where: { id: repo.activeGenerationId } })
      : null,
  ]);
  const build = latest ? buildView(latest, Date.now()) : null;
  const status: RepositoryStatus = build?.live
    ? "indexing"
    : build?.status === "failed"
      ? "failed"
      : active
        ? "ready"
        : "not-indexed";
  return {
    id: repo.id,
    name: repo.name,
    rootPath: repo.rootPath,
    source: sourceView(repo),
    status,
    active: active
      ? {
          generationId: active.id,
          // The number people read: builds that failed took none.
          number: active.serial ?? active.number,
          finishedAt: active.finishedAt?.toISOString() ?? null,
          commitSha: active.commitSha ?? null,
          stats: parseStats(active.stats),
        }
      : null,
    build,
  };
}

export async function listRepositoryViews(): Promise<RepositoryView[]> {
  const client = await db();
  const repos = await client.repository.findMany({ orderBy: { createdAt: "asc" } });
  return Promise.all(repos.map(toView));
}

/** A repository by id only (page URLs carry ids; names could collide with ids). */
export async function getRepositoryView(id: string): Promise<RepositoryView | null> {
  const client = await db();
  const repo = await client.repository.findUnique({ where: { id } });
  return repo ? toView(repo) : null;
}

/** True when the generation exists, belongs to the repository and still has its rows. */
export async function generationBelongsTo(generationId: string, repositoryId: string): Promise<boolean> {
  const client = await db();
  const row = await client.indexGeneration.findUnique({
    where: { id: generationId },
    select: { repositoryId: true, status: true },
  });
  return !!row && row.repositoryId === repositoryId && row.status !== "deleted";
}
