/**
 * Wiki rows as the store writes and reads them, declared where they are stored: a
 * generated page before it is stored, a finding with its category, severity and
 * location, and the path a page's search chunk carries. lib/wiki generates them, the
 * issues pages and answers read them. The two small pure helpers (severity order, chunk
 * path) sit here because the store sorts and writes by them.
 */
import type { DiagramPart } from "../diagrams/types.ts";

export type WikiPageKind = "overview" | "directory" | "file";

/** A page as the generator produces it; `inputHash` addresses everything it was built from. */
export interface WikiPageDraft {
  slug: string;
  kind: WikiPageKind;
  title: string;
  /** the directory or file the page documents; null for the overview */
  sourcePath: string | null;
  /** one or two sentences; model-written when `modelWritten` */
  summary: string;
  /** Markdown evidence with `path:start-end` citations (never model-written) */
  content: string;
  diagram: DiagramPart | null;
  inputHash: string;
  modelWritten: boolean;
  /** the lines the page's search chunk cites: a file page cites its whole file */
  chunkEndLine: number;
}

export const FINDING_CATEGORIES = [
  "god-function",
  "hotspot",
  "call-cycle",
  "import-cycle",
  "long-function",
  "swallowed-exception",
  "module-state",
  "todo-density",
] as const;
export type FindingCategory = (typeof FINDING_CATEGORIES)[number];

export const SEVERITIES = ["high", "medium", "low"] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface FindingDraft {
  category: FindingCategory;
  severity: Severity;
  title: string;
  detail: string;
  path: string | null;
  startLine: number | null;
  endLine: number | null;
  symbolId: string | null;
}

/** Lower sorts first: high severity leads every list. */
export function severityRank(severity: string): number {
  const i = (SEVERITIES as readonly string[]).indexOf(severity);
  return i < 0 ? SEVERITIES.length : i;
}

/** Chunk path of the overview page: not a file, so a citation of it never claims file lines. */
export const OVERVIEW_CHUNK_PATH = "README";

/** The path a page's search chunk carries: the documented file or directory, or the overview's. */
export function chunkPathOf(page: { kind: WikiPageKind; sourcePath: string | null }): string {
  return page.kind === "overview" ? OVERVIEW_CHUNK_PATH : (page.sourcePath ?? OVERVIEW_CHUNK_PATH);
}
