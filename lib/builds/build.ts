/**
 * The index build: discover → parse → extract → store → resolve → wiki → embed → learn
 * term associations → flip.
 * Each build is a new generation assembled beside the serving one, sharing every row
 * that did not change (lib/db/snapshot.ts): files whose content hash is unchanged are
 * neither re-parsed nor copied, changed and removed files' rows are closed and new
 * ones inserted, and only edges that can resolve differently are re-resolved. Only a
 * complete build is activated; a failed or killed one leaves the previous generation
 * serving, and its rows are discarded.
 */
import "server-only";
import os from "node:os";
import { env } from "../env.ts";
import { WayfinderError } from "../errors.ts";
import {
  activateGeneration,
  analyzeIndexTables,
  closeAllRows,
  closeFileRows,
  collectBlobs,
  collectGarbage,
  createRepository,
  countRows,
  discardFailedBuilds,
  failGeneration,
  findRepository,
  fileHashes,
  getGeneration,
  fileReport,
  insertParsedFiles,
  reportProgress,
  stampFiles,
  startGeneration,
  updateFanCounts,
  type GenerationRow,
  type RepositoryRow,
  type RowCounts,
} from "../db/index-store.ts";
import {
  resolveRepositoryRoot,
  streamFiles,
  type DiscoveredFile,
  type KnownFile,
  type SkipReason,
} from "../indexer/discover.ts";
import type { ParsedFile, PARSE_BUDGET } from "../indexer/parse-file.ts";
import { createParsePool } from "../indexer/parse-pool.ts";
import { resolveGeneration } from "../indexer/resolve-generation.ts";
import type { SecretReport } from "../indexer/secrets.ts";
import type { SkippedFile } from "../indexer/build-report.ts";
import { collectVectorGarbage, embedGeneration } from "../indexer/embed.ts";
import { learnAssociations } from "../indexer/associations.ts";
import { loadEngineSettings } from "../admin/settings.ts";
import type { ConfiguredModel } from "../answerers/providers.ts";
import { buildWiki, type WikiBuildStats } from "../wiki/generate.ts";
import { prepareCheckout } from "../sources/checkout.ts";
import { foldHistory } from "./history.ts";

/**
 * Bumped whenever extraction or chunking changes what is stored for a file: rows of
 * a generation built with another version are never reused, every file is re-parsed.
 */
export const INDEX_FORMAT_VERSION = 14; // 3: imports record aliases; 4: entry points in file facts; 5: module-level lines in file chunks; 6: secrets redacted; 7: C, C++, C#, Ruby and PHP extracted; 8: rows shared between generations, name filters on files; 9: no guessed calls on external modules; 10: private keys of every armour and credential assignments redacted, key files judged by content; 11: file classes, minified files as text, capped chunks; 12: declaration macros blanked, preprocessor rereads, factory-made definitions, numbered overloads; 13: error strings of error-reporting calls and of errors built outside a throw; 14: whole-file word counts

/** How often a running build refreshes its heartbeat (well under STALE_BUILD_MS). */
const HEARTBEAT_MS = 10_000;

/** `parsing` also stores: files are parsed and written in batches. */
export type BuildPhase =
  | "fetching"
  | "discovering"
  | "parsing"
  | "resolving"
  | "wiki"
  | "embedding"
  | "associations"
  | "activating"
  | "done";

export interface BuildProgress {
  phase: BuildPhase;
  filesDone: number;
  filesTotal: number;
}

export interface BuildStats {
  formatVersion: number;
  /** the generation number people read (1 for the first good index; failed builds take none) */
  generation: number;
  /** the build's own number, failed and cancelled builds counted (IndexGeneration.number) */
  build: number;
  generationId: string;
  files: number;
  codeFiles: number;
  textFiles: number;
  parsedFiles: number;
  reusedFiles: number;
  removedFiles: number;
  /** files whose bytes were read (the others' size and modification time were as recorded) */
  readFiles: number;
  symbols: number;
  edges: number;
  callEdges: number;
  /** edges this build resolved and wrote, and edges shared unchanged with the previous generation */
  resolvedEdges: number;
  sharedEdges: number;
  /** symbols outside the changed files that an incremental build re-resolved */
  reresolvedSymbols: number;
  chunks: number;
  /** chunks embedded in this build, and chunks whose vectors the previous generation already had */
  embeddedChunks: number;
  reusedVectors: number;
  /** whether this build learned the repository's term associations (else it kept earlier ones), and their words */
  associationsLearned: boolean;
  associationWords: number;
  lines: number;
  languages: Record<string, number>;
  skipped: Record<SkipReason, number>;
  /** skipped files a person can act on, with the reason (lib/indexer/build-report.ts) */
  skippedFiles: SkippedFile[];
  /** secret files skipped and secrets redacted (lib/indexer/secrets.ts) */
  secrets: SecretReport;
  /** files per class (vendored, generated, minified, documentation: lib/indexer/file-class.ts) */
  fileClasses: Record<string, number>;
  /** what the classes were decided with: a build with other attributes classifies every file again */
  classRules: string;
  /** code files indexed as text only because their parse failed, with why (at most 100 listed) */
  unparsedFiles: { path: string; reason: string }[];
  unparsedCount: number;
  parseErrors: number;
  /** worker threads that parsed files (0: parsed in the build's own thread) */
  parseThreads: number;
  /** parse workers replaced after one stopped on a file (its heap exhausted, or stuck) */
  parseWorkersReplaced: number;
  seconds: number;
  /** CPU seconds (user + system, every thread) the build used */
  cpuSeconds: number;
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
  /** whether the wiki phase read only the changed files' surroundings ("changes") or every page's inputs */
  wikiScope: "changes" | "all";
  wikiModelWritten: number;
  findings: number;
  /** what the pages were generated with: a later build regenerates them when either changes */
  wikiFormatVersion: number;
  wikiModel: string | null;
  /** the commit indexed (Git sources: the fetched branch head; folders: HEAD of the work tree) */
  commitSha: string | null;
  /** commits of the repository's history this build folded into the co-change counts */
  historyCommits?: number;
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
  /** Worker threads parsing files (0: parse in this thread); default WAYFINDER_PARSE_THREADS, else the cores (at most 4). */
  parseThreads?: number;
  /** Seconds a file may take to parse before it is indexed as text (default PARSE_BUDGET). */
  parseBudget?: typeof PARSE_BUDGET;
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

/** Changed files are parsed and stored in batches of this many files or bytes, whichever comes first. */
const PARSE_BATCH = 64;
const PARSE_BATCH_BYTES = 2 * 1024 * 1024;
/** Batches parsing while one is written: what bounds the file text a build holds. */
const PARSE_BATCHES_IN_FLIGHT = 4;
/**
 * A build parses this many files in its own thread before starting workers: a small
 * repository, or a small change, is parsed before a worker would have loaded its
 * grammars. A larger first batch starts them at once.
 */
const SERIAL_PARSE_UP_TO = 48;

/**
 * Parse threads: the configured number, else one per core (up to 4). The build's own
 * thread mostly waits on parsing while files stream, so it does not need a core of
 * its own then.
 */
function defaultParseThreads(): number {
  return env().WAYFINDER_PARSE_THREADS ?? Math.min(4, os.availableParallelism());
}

export async function buildGeneration(
  repository: RepositoryRow,
  options: BuildOptions = {},
): Promise<BuildStats> {
  const started = performance.now();
  const cpuStart = process.cpuUsage();
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
    const maxFileBytes = options.maxFileBytes ?? env().WAYFINDER_MAX_FILE_BYTES;
    // The checkout and the listing of its files (git processes) run beside the database
    // work that does not depend on them; both settle before either failure is raised.
    const known = (async () => {
      // What earlier failed builds left behind is undone before anything is compared with it.
      await collectVectorGarbage(repository.id, await discardFailedBuilds(repository.id));
      const previousGeneration = repository.activeGenerationId
        ? await getGeneration(repository.activeGenerationId)
        : null;
      // Rows of a generation built with another index format are never reused.
      const incremental =
        previousGeneration !== null &&
        (JSON.parse(previousGeneration.stats) as { formatVersion?: number }).formatVersion ===
          INDEX_FORMAT_VERSION;
      const previousHashes = incremental
        ? await fileHashes(previousGeneration.id)
        : new Map<string, KnownFile>();
      const previousClassRules = incremental
        ? ((JSON.parse(previousGeneration.stats) as { classRules?: string }).classRules ?? null)
        : null;
      return { previousGeneration, incremental, previousHashes, previousClassRules };
    })();
    const knownHashes = known.then((k) => k.previousHashes);
    knownHashes.catch(() => undefined); // a failure is raised through `known` below
    const knownClassRules = known.then((k) => k.previousClassRules);
    knownClassRules.catch(() => undefined);
    const listing = (async () => {
      const checkingOut = prepareCheckout(repository, generation.id);
      // A folder's files are listed while its commit is read; a Git source's once fetched.
      const root = git ? (await checkingOut).root : repository.rootPath;
      const [checkout, discovery] = await Promise.all([
        checkingOut,
        streamFiles(root, { maxFileBytes, known: knownHashes, knownClassRules }),
      ]);
      return { checkout, discovery };
    })();
    const [knownResult, listingResult] = await Promise.allSettled([known, listing]);
    if (knownResult.status === "rejected") throw knownResult.reason;
    if (listingResult.status === "rejected") throw listingResult.reason;
    const { previousGeneration, incremental, previousHashes } = knownResult.value;
    const { checkout, discovery } = listingResult.value;
    if (git) {
      await phaseDone("fetching");
      progress.phase = "discovering";
      await report(true);
    }
    await phaseDone("discovering");

    progress.phase = "parsing";
    progress.filesTotal = discovery.listed;
    await report(true);
    if (!incremental) await closeAllRows(generation.id);
    const pool = createParsePool({
      threads: options.parseThreads ?? defaultParseThreads(),
      serialUpTo: SERIAL_PARSE_UP_TO,
      maxFileBytes,
      budget: options.parseBudget,
    });
    const files = {
      seen: new Set<string>(),
      code: 0,
      text: 0,
      lines: 0,
      languages: {} as Record<string, number>,
    };
    const changedPaths: string[] = [];
    let parseErrors = 0;
    let parseThreads = 0;
    let parseWorkersReplaced = 0;
    try {
      // Files stream through: read, and when changed parsed (in workers) and written in
      // batches, the next batches parsing while one is written, in discovery order.
      const inFlight: { files: DiscoveredFile[]; parsing: Promise<ParsedFile[]> }[] = [];
      // Progress counts listed paths, skipped ones included: its total is known before counting starts.
      let written = 0;
      const writeNext = async () => {
        const next = inFlight.shift();
        if (!next) return;
        const parsed = await next.parsing;
        for (const p of parsed) parseErrors += p.file.parseErrors;
        const replaced = next.files.filter((f) => previousHashes.has(f.path)).map((f) => f.path);
        await insertParsedFiles(generation.id, parsed, replaced);
        written += next.files.length;
        progress.filesDone = written + discovery.dropped;
        await report();
      };
      let batch: DiscoveredFile[] = [];
      let batchBytes = 0;
      const send = async () => {
        if (batch.length === 0) return;
        const parsing = pool.parse(batch);
        // Awaited in order below; a batch whose turn never comes (an earlier one failed) must not crash the process.
        parsing.catch(() => undefined);
        inFlight.push({ files: batch, parsing });
        batch = [];
        batchBytes = 0;
        while (inFlight.length > PARSE_BATCHES_IN_FLIGHT) await writeNext();
      };
      for await (const file of discovery.files()) {
        files.seen.add(file.path);
        files.lines += file.lines;
        files.languages[file.language] = (files.languages[file.language] ?? 0) + 1;
        if (file.kind === "code") files.code++;
        else files.text++;
        const previous = previousHashes.get(file.path);
        if (previous?.hash === file.hash && previous.fileClass === file.fileClass) {
          written++;
          progress.filesDone = written + discovery.dropped;
          await report();
          continue;
        }
        changedPaths.push(file.path);
        batch.push(file);
        batchBytes += file.size;
        if (batch.length >= PARSE_BATCH || batchBytes >= PARSE_BATCH_BYTES) await send();
      }
      await send();
      while (inFlight.length > 0) await writeNext();
    } finally {
      parseThreads = pool.threadsStarted;
      parseWorkersReplaced = pool.workersReplaced;
      await pool.close();
    }
    // Files of the previous generation that are gone from the work tree.
    const removedPaths = [...previousHashes.keys()].filter((p) => !files.seen.has(p));
    await closeFileRows(generation.id, removedPaths);
    await stampFiles(generation.id, discovery.restamped);
    const fileCount = files.seen.size;
    files.seen.clear();
    progress.filesDone = progress.filesTotal;
    // Rows written anew: the planners' statistics would describe another repository.
    if (!incremental) await analyzeIndexTables();
    await phaseDone("parsing");

    progress.phase = "resolving";
    await report(true);
    const { insertedEdges, reresolvedSymbols } = await resolveGeneration(
      generation.id,
      incremental && previousGeneration
        ? {
            previousGenerationId: previousGeneration.id,
            changedPaths,
            removedPaths,
            added: changedPaths.some((p) => !previousHashes.has(p)),
          }
        : null,
    );
    await updateFanCounts(generation.id, { full: !incremental });
    // Edges written anew too: what the planners know should include them.
    if (!incremental) await analyzeIndexTables();
    await phaseDone("resolving");

    progress.phase = "wiki";
    await report(true);
    const wiki: WikiBuildStats = await buildWiki({
      repositoryName: repository.name,
      generationId: generation.id,
      formatVersion: INDEX_FORMAT_VERSION,
      previous: incremental ? previousGeneration : null,
      changes: incremental
        ? { changedPaths, removedPaths, addedPaths: changedPaths.filter((p) => !previousHashes.has(p)) }
        : null,
      // The model questions use (the admin's choice over the environment), or none.
      model: options.wikiModel === undefined ? (await loadEngineSettings()).model : options.wikiModel,
    });
    await phaseDone("wiki");

    progress.phase = "embedding";
    await report(true);
    // The history since the last build is folded in meanwhile (git and the database, not the embedder).
    const [embedding, history] = await Promise.all([
      embedGeneration(repository.id, generation.id),
      foldHistory(repository.id, checkout.root, checkout.commitSha),
    ]);
    await phaseDone("embedding");

    progress.phase = "associations";
    await report(true);
    const associations = await learnAssociations(generation.id);
    await phaseDone("associations");

    progress.phase = "activating";
    await report(true);
    const [counts, fileSummary] = await Promise.all([
      countRows(
        generation.id,
        incremental && previousGeneration ? (JSON.parse(previousGeneration.stats) as RowCounts) : null,
      ),
      fileReport(generation.id),
    ]);
    const stats: BuildStats = {
      formatVersion: INDEX_FORMAT_VERSION,
      generation: generation.number,
      build: generation.number,
      generationId: generation.id,
      files: fileCount,
      codeFiles: files.code,
      textFiles: files.text,
      parsedFiles: changedPaths.length,
      reusedFiles: fileCount - changedPaths.length,
      removedFiles: removedPaths.length,
      readFiles: discovery.read,
      symbols: counts.symbols,
      edges: counts.edges,
      callEdges: counts.callEdges,
      resolvedEdges: insertedEdges,
      reresolvedSymbols,
      sharedEdges: counts.edges - insertedEdges,
      chunks: counts.chunks,
      embeddedChunks: embedding.embedded,
      reusedVectors: env().WAYFINDER_EMBEDDINGS ? counts.chunks - embedding.embedded : 0,
      associationsLearned: associations.learned,
      associationWords: associations.words,
      lines: files.lines,
      languages: files.languages,
      skipped: discovery.skipped,
      skippedFiles: discovery.skippedFiles,
      secrets: discovery.secrets,
      fileClasses: fileSummary.classes,
      classRules: discovery.classRules,
      unparsedFiles: fileSummary.unparsed,
      unparsedCount: fileSummary.unparsedCount,
      parseErrors,
      parseThreads,
      parseWorkersReplaced,
      seconds: 0,
      cpuSeconds: 0,
      phaseSeconds,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      source: discovery.source,
      wikiSeconds: phaseSeconds.wiki ?? 0,
      wikiPages: wiki.pages,
      wikiPagesGenerated: wiki.generated,
      wikiPagesReused: wiki.reused,
      wikiScope: wiki.scope,
      wikiModelWritten: wiki.modelWritten,
      findings: wiki.findings,
      wikiFormatVersion: wiki.formatVersion,
      wikiModel: wiki.model,
      commitSha: checkout.commitSha,
      historyCommits: history.commits,
    };
    stats.seconds = Math.round((performance.now() - started) / 10) / 100;
    const cpu = process.cpuUsage(cpuStart);
    stats.cpuSeconds = Math.round((cpu.user + cpu.system) / 1e4) / 100;
    stats.generation = await activateGeneration(generation.id, stats);
    stats.build = generation.number;
    progress.phase = "done";
    await report(true);
    const garbage = await collectGarbage(repository.id);
    await collectVectorGarbage(repository.id, garbage.chunkIds);
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
    // A failed build's rows and vectors are never read: discard them now (best effort).
    await discardFailedBuilds(repository.id)
      .then((chunkIds) => collectVectorGarbage(repository.id, chunkIds))
      .catch(() => undefined);
    throw error;
  } finally {
    clearInterval(heartbeat);
  }
}
