/**
 * The wiki and the issues store: writing pages (with their search chunks) and
 * findings, and the reads behind the wiki browser, the issues page and analytical
 * retrieval. Pages are shared between generations like the code index (a page whose
 * inputs did not change is simply kept); findings belong to one generation. Readers
 * always pass their generation.
 */
import "server-only";
import type { DiagramPart } from "../diagrams/types.ts";
import { indexText } from "./tokenize.ts";
import {
  chunkPathOf,
  severityRank,
  type FindingDraft,
  type WikiPageDraft,
  type WikiPageKind,
} from "./wiki-shapes.ts";
import { withTempTable } from "./temp-table.ts";
import { db, type Db } from "./client.ts";
import { hasNul, executeRaw, textFilter } from "./dialect.ts";
import { bulkInsert, insertChunkRows, openRows, withBuild } from "./build-writes.ts";
import { OPEN_GENERATION, snapshotOf, visibleIn, type Snapshot } from "./snapshot.ts";
import { batches } from "./wiki-inputs.ts";

/** A stored page without its text: enough to tell whether it must be built again. */
export type StoredPageIndex = Pick<
  WikiPageDraft,
  "slug" | "kind" | "title" | "sourcePath" | "inputHash" | "modelWritten"
>;

/** The pages of a generation (or those with the given slugs), without their text. */
export async function loadPageIndex(generationId: string, slugs?: string[]): Promise<StoredPageIndex[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const select = {
    slug: true,
    kind: true,
    title: true,
    sourcePath: true,
    inputHash: true,
    modelWritten: true,
  };
  const rows = slugs
    ? (
        await Promise.all(
          batches(slugs).map((batch) =>
            client.wikiPage.findMany({ where: { ...visibleIn(snapshot), slug: { in: batch } }, select }),
          ),
        )
      ).flat()
    : await client.wikiPage.findMany({ where: visibleIn(snapshot), select });
  return rows.map((r) => ({ ...r, kind: r.kind as WikiPageKind }));
}

export async function countWikiPages(generationId: string): Promise<number> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  return client.wikiPage.count({ where: visibleIn(snapshot) });
}

/** The text a page is searched and embedded by: title, summary and evidence, capped. */
export function pageChunkText(page: Pick<WikiPageDraft, "title" | "summary" | "content">): string {
  const text = `${page.title}\n\n${page.summary}\n\n${page.content}`;
  return text.length > MAX_CHUNK_CHARS ? `${text.slice(0, MAX_CHUNK_CHARS)}\n…` : text;
}
// Past a few thousand characters a page adds little to search (its code has its own
// chunks), and every copied chunk is indexed again by FTS in each generation.
const MAX_CHUNK_CHARS = 3000;

/** Stores newly generated pages of the building generation with their search chunks (kind "wiki"). */
export async function insertWikiPages(generationId: string, pages: WikiPageDraft[]): Promise<void> {
  if (pages.length === 0) return;
  await withBuild(generationId, (tx, s) => insertPageRows(tx, s, pages));
}

/**
 * Closes, in the building generation, the pages of the previous one it replaced or
 * dropped (with their search chunks), found by slug: kept pages stay shared with the
 * previous generation, unread and unwritten, so a re-index that rewrote a few pages
 * touches only those.
 */
export async function closeWikiPages(
  generationId: string,
  pages: Pick<StoredPageIndex, "slug" | "kind" | "sourcePath">[],
): Promise<void> {
  if (pages.length === 0) return;
  await withBuild(generationId, async (tx, s) => {
    await withTempTable(
      tx,
      "wiki_closed_slugs",
      pages.map((p) => p.slug),
      (slugs) =>
        executeRaw(
          tx,
          `UPDATE "WikiPage" SET "toGeneration" = ?
            WHERE "repositoryId" = ? AND ${openRows()}
              AND slug IN (SELECT value FROM ${slugs})`,
          s.number,
          s.repositoryId,
          OPEN_GENERATION,
          s.number,
        ),
    );
    // A page's chunk has the page's chunk path: its file, its folder, or README for the overview.
    await withTempTable(
      tx,
      "wiki_closed_chunks",
      [...new Set(pages.map((p) => chunkPathOf({ kind: p.kind, sourcePath: p.sourcePath })))],
      (paths) =>
        executeRaw(
          tx,
          `UPDATE "Chunk" SET "toGeneration" = ?
            WHERE "repositoryId" = ? AND ${openRows()} AND kind = 'wiki'
              AND path IN (SELECT value FROM ${paths})`,
          s.number,
          s.repositoryId,
          OPEN_GENERATION,
          s.number,
        ),
    );
  });
}

async function insertPageRows(tx: Db, s: Snapshot, pages: WikiPageDraft[]): Promise<void> {
  if (pages.length === 0) return;
  const now = new Date().toISOString();
  await bulkInsert(
    tx,
    "WikiPage",
    [
      "repositoryId",
      "fromGeneration",
      "slug",
      "kind",
      "title",
      "sourcePath",
      "summary",
      "content",
      "diagram",
      "inputHash",
      "modelWritten",
      "updatedAt",
    ],
    pages.map((p) => ({
      repositoryId: s.repositoryId,
      fromGeneration: s.number,
      slug: p.slug,
      kind: p.kind,
      title: p.title,
      sourcePath: p.sourcePath,
      summary: p.summary,
      content: p.content,
      diagram: p.diagram ? JSON.stringify(p.diagram) : null,
      inputHash: p.inputHash,
      modelWritten: p.modelWritten,
      updatedAt: now,
    })),
    { inBuild: true },
  );
  const fileIds = new Map<string, number>();
  const filePaths = pages.flatMap((p) => (p.kind === "file" && p.sourcePath ? [p.sourcePath] : []));
  for (const batch of batches(filePaths)) {
    const rows = await tx.file.findMany({
      where: { ...visibleIn(s), path: { in: batch } },
      select: { id: true, path: true },
    });
    for (const r of rows) fileIds.set(r.path, r.id);
  }
  const chunkRows = pages.map((p) => {
    const path = chunkPathOf(p);
    const text = pageChunkText(p);
    return {
      fileId: p.sourcePath ? (fileIds.get(p.sourcePath) ?? null) : null,
      path,
      kind: "wiki",
      symbolId: null,
      title: p.kind === "overview" ? `Wiki: ${p.title} overview` : `Wiki: ${p.title}`,
      startLine: 1,
      endLine: p.chunkEndLine,
      text,
      searchText: indexText(`${path}\nwiki ${p.title}\n${text}`),
      tokens: Math.ceil(text.length / 3.6),
    };
  });
  await insertChunkRows(tx, s, chunkRows);
}

/** A stored page as the wiki shows it: the draft it was written from, and when. */
export type WikiPageRecord = Omit<WikiPageDraft, "chunkEndLine"> & { updatedAt: Date };

export async function getWikiPage(generationId: string, slug: string): Promise<WikiPageRecord | null> {
  if (hasNul(slug)) return null;
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const row = await client.wikiPage.findFirst({ where: { ...visibleIn(snapshot), slug } });
  if (!row) return null;
  let diagram: DiagramPart | null = null;
  try {
    diagram = row.diagram ? (JSON.parse(row.diagram) as DiagramPart) : null;
  } catch {
    diagram = null;
  }
  return {
    slug: row.slug,
    kind: row.kind as WikiPageKind,
    title: row.title,
    sourcePath: row.sourcePath,
    summary: row.summary,
    content: row.content,
    diagram,
    inputHash: row.inputHash,
    modelWritten: row.modelWritten,
    updatedAt: row.updatedAt,
  };
}

/** A page without its body. */
export type WikiPageSummary = Pick<
  WikiPageDraft,
  "slug" | "kind" | "title" | "sourcePath" | "summary" | "modelWritten"
>;

/** Every page of a generation without its body: the navigation tree's input. */
export async function listWikiPages(generationId: string): Promise<WikiPageSummary[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const rows = await client.wikiPage.findMany({
    where: visibleIn(snapshot),
    select: { slug: true, kind: true, title: true, sourcePath: true, summary: true, modelWritten: true },
    orderBy: { slug: "asc" },
  });
  return rows.map((r) => ({ ...r, kind: r.kind as WikiPageKind }));
}

/** Current line ranges of symbols (pages name other files' symbols without lines). */
export async function insertFindings(generationId: string, findings: FindingDraft[]): Promise<void> {
  if (findings.length === 0) return;
  await withBuild(generationId, (tx) =>
    bulkInsert(
      tx,
      "Finding",
      ["generationId", "category", "severity", "title", "detail", "path", "startLine", "endLine", "symbolId"],
      findings.map((f) => ({ ...f, generationId })),
      { inBuild: true },
    ),
  );
}

/**
 * Findings of some categories as stored in a generation (to carry unchanged ones
 * forward), category by category in the order given, each in the order stored.
 */
export async function loadFindings(
  generationId: string,
  categories: readonly string[],
): Promise<FindingDraft[]> {
  if (categories.length === 0) return [];
  const client = await db();
  const rows = await client.finding.findMany({
    where: { generationId, category: { in: [...categories] } },
    select: {
      category: true,
      severity: true,
      title: true,
      detail: true,
      path: true,
      startLine: true,
      endLine: true,
      symbolId: true,
    },
    orderBy: { id: "asc" },
  });
  const rank = new Map(categories.map((c, i) => [c, i]));
  return (rows as FindingDraft[]).sort((a, b) => (rank.get(a.category) ?? 0) - (rank.get(b.category) ?? 0));
}

export interface FindingRecord extends FindingDraft {
  id: number;
}

export interface FindingFilter {
  category?: string | null;
  severity?: string | null;
  /** a folder or file: findings located under it */
  scope?: string | null;
  limit?: number;
}

function scopeFilter(scope: string | null | undefined) {
  if (!scope) return {};
  return { OR: [{ path: scope }, { path: textFilter("startsWith", `${scope.replace(/\/+$/, "")}/`) }] };
}

/** Findings of a generation, high severity first, then by location. */
export async function listFindings(
  generationId: string,
  filter: FindingFilter = {},
): Promise<FindingRecord[]> {
  const client = await db();
  const rows = await client.finding.findMany({
    where: {
      generationId,
      ...(filter.category ? { category: filter.category } : {}),
      ...(filter.severity ? { severity: filter.severity } : {}),
      ...scopeFilter(filter.scope),
    },
    select: {
      id: true,
      category: true,
      severity: true,
      title: true,
      detail: true,
      path: true,
      startLine: true,
      endLine: true,
      symbolId: true,
    },
  });
  return (rows as FindingRecord[])
    .sort(
      (a, b) =>
        severityRank(a.severity) - severityRank(b.severity) ||
        (a.path ?? "").localeCompare(b.path ?? "") ||
        (a.startLine ?? 0) - (b.startLine ?? 0) ||
        a.id - b.id,
    )
    .slice(0, filter.limit ?? 1000);
}

/** How many findings a generation has per category and severity (for filters and badges). */
export async function findingCounts(
  generationId: string,
  scope: string | null = null,
): Promise<{ category: string; severity: string; count: number }[]> {
  const client = await db();
  const rows = await client.finding.groupBy({
    by: ["category", "severity"],
    where: { generationId, ...scopeFilter(scope) },
    _count: { _all: true },
  });
  return rows.map((r) => ({ category: r.category, severity: r.severity, count: r._count._all }));
}
