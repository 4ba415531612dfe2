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
  copyUnchanged,
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
  updateFanCounts,
  upsertBlobs,
  type ChunkInsert,
  type EdgeInsert,
  type RepositoryRow,
  type SymbolInsert,
} from "../db/index-store.ts";
import { indexText } from "../search/tokenize.ts";
import { chunkCode, chunkText, fileLines } from "./chunk.ts";
import { discoverFiles, resolveRepositoryRoot, type DiscoveredFile, type SkipReason } from "./discover.ts";
import { extractSource } from "./extract/index.ts";
import { Resolver, type ResolverFile, type ResolverSymbol } from "./resolve.ts";
import type { CodeLanguage, ExtractedCall, SymbolKind } from "./types.ts";
import { embedGeneration } from "./embed.ts";

/**
 * Bumped whenever extraction or chunking changes what is stored for a file: rows of
 * a generation built with another version are never reused, every file is re-parsed.
 */
export const INDEX_FORMAT_VERSION = 1;

export type BuildPhase =
  "discovering" | "parsing" | "storing" | "resolving" | "embedding" | "activating" | "done";

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
  chunks: number;
  lines: number;
  languages: Record<string, number>;
  skipped: Record<SkipReason, number>;
  parseErrors: number;
  seconds: number;
  /** seconds spent in each phase */
  phaseSeconds: Record<string, number>;
  /** peak resident memory of the indexing process so far, MB */
  peakRssMb: number;
  source: "git" | "walk";
}

export interface BuildOptions {
  name?: string;
  onProgress?: (progress: BuildProgress) => void;
  /** Test hook: called after each phase; throwing aborts the build like a crash would. */
  afterPhase?: (phase: BuildPhase) => void | Promise<void>;
  maxFileBytes?: number;
}

export interface BuildResult {
  repository: RepositoryRow;
  stats: BuildStats;
}

/** Registers a repository if needed and builds a new generation of its index. */
export async function indexRepository(inputPath: string, options: BuildOptions = {}): Promise<BuildResult> {
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
  const generation = await startGeneration(repository.id, process.pid);
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
  try {
    await report(true);
    const discovery = await discoverFiles(repository.rootPath, {
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
    const edges = await resolveGeneration(generation.id);
    await insertEdges(generation.id, edges);
    await updateFanCounts(generation.id);
    await phaseDone("resolving");

    progress.phase = "embedding";
    await report(true);
    const chunkCount = await embedGeneration(repository.id, generation.id, repository.activeGenerationId);
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
      edges: edges.length,
      callEdges: edges.filter((e) => e.kind === "calls").length,
      chunks: chunkCount,
      lines,
      languages,
      skipped: discovery.skipped,
      parseErrors: parsed.reduce((n, p) => n + p.parseErrors, 0),
      seconds: 0,
      phaseSeconds,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      source: discovery.source,
    };
    stats.seconds = Math.round((performance.now() - started) / 10) / 100;
    await activateGeneration(generation.id, stats);
    progress.phase = "done";
    await report(true);
    await collectGarbage(repository.id);
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
    throw error;
  }
}

interface ParsedFile {
  file: DiscoveredFile;
  imports: { module: string; names: string[]; line: number }[];
  parseErrors: number;
  symbols: Omit<SymbolInsert, "fileId">[];
  chunks: ReturnType<typeof chunkCode>;
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
    return {
      file,
      imports: [],
      parseErrors: 0,
      symbols: [],
      chunks: chunkText(file.path, file.content, file.language),
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
  };
}

/** Resolves calls, imports, inheritance and containment over the whole generation. */
async function resolveGeneration(generationId: string): Promise<EdgeInsert[]> {
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
  for (const f of files) edges.push(...resolver.importEdges(f));
  for (const s of symbols) {
    edges.push(...resolver.structureEdges(s, s.line));
    edges.push(...resolver.callEdges(s, s.calls));
  }
  return edges;
}
