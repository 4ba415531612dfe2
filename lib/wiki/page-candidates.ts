/**
 * Which wiki pages a build (re)writes and how each is made: a file's page for every
 * changed file (and those whose call or import edges changed), a folder's page when what
 * it holds or links changed, the overview's entry points; each a candidate with the inputs
 * that decide whether its stored page is still good.
 */
import "server-only";
import type { WikiBuildInput, WikiChanges } from "./build-input.ts";
import { getFileContent } from "../db/index-reads.ts";
import {
  changedEdges,
  loadEntryPointCandidates,
  type CallRow,
  type ImportRow,
  type PageSymbolRow,
  type WikiFileRow,
} from "../db/wiki-inputs.ts";
import {
  buildDirectoryPage,
  buildOverviewPage,
  directoryInputs,
  overviewInputs,
  type DirectoryInput,
  type ListedFile,
  type OverviewInput,
} from "./directory-page.ts";
import { buildFilePage, filePageInputs, type FilePageInput } from "./file-page.ts";
import { moduleGraph } from "./structure.ts";
import { ancestorDirs, dirOf, dirSlug, fileSlug, OVERVIEW_SLUG } from "./slugs.ts";
import type { WikiPageDraft } from "../db/wiki-shapes.ts";

export interface Candidate {
  slug: string;
  /** inputs without the model tag */
  inputs: unknown[];
  /** files whose top-level symbols the page lists (loaded for every page of a batch at once) */
  needs?: string[];
  build: (hash: string, topLevel: Map<string, PageSymbolRow[]>) => Promise<WikiPageDraft>;
}

const README = /^readme(\.(md|markdown|rst|txt))?$/i;
const DOC_LANGUAGES = new Set(["markdown", "restructuredtext"]);
export const ENTRY_FILE =
  /(^|\/)(__main__\.py|main\.(py|go|rs|ts|js|java|c|cc|cpp|rb)|cli\.py|manage\.py|app\.(py|rb)|server\.(py|ts|js|go)|wsgi\.py|asgi\.py|Program\.cs|index\.php)$/;
// Tests, docs and examples are not how a program starts.
export const NOT_ENTRY =
  /(^|\/)(tests?|testing|__tests__|spec|docs?|examples?|benchmarks?|asv_bench)\/|(^|\/)(test_[^/]*|conftest\.py)$|_test\.go$|_(test|spec)\.rb$|\.(test|spec)\.[cm]?[jt]sx?$/;
const MAX_ENTRY_POINTS = 8;

/** Which resolved call and import edges differ from the previous generation, and the files at their ends. */
export async function edgeDiff(
  previousGenerationId: string,
  generationId: string,
): Promise<{ paths: Set<string>; callsChanged: boolean; importsChanged: boolean }> {
  const changed = await changedEdges(previousGenerationId, generationId);
  const paths = new Set<string>();
  for (const e of changed) {
    paths.add(e.srcPath);
    paths.add(e.dstPath);
  }
  return {
    paths,
    callsChanged: changed.some((e) => e.kind === "calls"),
    importsChanged: changed.some((e) => e.kind === "imports"),
  };
}

export function filePageCandidates(
  paths: string[],
  fileByPath: Map<string, WikiFileRow>,
  symbols: PageSymbolRow[],
  calls: CallRow[],
  imports: ImportRow[],
): Candidate[] {
  const symbolsByPath = groupBy(symbols, (s) => s.path);
  const out = groupBy(calls, (c) => c.srcPath);
  const into = groupBy(calls, (c) => c.dstPath);
  const importsOut = groupBy(imports, (e) => e.srcPath);
  const importsIn = groupBy(imports, (e) => e.dstPath);
  return paths.flatMap((path) => {
    const file = fileByPath.get(path);
    if (!file) return [];
    const page: FilePageInput = {
      path,
      language: file.language,
      lines: file.lines,
      hash: file.hash,
      facts: file.facts,
      symbols: symbolsByPath.get(path) ?? [],
      callsOut: out.get(path) ?? [],
      callsIn: into.get(path) ?? [],
      importsOut: [...new Set((importsOut.get(path) ?? []).map((e) => e.dstPath))],
      importedBy: [...new Set((importsIn.get(path) ?? []).map((e) => e.srcPath))],
    };
    return [
      {
        slug: fileSlug(path),
        inputs: filePageInputs(page),
        build: async (hash) => buildFilePage(page, hash),
      },
    ];
  });
}

/**
 * The folders whose page inputs a build can have changed: the folder of every changed,
 * added or removed file, every folder above an added or removed file (its counts), and
 * the folders at either end of an edge that changed (the imports a page lists).
 */
export function foldersToCheck(changes: WikiChanges, edgeEnds: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const p of [...changes.changedPaths, ...changes.removedPaths, ...edgeEnds]) out.add(dirOf(p));
  for (const p of [...changes.addedPaths, ...changes.removedPaths])
    for (const d of ancestorDirs(p)) out.add(d);
  return out;
}

/**
 * Folder pages and the overview, hashed from the inputs already loaded and built on
 * demand: every folder's, or only those in `only` (the others cannot have changed;
 * `files` must then hold every file under them, and `imports` every import with an
 * end in a file directly in one). The overview is a candidate when `withOverview`
 * (`files` and `imports` are then the repository's).
 */
export async function folderCandidates(
  input: WikiBuildInput,
  files: WikiFileRow[],
  imports: ImportRow[],
  only: Set<string> | null,
  withOverview: boolean,
): Promise<Candidate[]> {
  const { generationId } = input;
  const codeFiles = files.filter((f) => f.kind === "code");
  const dirs = new Set<string>();
  for (const f of codeFiles) for (const d of ancestorDirs(f.path)) dirs.add(d);
  const codeCount = new Map<string, number>();
  for (const f of codeFiles)
    for (const d of ancestorDirs(f.path)) codeCount.set(d, (codeCount.get(d) ?? 0) + 1);
  const filesIn = groupBy(files, (f) => dirOf(f.path));
  const subdirsOf = groupBy([...dirs], (d) => dirOf(d));
  const typeOnly = new Map(files.map((f) => [f.path, new Set(f.facts.typeOnlyImports)]));

  // Imports touching each folder's own files: from it, or into it (once when both).
  const importsOf = new Map<string, ImportRow[]>();
  const addImport = (dir: string, e: ImportRow) => {
    const list = importsOf.get(dir);
    if (list) list.push(e);
    else importsOf.set(dir, [e]);
  };
  for (const e of imports) {
    addImport(dirOf(e.srcPath), e);
    if (dirOf(e.dstPath) !== dirOf(e.srcPath)) addImport(dirOf(e.dstPath), e);
  }
  const directoryInput = (
    dir: string,
  ): Omit<DirectoryInput, "files" | "readme"> & { direct: WikiFileRow[] } => ({
    path: dir,
    direct: filesIn.get(dir) ?? [],
    subdirs: (subdirsOf.get(dir) ?? []).map((d) => ({ path: d, codeFiles: codeCount.get(d) ?? 0 })),
    imports: importsOf.get(dir) ?? [],
  });
  const codeIn = (partial: ReturnType<typeof directoryInput>) =>
    partial.direct.filter((f) => f.kind === "code").map((f) => f.path);
  const complete = async (
    partial: ReturnType<typeof directoryInput>,
    symbols: Map<string, PageSymbolRow[]>,
  ): Promise<DirectoryInput> => {
    const listed: ListedFile[] = partial.direct.map((f) => ({ ...f, symbols: symbols.get(f.path) ?? [] }));
    const readmeFile = partial.direct.find((f) => README.test(f.path.split("/").pop() ?? ""));
    const content = readmeFile ? await getFileContent(generationId, readmeFile.path) : null;
    return {
      path: partial.path,
      files: listed,
      subdirs: partial.subdirs,
      imports: partial.imports,
      readme: readmeFile && content !== null ? { path: readmeFile.path, content } : null,
    };
  };

  const candidates: Candidate[] = [...dirs]
    .filter((dir) => !only || only.has(dir))
    .map((dir) => {
      const partial = directoryInput(dir);
      const hashable: DirectoryInput = {
        ...partial,
        files: partial.direct.map((f) => ({ ...f, symbols: [] })),
        readme: null,
      };
      return {
        slug: dirSlug(dir),
        inputs: directoryInputs(hashable),
        needs: codeIn(partial),
        build: async (hash, topLevel) => buildDirectoryPage(await complete(partial, topLevel), hash),
      };
    });

  if (!withOverview) return candidates;
  // The overview: the root folder's listing plus what describes the whole repository.
  const root = directoryInput(".");
  const liveImports = imports.filter((e) => !typeOnly.get(e.srcPath)?.has(e.line));
  const graph = moduleGraph(
    codeFiles.map((f) => f.path),
    liveImports,
    null,
  );
  const languages: Record<string, number> = {};
  for (const f of files) languages[f.language] = (languages[f.language] ?? 0) + 1;
  const docs = files
    .filter((f) => DOC_LANGUAGES.has(f.language))
    .map((f) => f.path)
    .sort((a, b) => Number(dirOf(b) === ".") - Number(dirOf(a) === ".") || a.localeCompare(b))
    .slice(0, 20);
  const entryPoints = await entryPointsOf(generationId, codeFiles);
  const overviewBase: Omit<OverviewInput, "files" | "readme"> = {
    path: ".",
    subdirs: root.subdirs,
    imports: root.imports,
    repositoryName: input.repositoryName,
    languages,
    docs,
    entryPoints,
    modules: graph.modules,
    moduleEdges: graph.moduleEdges,
    moduleCycles: graph.moduleCycles,
    codeFiles: codeFiles.map((f) => f.path),
  };
  candidates.push({
    slug: OVERVIEW_SLUG,
    inputs: overviewInputs({
      ...overviewBase,
      files: root.direct.map((f) => ({ ...f, symbols: [] })),
      readme: null,
    }),
    needs: codeIn(root),
    build: async (hash, topLevel) => {
      const done = await complete(root, topLevel);
      return buildOverviewPage({ ...overviewBase, files: done.files, readme: done.readme }, hash);
    },
  });
  return candidates;
}

/**
 * How the program starts: files named like entry points and functions named `main`
 * (or `cli`, `run` …) outside tests; failing those, the public functions nothing in
 * the repository calls that call the most (where call chains begin).
 */
export async function entryPointsOf(
  generationId: string,
  codeFiles: WikiFileRow[],
): Promise<OverviewInput["entryPoints"]> {
  const candidates = await loadEntryPointCandidates(generationId);
  // Only in files the wiki documents: not in vendored, generated or minified code.
  const documented = new Set(codeFiles.map((f) => f.path));
  const named = candidates.named.filter((s) => documented.has(s.path));
  const uncalled = candidates.uncalled.filter((s) => documented.has(s.path));
  const out: OverviewInput["entryPoints"] = [];
  const seen = new Set<string>();
  const add = (e: OverviewInput["entryPoints"][number]) => {
    const key = `${e.path}::${e.qualifiedName}`;
    if (seen.has(key) || out.length >= MAX_ENTRY_POINTS || NOT_ENTRY.test(e.path)) return;
    seen.add(key);
    out.push(e);
  };
  for (const s of named) add({ ...s, why: `function named ${s.qualifiedName}` });
  for (const f of codeFiles)
    if (ENTRY_FILE.test(f.path) && !out.some((e) => e.path === f.path))
      add({
        path: f.path,
        qualifiedName: f.path.split("/").pop() ?? f.path,
        startLine: 1,
        endLine: Math.max(1, f.lines),
        why: "file named like an entry point",
      });
  if (out.length === 0)
    for (const s of uncalled.slice(0, 40))
      if (out.length < 5) add({ ...s, why: `public, not called inside the repository, calls ${s.fanOut}` });
  return out.map(({ path, qualifiedName, startLine, endLine, why }) => ({
    path,
    qualifiedName,
    startLine,
    endLine,
    why,
  }));
}

export function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}
