/**
 * Every query of the wiki and the issues store: what page generation and findings
 * read from a generation's code index, writing and copying pages (with their search
 * chunks) and findings between generations, and the reads behind the wiki browser,
 * the issues page and analytical retrieval. Readers always pass their generation.
 */
import "server-only";
import { EMPTY_FACTS, type FileFacts } from "../indexer/extract/facts.ts";
import { indexText } from "./tokenize.ts";
import { chunkPathOf } from "../wiki/slugs.ts";
import {
  severityRank,
  type DiagramPart,
  type FindingDraft,
  type WikiPageDraft,
  type WikiPageKind,
} from "../wiki/types.ts";
import { withTempTable } from "./temp-table.ts";
import { db } from "./client.ts";
import {
  floatParam,
  hasNul,
  floorToInt,
  jsonArrayElements,
  position,
  queryRaw,
  sqlBool,
  executeRaw,
  textFilter,
} from "./dialect.ts";
import { bulkInsert, ftsSyncStart, insertChunks, syncFts } from "./index-store.ts";

const BATCH = 500;

function batches<T>(items: T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function placeholders(n: number): string {
  return Array.from({ length: n }, () => "?").join(",");
}

export function parseFacts(json: string): FileFacts {
  try {
    return { ...EMPTY_FACTS, ...(JSON.parse(json) as Partial<FileFacts>) };
  } catch {
    return EMPTY_FACTS;
  }
}

function parseList(json: string): string[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}

/**
 * Runs `query` for the given paths in batches (or once with no filter for "all"),
 * concatenating the rows. `filter` receives the SQL placeholder list.
 */
async function forPaths<T>(
  paths: string[] | "all",
  query: (filter: string | null, params: string[]) => Promise<T[]>,
): Promise<T[]> {
  if (paths === "all") return query(null, []);
  const out: T[] = [];
  for (const batch of batches(paths)) out.push(...(await query(placeholders(batch.length), batch)));
  return out;
}

// ------------------------------------------------------------ generation inputs

export interface WikiFileRow {
  path: string;
  language: string;
  kind: string;
  hash: string;
  lines: number;
  facts: FileFacts;
}

export async function loadWikiFiles(generationId: string): Promise<WikiFileRow[]> {
  const client = await db();
  const rows = await queryRaw<(Omit<WikiFileRow, "facts"> & { facts: string })[]>(
    client,
    `SELECT path, language, kind, hash, lines, facts FROM "File" WHERE "generationId" = ? ORDER BY path`,
    generationId,
  );
  return rows.map((r) => ({ ...r, lines: Number(r.lines), facts: parseFacts(r.facts) }));
}

export interface ImportRow {
  srcPath: string;
  dstPath: string;
  line: number;
}

/** Resolved file-to-file imports (one row per import statement). */
export async function loadImportEdges(generationId: string): Promise<ImportRow[]> {
  const client = await db();
  const rows = await queryRaw<ImportRow[]>(
    client,
    `SELECT "srcPath", "dstPath", line FROM "Edge"
      WHERE "generationId" = ? AND kind = 'imports' AND "dstPath" IS NOT NULL AND "dstPath" != "srcPath"`,
    generationId,
  );
  return rows.map((r) => ({ ...r, line: Number(r.line) }));
}

export interface PageSymbolRow {
  path: string;
  qualifiedId: string;
  name: string;
  qualifiedName: string;
  kind: string;
  startLine: number;
  endLine: number;
  signature: string;
  docstring: string;
  parentId: string | null;
  exported: boolean;
  raises: string[];
  mutates: string[];
}

/** Symbols of the given files (or all), in file order; `topLevel` keeps only unnested ones. */
export async function loadPageSymbols(
  generationId: string,
  paths: string[] | "all",
  options: { topLevel?: boolean } = {},
): Promise<PageSymbolRow[]> {
  const client = await db();
  const rows = await forPaths(paths, (filter, params) =>
    queryRaw<
      (Omit<PageSymbolRow, "raises" | "mutates" | "exported"> & {
        raises: string;
        mutates: string;
        exported: number | boolean;
      })[]
    >(
      client,
      `SELECT path, "qualifiedId", name, "qualifiedName", kind, "startLine", "endLine", signature, docstring,
              "parentId", exported, raises, mutates
         FROM "Symbol" WHERE "generationId" = ?
         ${filter ? `AND path IN (${filter})` : ""} ${options.topLevel ? `AND "parentId" IS NULL` : ""}
        ORDER BY path, "startLine"`,
      generationId,
      ...params,
    ),
  );
  return rows.map((r) => ({
    ...r,
    startLine: Number(r.startLine),
    endLine: Number(r.endLine),
    exported: Boolean(Number(r.exported)),
    raises: parseList(r.raises),
    mutates: parseList(r.mutates),
  }));
}

export interface CallRow {
  srcId: string;
  srcPath: string;
  dstId: string;
  dstPath: string;
}

/** Resolved calls leaving or entering the given files (or all), one row per caller → callee pair, in call order. */
export async function loadCallsTouching(generationId: string, paths: string[] | "all"): Promise<CallRow[]> {
  const client = await db();
  const rows = await forPaths(paths, (filter, params) =>
    queryRaw<CallRow[]>(
      client,
      `SELECT "srcId", "srcPath", "dstId", "dstPath", min(line) AS line FROM "Edge"
        WHERE "generationId" = ? AND kind = 'calls' AND "dstId" IS NOT NULL
        ${filter ? `AND ("srcPath" IN (${filter}) OR "dstPath" IN (${filter}))` : ""}
        GROUP BY "srcId", "dstId", "srcPath", "dstPath" ORDER BY "srcId", line, "dstId"`,
      generationId,
      ...params,
      ...params,
    ),
  );
  // In call order, so pages list callees as the code calls them; batches can repeat a pair.
  const seen = new Set<string>();
  const out: CallRow[] = [];
  for (const { srcId, srcPath, dstId, dstPath } of rows) {
    const key = `${srcId}>${dstId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ srcId, srcPath, dstId, dstPath });
  }
  return out;
}

/** Resolved call pairs above a confidence, ids only (the call graph for cycle detection). */
export async function loadCallGraph(
  generationId: string,
  minConfidence: number,
): Promise<{ srcId: string; dstId: string }[]> {
  const client = await db();
  return queryRaw<{ srcId: string; dstId: string }[]>(
    client,
    `SELECT DISTINCT "srcId", "dstId" FROM "Edge"
      WHERE "generationId" = ? AND kind = 'calls' AND "dstId" IS NOT NULL AND confidence >= ? AND "srcId" != "dstId"`,
    generationId,
    minConfidence,
  );
}

/**
 * Resolved call and import edges that differ between two generations, among the
 * sources a build re-resolved — edges leaving `paths`, the calls of `sourceIds`, and
 * every import when `allImports` (every other edge was copied unchanged). Compared in
 * SQL, so only the differences leave the database.
 */
export async function changedEdges(
  previousGenerationId: string,
  generationId: string,
  scope: { paths: string[]; sourceIds: string[]; allImports: boolean },
): Promise<{ kind: string; srcPath: string; dstPath: string }[]> {
  const client = await db();
  // One placeholder: the generation.
  const select = (paths: string, ids: string) =>
    `SELECT kind, "srcId", "dstId", "srcPath", "dstPath" FROM "Edge"
      WHERE "generationId" = ? AND kind IN ('calls', 'imports') AND "dstId" IS NOT NULL
        AND ("srcPath" IN (SELECT value FROM ${paths})
             OR (kind = 'calls' AND "srcId" IN (SELECT value FROM ${ids}))
             ${scope.allImports ? "OR kind = 'imports'" : ""})`;
  let rows: { kind: string; srcPath: string; dstPath: string }[] = [];
  await withTempTable(client, "wiki_diff_paths", scope.paths, (paths) =>
    withTempTable(client, "wiki_diff_ids", scope.sourceIds, async (ids) => {
      const one = select(paths, ids);
      rows = await queryRaw<{ kind: string; srcPath: string; dstPath: string }[]>(
        client,
        `SELECT kind, "srcPath", "dstPath" FROM (${one} EXCEPT ${one}) AS removed
         UNION ALL
         SELECT kind, "srcPath", "dstPath" FROM (${one} EXCEPT ${one}) AS added`,
        previousGenerationId,
        generationId,
        generationId,
        previousGenerationId,
      );
    }),
  );
  return rows;
}

export interface EntryPointRow {
  path: string;
  qualifiedName: string;
  startLine: number;
  endLine: number;
  fanOut: number;
}

/** Functions named like program entry points (`main`, `cli`, `run`), and top-level functions nothing calls. */
export async function loadEntryPointCandidates(
  generationId: string,
): Promise<{ named: EntryPointRow[]; uncalled: EntryPointRow[] }> {
  const client = await db();
  const select = `SELECT path, "qualifiedName", "startLine", "endLine", "fanOut" FROM "Symbol" WHERE "generationId" = ?`;
  const [named, uncalled] = await Promise.all([
    queryRaw<EntryPointRow[]>(
      client,
      `${select} AND kind = 'function' AND "parentId" IS NULL AND name IN ('main', 'cli', 'run', 'app', 'serve')
       ORDER BY path LIMIT 20`,
      generationId,
    ),
    queryRaw<EntryPointRow[]>(
      client,
      `${select} AND kind = 'function' AND "parentId" IS NULL AND exported = ${sqlBool(true)} AND "fanIn" = 0 AND "fanOut" >= 1
       ORDER BY "fanOut" DESC, path LIMIT 60`,
      generationId,
    ),
  ]);
  const fix = (r: EntryPointRow) => ({
    ...r,
    startLine: Number(r.startLine),
    endLine: Number(r.endLine),
    fanOut: Number(r.fanOut),
  });
  return { named: named.map(fix), uncalled: uncalled.map(fix) };
}

// ------------------------------------------------------------------ wiki pages

export interface StoredPageIndex {
  slug: string;
  kind: WikiPageKind;
  sourcePath: string | null;
  inputHash: string;
  modelWritten: boolean;
}

export async function loadPageIndex(generationId: string): Promise<StoredPageIndex[]> {
  const client = await db();
  const rows = await client.wikiPage.findMany({
    where: { generationId },
    select: { slug: true, kind: true, sourcePath: true, inputHash: true, modelWritten: true },
  });
  return rows.map((r) => ({ ...r, kind: r.kind as WikiPageKind }));
}

/** Copies pages (and their search chunks, with FTS rows) unchanged from one generation to another. */
export async function copyWikiPages(
  fromGenerationId: string,
  toGenerationId: string,
  pages: { slug: string; kind: WikiPageKind; sourcePath: string | null }[],
): Promise<void> {
  if (pages.length === 0) return;
  const client = await db();
  await withTempTable(
    client,
    "wiki_keep_slugs",
    pages.map((p) => p.slug),
    async (slugs) => {
      await executeRaw(
        client,
        `INSERT INTO "WikiPage" ("generationId", slug, kind, title, "sourcePath", summary, content, diagram,
                                 "inputHash", "modelWritten", "updatedAt")
         SELECT ?, slug, kind, title, "sourcePath", summary, content, diagram, "inputHash", "modelWritten", "updatedAt"
           FROM "WikiPage" WHERE "generationId" = ? AND slug IN (SELECT value FROM ${slugs})`,
        toGenerationId,
        fromGenerationId,
      );
    },
  );
  // A page's chunk has the page's chunk path: its file, its folder, or README for the overview.
  const syncFrom = await ftsSyncStart(client);
  await withTempTable(client, "wiki_keep_chunks", pages.map(chunkPathOf), async (chunkPaths) => {
    await executeRaw(
      client,
      `INSERT INTO "Chunk" ("generationId", "fileId", path, kind, "symbolId", title, "startLine", "endLine", text,
                            "searchText", tokens)
       SELECT ?, nf.id, c.path, c.kind, c."symbolId", c.title, c."startLine", c."endLine", c.text, c."searchText", c.tokens
         FROM "Chunk" c LEFT JOIN "File" nf ON nf."generationId" = ? AND nf.path = c.path
        WHERE c."generationId" = ? AND c.kind = 'wiki' AND c.path IN (SELECT value FROM ${chunkPaths})`,
      toGenerationId,
      toGenerationId,
      fromGenerationId,
    );
  });
  await syncFts(client, toGenerationId, syncFrom);
}

/** The text a page is searched and embedded by: title, summary and evidence, capped. */
export function pageChunkText(page: Pick<WikiPageDraft, "title" | "summary" | "content">): string {
  const text = `${page.title}\n\n${page.summary}\n\n${page.content}`;
  return text.length > MAX_CHUNK_CHARS ? `${text.slice(0, MAX_CHUNK_CHARS)}\n…` : text;
}
// Past a few thousand characters a page adds little to search (its code has its own
// chunks), and every copied chunk is indexed again by FTS in each generation.
const MAX_CHUNK_CHARS = 3000;

/** Stores newly generated pages and their search chunks (kind "wiki"). */
export async function insertWikiPages(generationId: string, pages: WikiPageDraft[]): Promise<void> {
  if (pages.length === 0) return;
  const client = await db();
  const now = new Date().toISOString();
  await bulkInsert(
    client,
    "WikiPage",
    [
      "generationId",
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
      generationId,
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
  );
  const fileIds = new Map<string, number>();
  const filePaths = pages.flatMap((p) => (p.kind === "file" && p.sourcePath ? [p.sourcePath] : []));
  for (const batch of batches(filePaths)) {
    const rows = await client.file.findMany({
      where: { generationId, path: { in: batch } },
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
  await insertChunks(generationId, chunkRows);
}

export interface WikiPageRecord {
  slug: string;
  kind: WikiPageKind;
  title: string;
  sourcePath: string | null;
  summary: string;
  content: string;
  diagram: DiagramPart | null;
  inputHash: string;
  modelWritten: boolean;
  updatedAt: Date;
}

export async function getWikiPage(generationId: string, slug: string): Promise<WikiPageRecord | null> {
  if (hasNul(slug)) return null;
  const client = await db();
  const row = await client.wikiPage.findUnique({ where: { generationId_slug: { generationId, slug } } });
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

export interface WikiPageSummary {
  slug: string;
  kind: WikiPageKind;
  title: string;
  sourcePath: string | null;
  summary: string;
  modelWritten: boolean;
}

/** Every page of a generation without its body: the navigation tree's input. */
export async function listWikiPages(generationId: string): Promise<WikiPageSummary[]> {
  const client = await db();
  const rows = await client.wikiPage.findMany({
    where: { generationId },
    select: { slug: true, kind: true, title: true, sourcePath: true, summary: true, modelWritten: true },
    orderBy: { slug: "asc" },
  });
  return rows.map((r) => ({ ...r, kind: r.kind as WikiPageKind }));
}

/** Current line ranges of symbols (pages name other files' symbols without lines). */
export async function symbolRanges(
  generationId: string,
  qualifiedIds: string[],
): Promise<Map<string, { path: string; startLine: number; endLine: number }>> {
  const client = await db();
  const out = new Map<string, { path: string; startLine: number; endLine: number }>();
  for (const batch of batches([...new Set(qualifiedIds)])) {
    const rows = await client.symbol.findMany({
      where: { generationId, qualifiedId: { in: batch } },
      select: { qualifiedId: true, path: true, startLine: true, endLine: true },
    });
    for (const r of rows)
      out.set(r.qualifiedId, { path: r.path, startLine: r.startLine, endLine: r.endLine });
  }
  return out;
}

// -------------------------------------------------------------------- findings

export interface FanRow {
  qualifiedId: string;
  path: string;
  qualifiedName: string;
  startLine: number;
  endLine: number;
  value: number;
}

/**
 * Functions and methods by how many distinct functions they call ("out") or are called
 * by ("in") through edges of at least `minConfidence` — guessed edges to same-named
 * methods would otherwise make a common method name look like a hotspot. The
 * threshold is the larger of `floor` and the percentile over the functions with any
 * such edge (below `minPopulation` of them, the floor alone). One grouped query ranks
 * them and returns the top `limit` plus the row at the percentile.
 */
export async function callFanAboveThreshold(
  generationId: string,
  direction: "in" | "out",
  options: { minConfidence: number; floor: number; percentile: number; minPopulation: number; limit: number },
): Promise<{ threshold: number; rows: FanRow[] }> {
  const client = await db();
  const [key, other] = direction === "in" ? ['"dstId"', '"srcId"'] : ['"srcId"', '"dstId"'];
  const share = 1 - options.percentile;
  const rows = await queryRaw<(FanRow & { population: number; rn: number })[]>(
    client,
    `WITH fan AS (
        SELECT ${key} AS id, count(DISTINCT ${other}) AS v FROM "Edge"
         WHERE "generationId" = ? AND kind = 'calls' AND "dstId" IS NOT NULL AND confidence >= ? GROUP BY ${key}),
      numbered AS (
        SELECT s."qualifiedId", s.path, s."qualifiedName", s."startLine", s."endLine", fan.v AS value,
               row_number() OVER (ORDER BY fan.v DESC, s.path, s."startLine") AS rn, count(*) OVER () AS population
          FROM fan JOIN "Symbol" s ON s."generationId" = ? AND s."qualifiedId" = fan.id
         WHERE s.kind IN ('function', 'method'))
     SELECT * FROM numbered WHERE rn <= ? OR rn = ${floorToInt(`population * ${floatParam()}`)} + 1 ORDER BY rn`,
    generationId,
    options.minConfidence,
    generationId,
    options.limit,
    share,
  );
  const population = Number(rows[0]?.population ?? 0);
  const ranked = rows.map((r) => ({
    qualifiedId: r.qualifiedId,
    path: r.path,
    qualifiedName: r.qualifiedName,
    startLine: Number(r.startLine),
    endLine: Number(r.endLine),
    value: Number(r.value),
    rn: Number(r.rn),
  }));
  let threshold = options.floor;
  if (population >= options.minPopulation) {
    const at = ranked.find((r) => r.rn === Math.floor(population * share) + 1);
    threshold = Math.max(options.floor, at?.value ?? 0);
  }
  return {
    threshold,
    rows: ranked
      .filter((r) => r.rn <= options.limit && r.value >= threshold)
      .map(({ rn: _rn, ...row }) => row),
  };
}

/** Functions and methods at least `minLines` long, longest first. */
export async function longFunctions(
  generationId: string,
  minLines: number,
  limit: number,
): Promise<FanRow[]> {
  const client = await db();
  const rows = await queryRaw<FanRow[]>(
    client,
    `SELECT "qualifiedId", path, "qualifiedName", "startLine", "endLine", ("endLine" - "startLine" + 1) AS value
       FROM "Symbol" WHERE "generationId" = ? AND kind IN ('function', 'method') AND ("endLine" - "startLine" + 1) >= ?
      ORDER BY value DESC, path, "startLine" LIMIT ?`,
    generationId,
    minLines,
    limit,
  );
  return rows.map((r) => ({
    ...r,
    startLine: Number(r.startLine),
    endLine: Number(r.endLine),
    value: Number(r.value),
  }));
}

export interface StateWriteRow {
  path: string;
  name: string;
  qualifiedId: string;
  qualifiedName: string;
  startLine: number;
  endLine: number;
}

/** Writes of module-level names (bare names in `mutates`; attributes like `self.x` are object state). */
export async function loadModuleStateWrites(generationId: string): Promise<StateWriteRow[]> {
  const client = await db();
  const rows = await queryRaw<StateWriteRow[]>(
    client,
    `SELECT s.path, j.value AS name, s."qualifiedId", s."qualifiedName", s."startLine", s."endLine"
       FROM "Symbol" s, ${jsonArrayElements("s.mutates", "j")}
      WHERE s."generationId" = ? AND s.mutates != '[]' AND ${position("j.value", "'.'")} = 0
      ORDER BY s.path, s."startLine"`,
    generationId,
  );
  return rows.map((r) => ({ ...r, startLine: Number(r.startLine), endLine: Number(r.endLine) }));
}

export async function insertFindings(generationId: string, findings: FindingDraft[]): Promise<void> {
  if (findings.length === 0) return;
  const client = await db();
  await bulkInsert(
    client,
    "Finding",
    ["generationId", "category", "severity", "title", "detail", "path", "startLine", "endLine", "symbolId"],
    findings.map((f) => ({ ...f, generationId })),
  );
}

/** Findings of one category as stored in a generation (to carry unchanged ones forward). */
export async function loadFindings(generationId: string, category: string): Promise<FindingDraft[]> {
  const client = await db();
  const rows = await client.finding.findMany({
    where: { generationId, category },
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
  return rows as FindingDraft[];
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
