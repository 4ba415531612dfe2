/**
 * The index build: discover → parse → extract → resolve → store → embed → flip.
 * Each build is a new generation written beside the serving one. Files whose content
 * hash is unchanged are copied from the previous generation in SQL instead of being
 * re-parsed; call resolution runs over the whole generation so edges into changed
 * files are recomputed. Only a complete build is activated; a failed or killed one
 * leaves the previous generation serving.
 */
import "server-only";
import { env } from "../env.ts";
import { WayfinderError } from "../errors.ts";
import {
  activateGeneration,
  collectBlobs,
  collectGarbage,
  copyEdges,
  copyUnchanged,
  edgeTotals,
  createRepository,
  failGeneration,
  findRepository,
  getGeneration,
  insertChunks,
  insertEdges,
  insertFiles,
  insertSymbols,
  listFiles,
  loadResolverRows,
  reportProgress,
  startGeneration,
  symbolNamesInPaths,
  updateFanCounts,
  upsertBlobs,
  type ChunkInsert,
  type EdgeInsert,
  type GenerationRow,
  type RepositoryRow,
  type SymbolInsert,
} from "../db/index-store.ts";
import { indexText } from "../db/tokenize.ts";
import { chunkCode, chunkText, fileLines } from "./chunk.ts";
import { detectEntryPoints } from "./entry-points.ts";
import { discoverFiles, resolveRepositoryRoot, type DiscoveredFile, type SkipReason } from "./discover.ts";
import type { SecretReport } from "./secrets.ts";
import { extractSource } from "./extract/index.ts";
import { Resolver, type ResolverFile, type ResolverSymbol } from "./resolve.ts";
import type { CodeLanguage, ExtractedCall, SymbolKind } from "./types.ts";
import { collectVectorGarbage, embedGeneration } from "./embed.ts";
import { loadEngineSettings } from "../admin/settings.ts";
import type { ConfiguredModel } from "../answerers/providers.ts";
import { buildWiki, type WikiBuildStats } from "../wiki/generate.ts";
import { prepareCheckout } from "../sources/checkout.ts";

/**
 * Bumped whenever extraction or chunking changes what is stored for a file: rows of
 * a generation built with another version are never reused, every file is re-parsed.
 */
export const INDEX_FORMAT_VERSION = 7; // 3: imports record aliases; 4: entry points in file facts; 5: module-level lines in file chunks; 6: secrets redacted; 7: C, C++, C#, Ruby and PHP extracted

/** How often a running build refreshes its heartbeat (well under STALE_BUILD_MS). */
const HEARTBEAT_MS = 10_000;

export type BuildPhase =
  | "fetching"
  | "discovering"
  | "parsing"
  | "storing"
  | "resolving"
  | "wiki"
  | "embedding"
  | "activating"
  | "done";

export interface BuildProgress {
  phase: BuildPhase;
  filesDone: number;
  filesTotal: number;
}

export interface BuildStats {
  formatVersion: number;
  generation: number;
  generationId: string;
  files: number;
  codeFiles: number;
  textFiles: number;
  parsedFiles: number;
  reusedFiles: number;
  removedFiles: number;
  symbols: number;
  edges: number;
  callEdges: number;
  /** edges resolved in this build, and edges copied unchanged from the previous generation */
  resolvedEdges: number;
  copiedEdges: number;
  chunks: number;
  /** chunks embedded in this build, and chunks whose vectors were reused from the previous one */
  embeddedChunks: number;
  reusedVectors: number;
  lines: number;
  languages: Record<string, number>;
  skipped: Record<SkipReason, number>;
  /** secret files skipped and secrets redacted (lib/indexer/secrets.ts) */
  secrets: SecretReport;
  parseErrors: number;
  seconds: number;
  /** seconds spent in each phase */
  phaseSeconds: Record<string, number>;
  /** peak resident memory of the indexing process so far, MB */
  peakRssMb: number;
  source: "git" | "walk";
  /** wiki pages and the issues store (lib/wiki/generate.ts) */
  wikiSeconds: number;
  wikiPages: number;
  wikiPagesGenerated: number;
  wikiPagesReused: number;
  wikiModelWritten: number;
  findings: number;
  /** what the pages were generated with: a later build regenerates them when either changes */
  wikiFormatVersion: number;
  wikiModel: string | null;
  /** the commit indexed (Git sources: the fetched branch head; folders: HEAD of the work tree) */
  commitSha: string | null;
}

export interface BuildOptions {
  name?: string;
  onProgress?: (progress: BuildProgress) => void;
  /** Test hook: called after each phase; throwing aborts the build like a crash would. */
  afterPhase?: (phase: BuildPhase) => void | Promise<void>;
  maxFileBytes?: number;
  /** The model that writes wiki summaries; defaults to the configured provider (null: evidence only). */
  wikiModel?: ConfiguredModel | null;
  /** A generation this process already claimed (a queued job); otherwise one is started (or a queued one claimed). */
  generation?: GenerationRow;
}

export interface BuildResult {
  repository: RepositoryRow;
  stats: BuildStats;
}

/** Registers a folder repository if needed (or takes a registered Git source) and builds a new generation of its index. */
export async function indexRepository(inputPath: string, options: BuildOptions = {}): Promise<BuildResult> {
  // A Git-sourced repository is named by its id, name or checkout path; its folder may not exist yet.
  const registered = await findRepository(inputPath);
  if (registered?.sourceKind === "git") {
    const stats = await buildGeneration(registered, options);
    return { repository: (await findRepository(registered.id)) ?? registered, stats };
  }
  const root = resolveRepositoryRoot(inputPath);
  const existing = await findRepository(root);
  const name = options.name ?? existing?.name ?? defaultName(root);
  const repository = existing ?? (await createRepository({ name, rootPath: root }));
  const stats = await buildGeneration(repository, options);
  return { repository: (await findRepository(repository.id)) ?? repository, stats };
}

function defaultName(root: string): string {
  return root.split("/").filter(Boolean).pop() ?? "repository";
}

export async function buildGeneration(
  repository: RepositoryRow,
  options: BuildOptions = {},
): Promise<BuildStats> {
  const started = performance.now();
  const generation = options.generation ?? (await startGeneration(repository.id, process.pid));
  const progress: BuildProgress = { phase: "discovering", filesDone: 0, filesTotal: 0 };
  let lastReport = 0;
  const report = async (force = false) => {
    options.onProgress?.({ ...progress });
    const now = Date.now();
    if (force || now - lastReport > 400) {
      lastReport = now;
      await reportProgress(generation.id, { ...progress });
    }
  };
  const phaseSeconds: Record<string, number> = {};
  let phaseStart = performance.now();
  const phaseDone = async (phase: BuildPhase) => {
    const now = performance.now();
    phaseSeconds[phase] = Math.round(now - phaseStart) / 1000;
    phaseStart = now;
    await options.afterPhase?.(phase);
  };
  // Long phases (storing, resolving, embedding) report no per-file progress; this keeps
  // the heartbeat fresh so other processes never mistake a slow build for a dead one.
  const heartbeat = setInterval(() => {
    void reportProgress(generation.id, { ...progress }).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  try {
    const git = repository.sourceKind === "git";
    if (git) progress.phase = "fetching";
    await report(true);
    const checkout = await prepareCheckout(repository, generation.id);
    if (git) {
      await phaseDone("fetching");
      progress.phase = "discovering";
      await report(true);
    }
    const discovery = await discoverFiles(checkout.root, {
      maxFileBytes: options.maxFileBytes ?? env().WAYFINDER_MAX_FILE_BYTES,
    });
    await phaseDone("discovering");

    const previousGeneration = repository.activeGenerationId
      ? await getGeneration(repository.activeGenerationId)
      : null;
    const reusable =
      previousGeneration !== null &&
      (JSON.parse(previousGeneration.stats) as { formatVersion?: number }).formatVersion ===
        INDEX_FORMAT_VERSION;
    const previous =
      reusable && repository.activeGenerationId ? await listFiles(repository.activeGenerationId) : [];
    const previousByPath = new Map(previous.map((f) => [f.path, f]));
    const unchanged: string[] = [];
    const changed: DiscoveredFile[] = [];
    for (const file of discovery.files) {
      const old = previousByPath.get(file.path);
      if (old && old.hash === file.hash) unchanged.push(file.path);
      else changed.push(file);
    }
    // Files of the previous generation that are gone from the work tree (changed ones are not removed).
    const discoveredPaths = new Set(discovery.files.map((f) => f.path));
    const removed = previous.filter((f) => !discoveredPaths.has(f.path)).length;

    progress.phase = "parsing";
    progress.filesTotal = discovery.files.length;
    progress.filesDone = unchanged.length;
    await report(true);

    const fileIds = new Map<string, number>();
    if (reusable && repository.activeGenerationId && unchanged.length) {
      for (const [p, id] of await copyUnchanged(repository.activeGenerationId, generation.id, unchanged)) {
        fileIds.set(p, id);
      }
    }

    const parsed = await parseFiles(changed, async () => {
      progress.filesDone++;
      await report();
    });
    await phaseDone("parsing");

    progress.phase = "storing";
    await report(true);
    const newIds = await insertFiles(
      generation.id,
      parsed.map((p) => ({
        path: p.file.path,
        language: p.file.language,
        kind: p.file.kind,
        hash: p.file.hash,
        size: p.file.size,
        lines: p.file.lines,
        imports: JSON.stringify(p.imports),
        parseErrors: p.parseErrors,
        facts: p.facts,
      })),
    );
    for (const [p, id] of newIds) fileIds.set(p, id);
    // Blobs go in after the File rows that reference them: another repository's build
    // collecting unreferenced blobs in between would otherwise delete them.
    await upsertBlobs(changed.map((f) => ({ hash: f.hash, content: f.content })));
    const symbolRows: SymbolInsert[] = [];
    const chunkRows: ChunkInsert[] = [];
    for (const p of parsed) {
      const fileId = fileIds.get(p.file.path);
      if (fileId === undefined) continue;
      symbolRows.push(...p.symbols.map((s) => ({ ...s, fileId })));
      chunkRows.push(
        ...p.chunks.map((c) => ({
          ...c,
          fileId,
          path: p.file.path,
          searchText: indexText(`${p.file.path}\n${c.title}\n${c.text}`),
          tokens: Math.ceil(c.text.length / 3.6),
        })),
      );
    }
    await insertSymbols(generation.id, symbolRows);
    await insertChunks(generation.id, chunkRows);
    await phaseDone("storing");

    progress.phase = "resolving";
    await report(true);
    const incremental =
      reusable && repository.activeGenerationId && unchanged.length
        ? {
            previousGenerationId: repository.activeGenerationId,
            unchangedPaths: unchanged,
            changedPaths: changed.map((f) => f.path),
            removedPaths: previous.filter((f) => !discoveredPaths.has(f.path)).map((f) => f.path),
            added: changed.some((f) => !previousByPath.has(f.path)),
          }
        : null;
    const { edges, copiedEdges, redoSources, allImports } = await resolveGeneration(
      generation.id,
      incremental,
    );
    await insertEdges(generation.id, edges);
    const totals = await edgeTotals(generation.id);
    await updateFanCounts(generation.id);
    await phaseDone("resolving");

    progress.phase = "wiki";
    await report(true);
    const wiki: WikiBuildStats = await buildWiki({
      repositoryName: repository.name,
      generationId: generation.id,
      formatVersion: INDEX_FORMAT_VERSION,
      previous: reusable && previousGeneration ? previousGeneration : null,
      changes: incremental
        ? {
            changedPaths: incremental.changedPaths,
            removedPaths: incremental.removedPaths,
            redoSources,
            allImports,
          }
        : null,
      // The model questions use (the admin's choice over the environment), or none.
      model: options.wikiModel === undefined ? (await loadEngineSettings()).model : options.wikiModel,
    });
    await phaseDone("wiki");

    progress.phase = "embedding";
    await report(true);
    const embedding = await embedGeneration(repository.id, generation.id, repository.activeGenerationId);
    await phaseDone("embedding");

    progress.phase = "activating";
    await report(true);
    const languages: Record<string, number> = {};
    let lines = 0;
    let symbols = 0;
    for (const f of discovery.files) {
      languages[f.language] = (languages[f.language] ?? 0) + 1;
      lines += f.lines;
    }
    const resolverRows = await loadResolverRows(generation.id);
    symbols = resolverRows.symbols.length;
    const stats: BuildStats = {
      formatVersion: INDEX_FORMAT_VERSION,
      generation: generation.number,
      generationId: generation.id,
      files: discovery.files.length,
      codeFiles: discovery.files.filter((f) => f.kind === "code").length,
      textFiles: discovery.files.filter((f) => f.kind === "text").length,
      parsedFiles: changed.length,
      reusedFiles: unchanged.length,
      removedFiles: removed,
      symbols,
      edges: totals.edges,
      callEdges: totals.callEdges,
      resolvedEdges: edges.length,
      copiedEdges,
      chunks: embedding.chunks,
      embeddedChunks: embedding.embedded,
      reusedVectors: embedding.reused,
      lines,
      languages,
      skipped: discovery.skipped,
      secrets: discovery.secrets,
      parseErrors: parsed.reduce((n, p) => n + p.parseErrors, 0),
      seconds: 0,
      phaseSeconds,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      source: discovery.source,
      wikiSeconds: phaseSeconds.wiki ?? 0,
      wikiPages: wiki.pages,
      wikiPagesGenerated: wiki.generated,
      wikiPagesReused: wiki.reused,
      wikiModelWritten: wiki.modelWritten,
      findings: wiki.findings,
      wikiFormatVersion: wiki.formatVersion,
      wikiModel: wiki.model,
      commitSha: checkout.commitSha,
    };
    stats.seconds = Math.round((performance.now() - started) / 10) / 100;
    await activateGeneration(generation.id, stats);
    progress.phase = "done";
    await report(true);
    await collectGarbage(repository.id);
    await collectVectorGarbage(repository.id);
    await collectBlobs();
    return stats;
  } catch (error) {
    const message =
      error instanceof WayfinderError
        ? error.message
        : error instanceof Error
          ? error.message
          : String(error);
    await failGeneration(generation.id, message).catch(() => undefined);
    // A failed build's vectors are never read: drop its collection now (best effort).
    await collectVectorGarbage(repository.id).catch(() => undefined);
    throw error;
  } finally {
    clearInterval(heartbeat);
  }
}

interface ParsedFile {
  file: DiscoveredFile;
  imports: { module: string; names: string[]; line: number }[];
  parseErrors: number;
  symbols: Omit<SymbolInsert, "fileId">[];
  chunks: ReturnType<typeof chunkCode>;
  /** JSON FileFacts of a code file, "{}" for text */
  facts: string;
}

export function qualifiedIdFor(path: string, qualifiedName: string): string {
  return `${path}::${qualifiedName}`;
}

async function parseFiles(files: DiscoveredFile[], onFile: () => Promise<void>): Promise<ParsedFile[]> {
  const out: ParsedFile[] = [];
  for (const file of files) {
    out.push(await parseOne(file));
    await onFile();
  }
  return out;
}

async function parseOne(file: DiscoveredFile): Promise<ParsedFile> {
  if (file.kind === "text") {
    // Manifests (package.json, pyproject.toml, setup.cfg) declare the commands a package installs.
    const entryPoints = detectEntryPoints({ ...file, symbols: [] });
    return {
      file,
      imports: [],
      parseErrors: 0,
      symbols: [],
      chunks: chunkText(file.path, file.content, file.language),
      facts: entryPoints.length ? JSON.stringify({ entryPoints }) : "{}",
    };
  }
  const extraction = await extractSource(file.language as CodeLanguage, file.content);
  const lines = fileLines(file.content);
  const qid = (name: string) => qualifiedIdFor(file.path, name);
  const seen = new Set<string>();
  const symbols: Omit<SymbolInsert, "fileId">[] = [];
  const kept = extraction.symbols.filter((s) => {
    // Overloads and redefinitions share a qualified name: keep the first, ids stay unique.
    if (seen.has(s.qualifiedName)) return false;
    seen.add(s.qualifiedName);
    return true;
  });
  for (const s of kept) {
    symbols.push({
      path: file.path,
      qualifiedId: qid(s.qualifiedName),
      name: s.name,
      qualifiedName: s.qualifiedName,
      kind: s.kind,
      language: file.language,
      startLine: s.startLine,
      endLine: s.endLine,
      signature: s.signature,
      docstring: s.docstring,
      parentId: s.parent,
      exported: s.exported,
      calls: JSON.stringify(s.calls),
      raises: JSON.stringify(s.raises),
      mutates: JSON.stringify(s.mutates),
      errorStrings: JSON.stringify(s.errorStrings),
      decorators: JSON.stringify(s.decorators),
      bases: JSON.stringify(s.bases),
    });
  }
  return {
    file,
    imports: extraction.imports,
    parseErrors: extraction.parseErrors,
    symbols,
    chunks: chunkCode(file.path, lines, kept, (s) => qid(s.qualifiedName)),
    facts: JSON.stringify({
      ...extraction.facts,
      entryPoints: detectEntryPoints({ ...file, symbols: kept }),
    }),
  };
}

interface IncrementalInput {
  previousGenerationId: string;
  unchangedPaths: string[];
  changedPaths: string[];
  removedPaths: string[];
  /** whether any file is new in this build */
  added: boolean;
}

/**
 * Resolves calls, imports, inheritance and containment. The resolver always sees the
 * whole generation; on an incremental build only symbols that can resolve differently
 * are re-resolved — those in changed files, and those calling or extending a name that
 * a changed or removed file defines (before or after the change). Every other edge is
 * copied from the previous generation in SQL. Also says which sources were re-resolved
 * (symbols outside changed files, and whether every import was), so the wiki phase
 * can tell which edges really changed.
 */
async function resolveGeneration(
  generationId: string,
  incremental: IncrementalInput | null,
): Promise<{ edges: EdgeInsert[]; copiedEdges: number; redoSources: string[]; allImports: boolean }> {
  const rows = await loadResolverRows(generationId);
  const symbols: (ResolverSymbol & { calls: ExtractedCall[]; line: number })[] = rows.symbols.map((s) => ({
    qualifiedId: s.qualifiedId,
    path: s.path,
    name: s.name,
    qualifiedName: s.qualifiedName,
    kind: s.kind as SymbolKind,
    parent: s.parentId,
    language: s.language,
    bases: JSON.parse(s.bases) as string[],
    calls: JSON.parse(s.calls) as ExtractedCall[],
    line: s.startLine,
  }));
  const files: ResolverFile[] = rows.files
    .filter((f) => f.kind === "code")
    .map((f) => ({ path: f.path, language: f.language, imports: JSON.parse(f.imports) }));
  const resolver = new Resolver(symbols, files);
  const edges: EdgeInsert[] = [];
  if (!incremental) {
    for (const f of files) edges.push(...resolver.importEdges(f));
    for (const s of symbols) {
      edges.push(...resolver.structureEdges(s, s.line));
      edges.push(...resolver.callEdges(s, s.calls));
    }
    return { edges, copiedEdges: 0, redoSources: [], allImports: true };
  }
  const touched = new Set([...incremental.changedPaths, ...incremental.removedPaths]);
  const affectedNames = await symbolNamesInPaths(incremental.previousGenerationId, [...touched]);
  for (const s of symbols) if (touched.has(s.path)) affectedNames.add(s.name);
  const lastName = (text: string) =>
    text
      .replace(/[<(].*$/, "")
      .split(/[.:]+/)
      .pop() ?? text;
  const redo = symbols.filter(
    (s) =>
      touched.has(s.path) ||
      s.calls.some((c) => affectedNames.has(c.name)) ||
      s.bases.some((b) => affectedNames.has(lastName(b))),
  );
  // Added or removed files change how module paths resolve: recompute every import then.
  const fileSetChanged = incremental.removedPaths.length > 0 || incremental.added;
  const copiedEdges = await copyEdges({
    fromGenerationId: incremental.previousGenerationId,
    toGenerationId: generationId,
    unchangedPaths: incremental.unchangedPaths,
    skipSources: redo.filter((s) => !touched.has(s.path)).map((s) => s.qualifiedId),
    includeImports: !fileSetChanged,
  });
  for (const f of files) if (fileSetChanged || touched.has(f.path)) edges.push(...resolver.importEdges(f));
  // Copying skipped every edge whose source is re-resolved; regenerate exactly those.
  const redoIds = new Set(redo.map((s) => s.qualifiedId));
  for (const s of redo) {
    for (const e of resolver.structureEdges(s, s.line)) if (redoIds.has(e.srcId)) edges.push(e);
    edges.push(...resolver.callEdges(s, s.calls));
  }
  // Containment edges leave the parent: a re-resolved parent needs them for untouched children too.
  for (const s of symbols) {
    if (!s.parent || redoIds.has(s.qualifiedId) || !redoIds.has(`${s.path}::${s.parent}`)) continue;
    edges.push(...resolver.structureEdges(s, s.line).filter((e) => e.kind === "contains"));
  }
  return {
    edges,
    copiedEdges,
    redoSources: redo.filter((s) => !touched.has(s.path)).map((s) => s.qualifiedId),
    allImports: fileSetChanged,
  };
}
