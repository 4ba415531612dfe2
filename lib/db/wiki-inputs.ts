/**
 * What page generation and findings read from a generation's code index: its files and
 * their facts and classes, imports, the symbols a page lists, calls between files, the
 * call graph and what changed in it, entry points, and the figures findings are made of
 * (fan above a threshold, long functions, module state written). Readers always pass
 * their generation; vendored, generated and minified code is left out where the wiki
 * leaves it out.
 */
import "server-only";
import { EMPTY_FACTS, type FileClass, type FileFacts } from "./file-shapes.ts";
import { db } from "./client.ts";
import {
  binaryOrder,
  floatParam,
  floorToInt,
  jsonArrayElements,
  position,
  queryRaw,
  sqlBool,
} from "./dialect.ts";
import { ownEdge } from "./fan-counts.ts";
import { snapshotOf, visibleIn, visibleSql, type Snapshot } from "./snapshot.ts";

const BATCH = 500;

export function batches<T>(items: T[], size = BATCH): T[][] {
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

/**
 * The wiki documents the repository's own files: vendored, generated and minified ones
 * (lib/indexer/file-class.ts) get no pages and stay out of folder pages, the overview,
 * diagrams and the findings read from files. Documentation keeps its pages (the
 * README describes the repository) but not its findings (see thirdPartyOrDocs).
 */
const OWN_FILE = `("fileClass" IS NULL OR "fileClass" = 'documentation')`;
const THIRD_PARTY = `('vendored', 'generated', 'minified')`;

/**
 * A generation's files that have a class (vendored, generated, minified, documentation),
 * by path: what a file is as stored, decided by its path, its content and the
 * repository's attributes (lib/indexer/file-class.ts).
 */
export async function classifiedPaths(generationId: string): Promise<Map<string, FileClass>> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const visible = visibleSql(snapshot);
  const rows = await queryRaw<{ path: string; fileClass: FileClass }[]>(
    client,
    `SELECT path, "fileClass" FROM "File" WHERE ${visible.sql} AND "fileClass" IS NOT NULL`,
    ...visible.params,
  );
  return new Map(rows.map((r) => [r.path, r.fileClass]));
}

/** Which files a wiki read covers: all, the given paths, or everything under the given folders. */
export type FileScope = "all" | { paths: string[] } | { under: string[] };

/** A LIKE pattern matching everything under a folder (`\` escapes). */
function underPattern(dir: string): string {
  return `${dir.replace(/[\\%_]/g, "\\$&")}/%`;
}

export async function loadWikiFiles(generationId: string, scope: FileScope = "all"): Promise<WikiFileRow[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const visible = visibleSql(snapshot);
  const select = (filter: string, params: string[]) =>
    queryRaw<(Omit<WikiFileRow, "facts"> & { facts: string })[]>(
      client,
      `SELECT path, language, kind, hash, lines, facts FROM "File" WHERE ${visible.sql} AND ${OWN_FILE} ${filter} ORDER BY path`,
      ...visible.params,
      ...params,
    );
  let rows: (Omit<WikiFileRow, "facts"> & { facts: string })[];
  if (scope === "all") rows = await select("", []);
  else if ("paths" in scope)
    rows = await forPaths(scope.paths, (filter, params) => select(`AND path IN (${filter})`, params));
  else {
    // LIKE may ignore case (SQLite): what it over-fetches is dropped here.
    const seen = new Set<string>();
    rows = [];
    for (const dir of scope.under)
      for (const r of await select(`AND path LIKE ? ESCAPE '\\'`, [underPattern(dir)]))
        if (r.path.startsWith(`${dir}/`) && !seen.has(r.path)) {
          seen.add(r.path);
          rows.push(r);
        }
    rows.sort((a, b) => binaryOrder(a.path, b.path));
  }
  return rows.map((r) => ({ ...r, lines: Number(r.lines), facts: parseFacts(r.facts) }));
}

export interface ImportRow {
  srcPath: string;
  dstPath: string;
  line: number;
}

/**
 * Resolved file-to-file imports (one row per import statement), in order of importing
 * file and line: all, or those from or into the given files (`touching`), or only
 * those from them (`from`).
 */
export async function loadImportEdges(
  generationId: string,
  scope: "all" | { touching: string[] } | { from: string[] } = "all",
): Promise<ImportRow[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const visible = visibleSql(snapshot);
  // Imports into or out of third-party files are not the repository's own structure.
  const classed = visibleSql(snapshot, "cf");
  const thirdParty = `SELECT cf.path FROM "File" cf WHERE ${classed.sql} AND cf."fileClass" IN ${THIRD_PARTY}`;
  const select = (filter: string, params: string[]) =>
    queryRaw<(ImportRow & { id: number })[]>(
      client,
      `SELECT "srcPath", "dstPath", line, id FROM "Edge"
        WHERE ${visible.sql} AND kind = 'imports' AND "dstPath" IS NOT NULL AND "dstPath" != "srcPath"
          AND "srcPath" NOT IN (${thirdParty}) AND "dstPath" NOT IN (${thirdParty}) ${filter}
        ORDER BY "srcPath", line, id`,
      ...visible.params,
      ...classed.params,
      ...classed.params,
      ...params,
    );
  let rows: (ImportRow & { id: number })[];
  if (scope === "all") rows = await select("", []);
  else {
    const paths = "touching" in scope ? scope.touching : scope.from;
    const byId = new Map<number, ImportRow & { id: number }>();
    // An import's ends are files, its ids their paths: "dstId" has an index, "dstPath" none.
    for (const column of "touching" in scope ? ['"srcPath"', '"dstId"'] : ['"srcPath"'])
      for (const r of await forPaths(paths, (filter, params) =>
        select(`AND ${column} IN (${filter})`, params),
      ))
        byId.set(Number(r.id), r);
    rows = [...byId.values()].sort(
      (a, b) =>
        binaryOrder(a.srcPath, b.srcPath) || Number(a.line) - Number(b.line) || Number(a.id) - Number(b.id),
    );
  }
  return rows.map((r) => ({ srcPath: r.srcPath, dstPath: r.dstPath, line: Number(r.line) }));
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
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const visible = visibleSql(snapshot);
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
         FROM "Symbol" WHERE ${visible.sql}
         ${filter ? `AND path IN (${filter})` : ""} ${options.topLevel ? `AND "parentId" IS NULL` : ""}
        ORDER BY path, "startLine"`,
      ...visible.params,
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

/**
 * Resolved calls leaving or entering the given files (or all), one row per caller →
 * callee pair, in call order. Calls into or out of vendored, generated and minified
 * files are not the repository's structure: pages, diagrams and coupling leave them out.
 */
export async function loadCallsTouching(generationId: string, paths: string[] | "all"): Promise<CallRow[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const visible = visibleSql(snapshot, "e");
  const own = ownEdge(visibleSql(snapshot));
  const edges = { sql: `${visible.sql} AND ${own.sql}`, params: [...visible.params, ...own.params] };
  const symbols = visibleSql(snapshot, "s");
  const columns = `e."srcId", e."srcPath", e."dstId", e."dstPath", e.line`;
  const calls = `${edges.sql} AND e.kind = 'calls' AND e."dstId" IS NOT NULL`;
  // Calls into the files are found through their symbols' ids, so both halves use an index.
  const rows = await forPaths(paths, (filter, params) =>
    queryRaw<CallRow[]>(
      client,
      `SELECT "srcId", "srcPath", "dstId", "dstPath", min(line) AS line FROM (
         SELECT ${columns} FROM "Edge" e WHERE ${calls} ${filter ? `AND e."srcPath" IN (${filter})` : ""}
         ${
           filter
             ? `UNION ALL
         SELECT ${columns} FROM "Edge" e WHERE ${calls}
            AND e."dstId" IN (SELECT s."qualifiedId" FROM "Symbol" s WHERE ${symbols.sql} AND s.path IN (${filter}))`
             : ""
         }
       ) touching
       GROUP BY "srcId", "dstId", "srcPath", "dstPath" ORDER BY "srcId", line, "dstId"`,
      ...edges.params,
      ...params,
      ...(filter ? [...edges.params, ...symbols.params, ...params] : []),
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
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const visible = visibleSql(snapshot);
  // Cycles through vendored, generated and minified code are not the repository's to break.
  const own = ownEdge(visible, "");
  return queryRaw<{ srcId: string; dstId: string }[]>(
    client,
    `SELECT DISTINCT "srcId", "dstId" FROM "Edge"
      WHERE ${visible.sql} AND kind = 'calls' AND "dstId" IS NOT NULL AND confidence >= ? AND "srcId" != "dstId" AND ${own.sql}`,
    ...visible.params,
    minConfidence,
    ...own.params,
  );
}

/**
 * Resolved call and import edges that differ between a generation and the one it was
 * built from. Only rows the build inserted or closed can differ, so those are the
 * candidates; an edge counts as changed when no edge with the same endpoints exists
 * in the other generation (lines and confidences aside).
 */
export async function changedEdges(
  previousGenerationId: string,
  generationId: string,
): Promise<{ kind: string; srcPath: string; dstPath: string }[]> {
  const [client, previous, current] = await Promise.all([
    db(),
    snapshotOf(previousGenerationId),
    snapshotOf(generationId),
  ]);
  const side = (which: '"fromGeneration"' | '"toGeneration"', other: Snapshot) => {
    const visible = visibleSql(other, "o");
    return {
      sql: `SELECT e.kind, e."srcPath", e."dstPath" FROM "Edge" e
        WHERE e."repositoryId" = ? AND e.${which} = ? AND e.kind IN ('calls', 'imports') AND e."dstId" IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM "Edge" o WHERE ${visible.sql} AND o.kind = e.kind AND o."srcId" = e."srcId"
                            AND o."dstId" = e."dstId" AND o."srcPath" = e."srcPath" AND o."dstPath" = e."dstPath")`,
      params: [current.repositoryId, current.number, ...visible.params],
    };
  };
  const removed = side('"toGeneration"', current);
  const added = side('"fromGeneration"', previous);
  return queryRaw<{ kind: string; srcPath: string; dstPath: string }[]>(
    client,
    `${removed.sql} UNION ALL ${added.sql}`,
    ...removed.params,
    ...added.params,
  );
}

export interface EntryPointRow {
  path: string;
  qualifiedName: string;
  startLine: number;
  endLine: number;
  fanOut: number;
}

/**
 * Functions named like program entry points (`main`, `cli`, `run`), and top-level
 * functions nothing calls (a scan of every symbol: skipped with `uncalled: false`).
 */
export async function loadEntryPointCandidates(
  generationId: string,
  options: { uncalled?: boolean } = {},
): Promise<{ named: EntryPointRow[]; uncalled: EntryPointRow[] }> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const visible = visibleSql(snapshot);
  const select = `SELECT path, "qualifiedName", "startLine", "endLine", "fanOut" FROM "Symbol" WHERE ${visible.sql}`;
  const [named, uncalled] = await Promise.all([
    queryRaw<EntryPointRow[]>(
      client,
      `${select} AND kind = 'function' AND "parentId" IS NULL AND name IN ('main', 'cli', 'run', 'app', 'serve')
       ORDER BY path, "startLine" LIMIT 20`,
      ...visible.params,
    ),
    options.uncalled === false
      ? []
      : queryRaw<EntryPointRow[]>(
          client,
          `${select} AND kind = 'function' AND "parentId" IS NULL AND exported = ${sqlBool(true)} AND "fanIn" = 0 AND "fanOut" >= 1
       ORDER BY "fanOut" DESC, path, "startLine" LIMIT 60`,
          ...visible.params,
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

export async function symbolRanges(
  generationId: string,
  qualifiedIds: string[],
): Promise<Map<string, { path: string; startLine: number; endLine: number }>> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const out = new Map<string, { path: string; startLine: number; endLine: number }>();
  for (const batch of batches([...new Set(qualifiedIds)])) {
    const rows = await client.symbol.findMany({
      where: { ...visibleIn(snapshot), qualifiedId: { in: batch } },
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
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const edges = visibleSql(snapshot);
  const symbols = visibleSql(snapshot, "s");
  const [key, other] = direction === "in" ? ['"dstId"', '"srcId"'] : ['"srcId"', '"dstId"'];
  const share = 1 - options.percentile;
  // Calls into or out of vendored, generated and minified code make no god function or hotspot.
  const own = ownEdge(edges, "");
  const rows = await queryRaw<(FanRow & { population: number; rn: number })[]>(
    client,
    `WITH fan AS (
        SELECT ${key} AS id, count(DISTINCT ${other}) AS v FROM "Edge"
         WHERE ${edges.sql} AND kind = 'calls' AND "dstId" IS NOT NULL AND confidence >= ? AND ${own.sql} GROUP BY ${key}),
      numbered AS (
        SELECT s."qualifiedId", s.path, s."qualifiedName", s."startLine", s."endLine", fan.v AS value,
               row_number() OVER (ORDER BY fan.v DESC, s.path, s."startLine") AS rn, count(*) OVER () AS population
          FROM fan JOIN "Symbol" s ON ${symbols.sql} AND s."qualifiedId" = fan.id
         WHERE s.kind IN ('function', 'method'))
     SELECT * FROM numbered WHERE rn <= ? OR rn = ${floorToInt(`population * ${floatParam()}`)} + 1 ORDER BY rn`,
    ...edges.params,
    options.minConfidence,
    ...own.params,
    ...symbols.params,
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
  /** only in these files (every one of them, `limit` aside) */
  paths?: string[],
): Promise<FanRow[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const visible = visibleSql(snapshot);
  const order = `ORDER BY value DESC, path, "startLine"`;
  const select = (tail: string, params: unknown[]) =>
    queryRaw<FanRow[]>(
      client,
      `SELECT "qualifiedId", path, "qualifiedName", "startLine", "endLine", ("endLine" - "startLine" + 1) AS value
         FROM "Symbol" WHERE ${visible.sql} AND kind IN ('function', 'method') AND ("endLine" - "startLine" + 1) >= ?
         ${tail}`,
      ...visible.params,
      minLines,
      ...params,
    );
  const rows = paths
    ? await forPaths(paths, (filter, params) => select(`AND path IN (${filter}) ${order}`, params))
    : await select(`${order} LIMIT ?`, [limit]);
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

/**
 * Writes of module-level names (bare names in `mutates`; attributes like `self.x` are
 * object state), by functions of every file or of the given ones.
 */
export async function loadModuleStateWrites(
  generationId: string,
  paths?: string[],
): Promise<StateWriteRow[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const visible = visibleSql(snapshot, "s");
  const rows = await forPaths(paths ?? "all", (filter, params) =>
    queryRaw<StateWriteRow[]>(
      client,
      `SELECT s.path, j.value AS name, s."qualifiedId", s."qualifiedName", s."startLine", s."endLine"
         FROM "Symbol" s, ${jsonArrayElements("s.mutates", "j")}
        WHERE ${visible.sql} AND s.mutates != '[]' AND ${position("j.value", "'.'")} = 0
          ${filter ? `AND s.path IN (${filter})` : ""}
        ORDER BY s.path, s."startLine"`,
      ...visible.params,
      ...params,
    ),
  );
  return rows.map((r) => ({ ...r, startLine: Number(r.startLine), endLine: Number(r.endLine) }));
}

/** Stores the building generation's findings (each generation has its own, computed or carried over). */
