/**
 * Read models of the wiki browser and the issues page: a repository's serving
 * generation, the requested page, the navigation tree, the paths that have pages (so
 * a page can link the files it names), and findings filtered for display.
 */
import "server-only";
import { withLayout } from "../diagrams/layout.ts";
import { getRepositoryView, type RepositoryView } from "../db/ui-queries.ts";
import {
  findingCounts,
  getWikiPage,
  listFindings,
  listWikiPages,
  type FindingRecord,
  type WikiPageRecord,
} from "../db/wiki-store.ts";
import { buildWikiTree, type WikiTreeNode } from "./tree.ts";
import { FINDING_CATEGORIES, SEVERITIES, type FindingCategory, type Severity } from "../db/wiki-shapes.ts";

export interface WikiView {
  repository: RepositoryView;
  generationId: string;
  page: WikiPageRecord;
  tree: WikiTreeNode;
  /** path → slug of every file and folder page */
  pagePaths: Record<string, string>;
  /** findings located in the page's file or folder (the whole repository for the overview) */
  findings: FindingRecord[];
  pageCount: number;
}

/** null: no such repository, no index yet, or no such page. */
export async function loadWikiView(repositoryId: string, slug: string): Promise<WikiView | null> {
  const repository = await getRepositoryView(repositoryId);
  const generationId = repository?.active?.generationId;
  if (!repository || !generationId) return null;
  const stored = await getWikiPage(generationId, slug);
  if (!stored) return null;
  const page = stored.diagram ? { ...stored, diagram: await withLayout(stored.diagram) } : stored;
  const [pages, findings] = await Promise.all([
    listWikiPages(generationId),
    listFindings(generationId, { scope: page.sourcePath, limit: page.kind === "overview" ? 8 : 25 }),
  ]);
  const pagePaths: Record<string, string> = {};
  for (const p of pages) if (p.sourcePath) pagePaths[p.sourcePath] = p.slug;
  return {
    repository,
    generationId,
    page,
    tree: buildWikiTree(pages),
    pagePaths,
    findings,
    pageCount: pages.length,
  };
}

export interface IssuesFilter {
  category: FindingCategory | null;
  severity: Severity | null;
}

export interface IssuesView {
  repository: RepositoryView;
  generationId: string;
  filter: IssuesFilter;
  findings: FindingRecord[];
  /** counts over all findings, per category and per severity (for the filter controls) */
  byCategory: Record<string, number>;
  bySeverity: Record<string, number>;
  total: number;
}

/** Accepts only known categories and severities; anything else means "all". */
export function parseIssuesFilter(query: { category?: unknown; severity?: unknown }): IssuesFilter {
  const category = (FINDING_CATEGORIES as readonly unknown[]).includes(query.category)
    ? (query.category as FindingCategory)
    : null;
  const severity = (SEVERITIES as readonly unknown[]).includes(query.severity)
    ? (query.severity as Severity)
    : null;
  return { category, severity };
}

export async function loadIssuesView(repositoryId: string, filter: IssuesFilter): Promise<IssuesView | null> {
  const repository = await getRepositoryView(repositoryId);
  const generationId = repository?.active?.generationId;
  if (!repository || !generationId) return null;
  const [findings, counts] = await Promise.all([
    listFindings(generationId, { category: filter.category, severity: filter.severity, limit: 500 }),
    findingCounts(generationId),
  ]);
  const byCategory: Record<string, number> = {};
  const bySeverity: Record<string, number> = {};
  for (const c of counts) {
    byCategory[c.category] = (byCategory[c.category] ?? 0) + c.count;
    bySeverity[c.severity] = (bySeverity[c.severity] ?? 0) + c.count;
  }
  return {
    repository,
    generationId,
    filter,
    findings,
    byCategory,
    bySeverity,
    total: counts.reduce((n, c) => n + c.count, 0),
  };
}

/** The question "Ask about this" puts in the chat for a page. */
export function askAboutQuestion(page: Pick<WikiPageRecord, "kind" | "title" | "sourcePath">): string {
  if (page.kind === "file") return `What does ${page.sourcePath} do, and how is it used?`;
  if (page.kind === "directory")
    return `What is the ${page.sourcePath}/ folder for, and how is it organised?`;
  return "What does this repository do, and how is it organised?";
}
