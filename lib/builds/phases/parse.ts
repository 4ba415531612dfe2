/**
 * Phase 2, discover + parse: the listed files stream through — read, and when their
 * content or class changed parsed (in worker threads) and written in batches, the next
 * batches parsing while one is written, in discovery order. Files whose hash and class
 * are as the serving generation has them are neither parsed nor copied; files gone from
 * the work tree have their rows closed.
 */
import "server-only";
import os from "node:os";
import { env } from "../../env.ts";
import {
  analyzeIndexTables,
  closeAllRows,
  closeFileRows,
  insertParsedFiles,
  stampFiles,
} from "../../db/build-writes.ts";
import type { DiscoveredFile } from "../../indexer/discover.ts";
import type { ParsedFile } from "../../indexer/parse-file.ts";
import { createParsePool, type ParsePool } from "../../indexer/parse-pool.ts";
import type { BuildRun, BuildState } from "../run.ts";

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

type Tally = Omit<BuildState["files"], "count" | "removedPaths" | "parseThreads" | "parseWorkersReplaced">;

/**
 * Streams every listed file through the pool, counting what it sees, and returns the
 * paths seen. Progress counts listed paths, skipped ones included: its total is known
 * before counting starts.
 */
async function streamThroughPool(run: BuildRun, pool: ParsePool, tally: Tally): Promise<Set<string>> {
  const { generation, progress } = run;
  const discovery = run.need("discovery");
  const previousHashes = run.need("previous").hashes;
  const seen = new Set<string>();
  const inFlight: { files: DiscoveredFile[]; parsing: Promise<ParsedFile[]> }[] = [];
  let written = 0;
  const counted = async (files: number) => {
    written += files;
    progress.filesDone = written + discovery.dropped;
    await run.report();
  };
  const writeNext = async () => {
    const next = inFlight.shift();
    if (!next) return;
    const parsed = await next.parsing;
    for (const p of parsed) tally.parseErrors += p.file.parseErrors;
    const replaced = next.files.filter((f) => previousHashes.has(f.path)).map((f) => f.path);
    await insertParsedFiles(generation.id, parsed, replaced);
    await counted(next.files.length);
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
    seen.add(file.path);
    tally.lines += file.lines;
    tally.languages[file.language] = (tally.languages[file.language] ?? 0) + 1;
    if (file.kind === "code") tally.code++;
    else tally.text++;
    const previous = previousHashes.get(file.path);
    if (previous?.hash === file.hash && previous.fileClass === file.fileClass) {
      await counted(1);
      continue;
    }
    tally.changedPaths.push(file.path);
    batch.push(file);
    batchBytes += file.size;
    if (batch.length >= PARSE_BATCH || batchBytes >= PARSE_BATCH_BYTES) await send();
  }
  await send();
  while (inFlight.length > 0) await writeNext();
  return seen;
}

export async function discoverAndParse(run: BuildRun): Promise<void> {
  const { generation, options, progress } = run;
  const discovery = run.need("discovery");
  const { incremental, hashes: previousHashes } = run.need("previous");
  progress.filesTotal = discovery.listed;
  await run.enter("parsing");
  if (!incremental) await closeAllRows(generation.id);
  const pool = createParsePool({
    threads: options.parseThreads ?? defaultParseThreads(),
    serialUpTo: SERIAL_PARSE_UP_TO,
    maxFileBytes: run.maxFileBytes,
    budget: options.parseBudget,
  });
  const tally: Tally = { code: 0, text: 0, lines: 0, languages: {}, changedPaths: [], parseErrors: 0 };
  let seen: Set<string>;
  let threads: Pick<BuildState["files"], "parseThreads" | "parseWorkersReplaced">;
  try {
    seen = await streamThroughPool(run, pool, tally);
  } finally {
    threads = { parseThreads: pool.threadsStarted, parseWorkersReplaced: pool.workersReplaced };
    await pool.close();
  }
  // Files of the previous generation that are gone from the work tree.
  const removedPaths = [...previousHashes.keys()].filter((p) => !seen.has(p));
  await closeFileRows(generation.id, removedPaths);
  await stampFiles(generation.id, discovery.restamped);
  run.state.files = { ...tally, ...threads, count: seen.size, removedPaths };
  seen.clear();
  progress.filesDone = progress.filesTotal;
  // Rows written anew: the planners' statistics would describe another repository.
  if (!incremental) await analyzeIndexTables();
  await run.finish("parsing");
}
