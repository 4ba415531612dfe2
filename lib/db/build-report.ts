/**
 * The build report a generation's stats hold about files not indexed as code: files
 * skipped, code files indexed as text, and the files per class. Declared here because
 * the store reads it back from the stored stats; the words and advice people read about
 * it live with the indexer (lib/indexer/build-report.ts). Pure: the web pages import it too.
 */
import type { FileClass } from "./file-shapes.ts";

/** Why discovery left a file out (lib/indexer/discover.ts). */
export type SkipReason =
  | "binary"
  | "too-large"
  | "not-utf8"
  | "symlink"
  | "symlink-outside-root"
  | "unsupported"
  /** under a folder of installed packages, build output or tool caches (SKIPPED_DIRS) */
  | "excluded-folder"
  | "unreadable"
  | "secret";

/** A skipped file as the build stats list it: `detail` says more where there is more (a size). */
export interface SkippedFile {
  path: string;
  reason: SkipReason;
  detail?: string;
}

/** A code file indexed as text only; `reason` is `timeout: …`, `memory: …` or `error: …`. */
export interface UnparsedFile {
  path: string;
  reason: string;
}

/** The report part of a generation's stats, read defensively (older builds lack parts of it). */
export interface BuildReport {
  /** skipped files by reason (every reason, counts complete) */
  skipped: Partial<Record<SkipReason, number>>;
  /** the listed skips (LISTED_SKIPS), at most MAX_LISTED_SKIPS; null when the build predates the list */
  skippedFiles: SkippedFile[] | null;
  unparsedFiles: UnparsedFile[];
  unparsedCount: number;
  /** files per class */
  fileClasses: Partial<Record<FileClass, number>>;
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function counts(value: unknown): Record<string, number> {
  return Object.fromEntries(
    Object.entries(record(value)).filter(([, n]) => typeof n === "number" && n > 0),
  ) as Record<string, number>;
}

function files<T extends { path: string; reason: string }>(value: unknown): T[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (f): f is T => !!f && typeof f === "object" && typeof f.path === "string" && typeof f.reason === "string",
  );
}

/** The build report held in a generation's stats (the parsed JSON). */
export function buildReportOf(stats: unknown): BuildReport {
  const raw = record(stats);
  const unparsedFiles = files<UnparsedFile>(raw.unparsedFiles);
  return {
    skipped: counts(raw.skipped),
    skippedFiles: Array.isArray(raw.skippedFiles) ? files<SkippedFile>(raw.skippedFiles) : null,
    unparsedFiles,
    unparsedCount: typeof raw.unparsedCount === "number" ? raw.unparsedCount : unparsedFiles.length,
    fileClasses: counts(raw.fileClasses),
  };
}
