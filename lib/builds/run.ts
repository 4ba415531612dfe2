/**
 * One build in progress, as its phases see it: the repository and generation, the
 * caller's options, progress (reported to the generation row, throttled, and kept fresh
 * by a heartbeat), the seconds each phase took, and what earlier phases found for the
 * later ones. A phase is a function of this run; the build runs them in order.
 */
import "server-only";
import { env } from "../env.ts";
import { WayfinderError } from "../errors.ts";
import { reportProgress, type GenerationRow } from "../db/generations.ts";
import { type RepositoryRow } from "../db/repositories.ts";
import type { KnownFile, DiscoveryStream } from "../indexer/discover.ts";
import type { AssociationStats } from "../indexer/associations.ts";
import type { Checkout } from "../sources/checkout.ts";
import type { WikiBuildStats } from "../wiki/generate.ts";
import type { HistoryStats } from "./history.ts";
import type { BuildOptions, BuildPhase, BuildProgress, BuildStats } from "./types.ts";

/** How often a running build refreshes its heartbeat (well under STALE_BUILD_MS). */
const HEARTBEAT_MS = 10_000;

/** What the phases found, each field set by the phase that finds it and read by later ones. */
export interface BuildState {
  /** checkout: the serving generation, and whether its rows may be reused */
  previous: { generation: GenerationRow | null; incremental: boolean; hashes: Map<string, KnownFile> };
  /** checkout: the folder and commit indexed, and the listing of its files */
  checkout: Checkout;
  discovery: DiscoveryStream;
  /** discover + parse: what the files were, and which changed */
  files: {
    count: number;
    code: number;
    text: number;
    lines: number;
    languages: Record<string, number>;
    changedPaths: string[];
    removedPaths: string[];
    parseErrors: number;
    parseThreads: number;
    parseWorkersReplaced: number;
  };
  /** resolve */
  resolved: { insertedEdges: number; reresolvedSymbols: number };
  /** wiki: the pages and findings */
  wiki: WikiBuildStats;
  /** embed: chunks embedded, history folded in, term associations learned */
  embedded: { embedding: { embedded: number }; history: HistoryStats; associations: AssociationStats };
  /** activate: the statistics stored with the generation */
  stats: BuildStats;
}

export interface BuildRun {
  repository: RepositoryRow;
  generation: GenerationRow;
  options: BuildOptions;
  /** the largest file read (the option, else WAYFINDER_MAX_FILE_BYTES) */
  maxFileBytes: number;
  progress: BuildProgress;
  phaseSeconds: Record<string, number>;
  /** when the build started (performance.now()) and the process's CPU time then */
  started: number;
  cpuStart: NodeJS.CpuUsage;
  state: Partial<BuildState>;
  /** Reports progress: to the caller always, to the generation row at most every 400 ms unless forced. */
  report(force?: boolean): Promise<void>;
  /** Enters a phase: progress names it at once. */
  enter(phase: BuildPhase): Promise<void>;
  /** Ends a phase: its seconds are kept and the caller's afterPhase hook runs (it may abort the build). */
  finish(phase: BuildPhase): Promise<void>;
  /** What an earlier phase found; an error when the phase has not run (phases out of order). */
  need<K extends keyof BuildState>(key: K): BuildState[K];
}

/** A step of the build: one phase, reading and adding to the run's state. */
export type BuildStep = (run: BuildRun) => Promise<void>;

export function createBuildRun(input: {
  repository: RepositoryRow;
  generation: GenerationRow;
  options: BuildOptions;
  started: number;
  cpuStart: NodeJS.CpuUsage;
}): BuildRun {
  const { generation, options } = input;
  const progress: BuildProgress = { phase: "discovering", filesDone: 0, filesTotal: 0 };
  const phaseSeconds: Record<string, number> = {};
  const state: Partial<BuildState> = {};
  let lastReport = 0;
  let phaseStart = performance.now();
  const report = async (force = false) => {
    options.onProgress?.({ ...progress });
    const now = Date.now();
    if (force || now - lastReport > 400) {
      lastReport = now;
      await reportProgress(generation.id, { ...progress });
    }
  };
  return {
    ...input,
    maxFileBytes: options.maxFileBytes ?? env().WAYFINDER_MAX_FILE_BYTES,
    progress,
    phaseSeconds,
    state,
    report,
    enter: async (phase) => {
      progress.phase = phase;
      await report(true);
    },
    finish: async (phase) => {
      const now = performance.now();
      phaseSeconds[phase] = Math.round(now - phaseStart) / 1000;
      phaseStart = now;
      await options.afterPhase?.(phase);
    },
    need: (key) => {
      const value = state[key];
      if (value === undefined)
        throw new WayfinderError(
          "internal:build_phase",
          `The build reached a phase before its "${key}" was found.`,
        );
      return value as BuildState[typeof key];
    },
  };
}

/**
 * Long phases (storing, resolving, embedding) report no per-file progress; this keeps
 * the heartbeat fresh so other processes never mistake a slow build for a dead one.
 * Returns the function that stops it.
 */
export function startHeartbeat(run: BuildRun): () => void {
  const heartbeat = setInterval(() => {
    void reportProgress(run.generation.id, { ...run.progress }).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return () => clearInterval(heartbeat);
}
