/**
 * The shapes a build speaks in: its phases as progress reports them, the statistics
 * stored with a generation (IndexGeneration.stats), and what a caller may ask of a build.
 */
import type { GenerationRow } from "../db/generations.ts";
import type { RepositoryRow } from "../db/repositories.ts";
import type { ConfiguredModel } from "../answerers/providers.ts";
import type { SkippedFile, SkipReason } from "../db/build-report.ts";
import type { PARSE_BUDGET } from "../indexer/parse-file.ts";
import type { SecretReport } from "../indexer/secrets.ts";

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
