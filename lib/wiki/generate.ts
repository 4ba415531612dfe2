/**
 * The wiki phase of an index build: pages for the repository, each folder and each
 * source file, and the issues store, written into the new generation.
 *
 * Incremental like the rest of the index. Every page stores an `inputHash` of what it
 * was built from; a page whose inputs hash the same as the previous generation's page
 * is copied in SQL, anything else is regenerated. Inputs are chosen so that an edit
 * touches few pages:
 * - a file page depends on the file's content and on the resolved edges between it and
 *   other files (names, not line numbers): editing a file regenerates its own page,
 *   and another file's page only when the calls or imports between them changed;
 * - a folder page depends on the content hashes of the files directly in it, its
 *   subfolders' sizes and the imports touching it: an edited file regenerates its
 *   folder's page, not the folders above it (the overview is the root folder's page);
 * - the overview depends on the README, languages, entry points and module graph.
 * File and folder pages are hashed only where something can have changed: changed files
 * and the files at either end of an edge that differs from the previous generation
 * (only edge rows the build inserted or closed can), and their folders. Everything else
 * is kept — shared with the previous generation — without loading its inputs. When the
 * overview and the repository-wide findings cannot have changed either, nothing but the
 * changed files' surroundings is read (buildScopedWiki), which keeps a one-file
 * re-index of a large repository cheap; otherwise every file's row and import is read
 * once (buildWholeWiki).
 */
import "server-only";
import { createHash } from "node:crypto";
import {
  closeWikiPages,
  countWikiPages,
  insertFindings,
  insertWikiPages,
  loadPageIndex,
  type StoredPageIndex,
} from "../db/wiki-store.ts";
import {
  loadCallsTouching,
  loadEntryPointCandidates,
  loadImportEdges,
  loadPageSymbols,
  loadWikiFiles,
  type ImportRow,
  type WikiFileRow,
} from "../db/wiki-inputs.ts";
import { loadEngineSettings } from "../settings/load.ts";
import { categoriesUnchanged, computeFindings } from "./findings.ts";
import { addModelSummaries, type SummaryRun } from "./summaries.ts";
import { dirOf, dirSlug, fileSlug, OVERVIEW_SLUG } from "./slugs.ts";
import type { WikiPageDraft } from "../db/wiki-shapes.ts";
import type { WikiBuildInput } from "./build-input.ts";
import {
  edgeDiff,
  ENTRY_FILE,
  filePageCandidates,
  folderCandidates,
  foldersToCheck,
  groupBy,
  NOT_ENTRY,
  type Candidate,
} from "./page-candidates.ts";

export type { WikiBuildInput, WikiChanges } from "./build-input.ts";

/** File pages are built this many at a time (their symbols and calls loaded per batch). */
const FILE_PAGE_BATCH = 100;

/** Bumped whenever page or findings generation changes: every page is rebuilt on the next build. */
export const WIKI_FORMAT_VERSION = 3; // 2: a file's purpose never comes from its first function's docstring; 3: diagrams capped at a dozen nodes, the rest grouped

export interface WikiBuildStats {
  /** what was read: the changed files' surroundings only, or the whole repository's pages */
  scope: "changes" | "all";
  pages: number;
  generated: number;
  reused: number;
  modelWritten: number;
  findings: number;
  formatVersion: number;
  model: string | null;
}

export function hashInputs(inputs: unknown[], version: number, modelTag: string): string {
  return createHash("sha1")
    .update(JSON.stringify([WIKI_FORMAT_VERSION, version, modelTag, inputs]))
    .digest("hex");
}

/** What the previous build recorded about its wiki (its generation's stats). */
interface PreviousWikiStats {
  wikiFormatVersion?: number;
  wikiModel?: string | null;
  wikiPages?: number;
}

function previousStats(stats: string): PreviousWikiStats {
  try {
    return JSON.parse(stats) as PreviousWikiStats;
  } catch {
    return {};
  }
}

export async function buildWiki(input: WikiBuildInput): Promise<WikiBuildStats> {
  // The model questions use (the admin's choice over the environment), or none.
  const model = input.model === undefined ? (await loadEngineSettings()).model : input.model;
  const resolved = { ...input, model };
  return (await buildScopedWiki(resolved)) ?? (await buildWholeWiki(resolved));
}

/** Writes pages: a candidate whose inputs hash as its previous page's is kept, the others are built. */
function pageWriter(input: WikiBuildInput, previous: Map<string, StoredPageIndex> | null) {
  const modelTag = input.model?.label ?? "none";
  const summaries: SummaryRun = { consecutiveFailures: 0 };
  const state = { keep: [] as string[], generated: 0, modelWritten: 0 };
  // Pages whose inputs hash as before are kept; the others are built and written, a
  // batch at a time, so a build holds the inputs of one batch of pages, not the wiki's.
  const settle = async (candidates: Candidate[]) => {
    const regenerate: { candidate: Candidate; hashes: { model: string; evidence: string } }[] = [];
    for (const c of candidates) {
      const withModel = hashInputs(c.inputs, input.formatVersion, modelTag);
      const old = previous?.get(c.slug);
      if (old && old.inputHash === withModel) state.keep.push(c.slug);
      else
        regenerate.push({
          candidate: c,
          hashes: { model: withModel, evidence: hashInputs(c.inputs, input.formatVersion, "none") },
        });
    }
    const needed = [...new Set(regenerate.flatMap((r) => r.candidate.needs ?? []))];
    const topLevel = groupBy(
      needed.length ? await loadPageSymbols(input.generationId, needed, { topLevel: true }) : [],
      (s) => s.path,
    );
    const drafts: WikiPageDraft[] = [];
    for (const { candidate, hashes } of regenerate)
      drafts.push(await candidate.build(hashes.evidence, topLevel));
    if (input.model && drafts.length) {
      const outcome = await addModelSummaries(drafts, input.model, summaries);
      state.modelWritten += outcome.written;
      const bySlug = new Map(regenerate.map((r) => [r.candidate.slug, r.hashes]));
      // A page carries the model in its hash only once the model really wrote its summary.
      for (const d of drafts) if (d.modelWritten) d.inputHash = bySlug.get(d.slug)?.model ?? d.inputHash;
    }
    await insertWikiPages(input.generationId, drafts);
    state.generated += drafts.length;
  };
  return { state, settle };
}

/** File pages of the given code files, a batch at a time (their symbols and calls loaded per batch). */
async function writeFilePages(
  generationId: string,
  filePaths: string[],
  fileByPath: Map<string, WikiFileRow>,
  imports: ImportRow[],
  settle: (candidates: Candidate[]) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < filePaths.length; i += FILE_PAGE_BATCH) {
    const paths = filePaths.slice(i, i + FILE_PAGE_BATCH);
    const [symbols, calls] = await Promise.all([
      loadPageSymbols(generationId, paths),
      loadCallsTouching(generationId, paths),
    ]);
    await settle(filePageCandidates(paths, fileByPath, symbols, calls, imports));
  }
}

/**
 * The wiki of an incremental build that edited files without adding or removing any,
 * read from the changed files and their surroundings only: the pages of the changed
 * files and of the files at the ends of changed edges, the folders holding them, and
 * the findings. It applies only when nothing the overview and the repository-wide
 * findings are computed from can have changed — no file added, removed or turned into
 * another language, the same import graph (deferred imports aside) and the same entry
 * points; otherwise null, and the whole wiki is checked (buildWholeWiki). The pages it
 * writes, keeps and closes are exactly those the whole check would.
 */
async function buildScopedWiki(input: WikiBuildInput): Promise<WikiBuildStats | null> {
  const { generationId, previous, changes } = input;
  // A model's pages are retried by the whole check (pages it left evidence-only).
  if (!previous || !changes || input.model) return null;
  const prior = previousStats(previous.stats);
  if (prior.wikiFormatVersion !== WIKI_FORMAT_VERSION || (prior.wikiModel ?? null) !== null) return null;
  if (changes.addedPaths.length > 0 || changes.removedPaths.length > 0) return null;
  const diff = await edgeDiff(previous.id, generationId);
  if (diff.importsChanged) return null;
  const folders = foldersToCheck(changes, diff.paths);
  // A file at the root is listed by the overview; one named like an entry point is one.
  if (folders.has(".") || changes.changedPaths.some((p) => ENTRY_FILE.test(p))) return null;
  const changed = changes.changedPaths;
  const [before, after, importsBefore, importsAfter, overview, pageCount] = await Promise.all([
    loadWikiFiles(previous.id, { paths: changed }),
    loadWikiFiles(generationId, { paths: changed }),
    loadImportEdges(previous.id, { from: changed }),
    loadImportEdges(generationId, { from: changed }),
    loadPageIndex(previous.id, [OVERVIEW_SLUG]),
    // The previous build counted its pages.
    prior.wikiPages ?? countWikiPages(previous.id),
  ]);
  const kinds = (rows: WikiFileRow[]) => JSON.stringify(rows.map((f) => [f.path, f.kind, f.language]));
  if (pageCount === 0 || overview[0]?.title !== input.repositoryName || kinds(before) !== kinds(after))
    return null;
  if (liveImportPairs(before, importsBefore) !== liveImportPairs(after, importsAfter)) return null;
  if (!(await sameEntryPoints(previous.id, generationId))) return null;

  const [pageFiles, folderFiles] = await Promise.all([
    loadWikiFiles(generationId, { paths: [...new Set([...changed, ...diff.paths])] }),
    loadWikiFiles(generationId, { under: [...folders] }),
  ]);
  const filePaths = pageFiles.filter((f) => f.kind === "code").map((f) => f.path);
  const direct = folderFiles.filter((f) => folders.has(dirOf(f.path))).map((f) => f.path);
  const [pageImports, folderImports, old] = await Promise.all([
    loadImportEdges(generationId, { touching: filePaths }),
    loadImportEdges(generationId, { touching: direct }),
    loadPageIndex(previous.id, [...filePaths.map(fileSlug), ...[...folders].map(dirSlug)]),
  ]);
  const writer = pageWriter(input, new Map(old.map((p) => [p.slug, p])));
  await writeFilePages(
    generationId,
    filePaths,
    new Map(pageFiles.map((f) => [f.path, f])),
    pageImports,
    writer.settle,
  );
  await writer.settle(await folderCandidates(input, folderFiles, folderImports, folders, false));
  const kept = new Set(writer.state.keep);
  const closing = old.filter((p) => !kept.has(p.slug));
  await closeWikiPages(generationId, closing);

  const findings = await computeFindings({
    generationId,
    everything: async () => {
      const [files, imports] = await Promise.all([
        loadWikiFiles(generationId),
        loadImportEdges(generationId),
      ]);
      return { files, imports };
    },
    factsOf: async (paths) =>
      new Map((await loadWikiFiles(generationId, { paths })).map((f) => [f.path, f.facts])),
    sameCallGraphAs: diff.callsChanged ? null : previous.id,
    sameFactsAs: {
      generationId: previous.id,
      categories: await categoriesUnchanged({
        previousGenerationId: previous.id,
        generationId,
        before,
        after,
        importLinesSame: importLines(importsBefore) === importLines(importsAfter),
      }),
    },
  });
  await insertFindings(generationId, findings);
  const reused = pageCount - closing.length;
  return {
    scope: "changes",
    pages: reused + writer.state.generated,
    generated: writer.state.generated,
    reused,
    modelWritten: 0,
    findings: findings.length,
    formatVersion: WIKI_FORMAT_VERSION,
    model: null,
  };
}

/**
 * Whether two generations' overviews list the same entry points (entryPointsOf), files
 * named like one aside: the same functions named like one, and — read only when none
 * of those counts — the same uncalled functions.
 */
async function sameEntryPoints(previousGenerationId: string, generationId: string): Promise<boolean> {
  const both = (uncalled: boolean) =>
    Promise.all([
      loadEntryPointCandidates(previousGenerationId, { uncalled }),
      loadEntryPointCandidates(generationId, { uncalled }),
    ]);
  const [before, after] = await both(false);
  if (JSON.stringify(before.named) !== JSON.stringify(after.named)) return false;
  if (before.named.some((s) => !NOT_ENTRY.test(s.path))) return true;
  const [uncalledBefore, uncalledAfter] = await both(true);
  return JSON.stringify(uncalledBefore.uncalled) === JSON.stringify(uncalledAfter.uncalled);
}

/** A file's imports with their lines, in a stable order (edge ids differ between generations). */
function importLines(imports: ImportRow[]): string {
  return JSON.stringify(imports.map((e) => `${e.srcPath}\u0000${e.line}\u0000${e.dstPath}`).sort());
}

/** The module graph's input from some files: their imports that run (not for type checking only). */
function liveImportPairs(files: WikiFileRow[], imports: ImportRow[]): string {
  const typeOnly = new Map(files.map((f) => [f.path, new Set(f.facts.typeOnlyImports)]));
  return JSON.stringify(
    imports
      .filter((e) => !typeOnly.get(e.srcPath)?.has(e.line))
      .map((e) => `${e.srcPath}\u0000${e.dstPath}`)
      .sort(),
  );
}

/** Every page checked: the first build, or one whose changes may reach the overview. */
async function buildWholeWiki(input: WikiBuildInput): Promise<WikiBuildStats> {
  const { generationId } = input;
  const [files, imports] = await Promise.all([loadWikiFiles(generationId), loadImportEdges(generationId)]);
  const modelLabel = input.model?.label ?? null;
  // An empty folder has nothing to describe.
  if (files.length === 0)
    return {
      scope: "all",
      pages: 0,
      generated: 0,
      reused: 0,
      modelWritten: 0,
      findings: 0,
      formatVersion: WIKI_FORMAT_VERSION,
      model: modelLabel,
    };
  const prior = input.previous ? previousStats(input.previous.stats) : {};
  const previousPages = input.previous ? await loadPageIndex(input.previous.id) : [];
  const comparable =
    input.previous !== null && prior.wikiFormatVersion === WIKI_FORMAT_VERSION && previousPages.length > 0;
  const oldBySlug = new Map(previousPages.map((p) => [p.slug, p]));

  const diff =
    comparable && input.changes && input.previous ? await edgeDiff(input.previous.id, generationId) : null;
  const codeFiles = files.filter((f) => f.kind === "code");
  const codePaths = new Set(codeFiles.map((f) => f.path));

  // File and folder pages whose inputs may differ; the rest are kept unread.
  let filePaths: string[];
  let folders: Set<string> | null = null;
  if (!comparable || !input.changes || !diff || (prior.wikiModel ?? null) !== modelLabel) {
    filePaths = codeFiles.map((f) => f.path);
  } else {
    folders = foldersToCheck(input.changes, diff.paths);
    if (modelLabel)
      for (const p of previousPages)
        if (p.kind !== "file" && !p.modelWritten) folders.add(p.sourcePath ?? ".");
    const set = new Set([...input.changes.changedPaths, ...diff.paths].filter((p) => codePaths.has(p)));
    // A model that failed last time gets another chance at the pages it left evidence-only.
    if (modelLabel)
      for (const p of previousPages)
        if (p.kind === "file" && !p.modelWritten && p.sourcePath) set.add(p.sourcePath);
    for (const p of codePaths) if (!oldBySlug.has(fileSlug(p))) set.add(p);
    filePaths = [...set];
  }
  const fileByPath = new Map(files.map((f) => [f.path, f]));
  const writer = pageWriter(input, comparable ? oldBySlug : null);
  const { keep } = writer.state;
  await writeFilePages(generationId, filePaths, fileByPath, imports, writer.settle);
  await writer.settle(await folderCandidates(input, files, imports, folders, true));
  if (comparable) {
    const considered = new Set(filePaths);
    for (const p of codePaths) if (!considered.has(p) && oldBySlug.has(fileSlug(p))) keep.push(fileSlug(p));
    if (folders)
      for (const p of previousPages)
        if (p.kind === "directory" && p.sourcePath && !folders.has(p.sourcePath)) keep.push(p.slug);
  }
  // The previous generation's pages are the rows still open: those neither kept nor
  // rewritten above are closed (a full build closed every row before it began).
  const kept = new Set(keep);
  await closeWikiPages(
    generationId,
    previousPages.filter((p) => !kept.has(p.slug)),
  );

  const findings = await computeFindings({
    generationId,
    everything: async () => ({ files, imports }),
    factsOf: async (paths) =>
      new Map(
        paths.flatMap((p) => {
          const f = fileByPath.get(p);
          return f ? [[p, f.facts] as const] : [];
        }),
      ),
    sameCallGraphAs: comparable && diff && !diff.callsChanged && input.previous ? input.previous.id : null,
    sameFactsAs: null,
  });
  await insertFindings(generationId, findings);

  return {
    scope: "all",
    pages: keep.length + writer.state.generated,
    generated: writer.state.generated,
    reused: keep.length,
    modelWritten: writer.state.modelWritten,
    findings: findings.length,
    formatVersion: WIKI_FORMAT_VERSION,
    model: modelLabel,
  };
}
