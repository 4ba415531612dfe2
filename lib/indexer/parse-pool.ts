/**
 * Parsing across cores. Tree-sitter extraction is the indexer's main CPU cost and each
 * file is independent, so a pool of worker threads (each loading the parse entry,
 * lib/indexer/parse-file.ts, and its own WASM grammars) parses files while the build's
 * thread reads the next ones and writes the previous batch to the database. Results
 * come back in the order the files were given, and the rows are the same as a serial
 * parse's, so the index is byte-for-byte the same whichever way it was built.
 *
 * Starting a worker costs a few hundred milliseconds (loading modules and grammars),
 * so a build that parses only a few files parses them in its own thread; workers start
 * once a build has parsed `serialUpTo` files.
 */
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { isWayfinderError, WayfinderError } from "../errors.ts";
import { parseFile, type ParsedFile, type SourceFile } from "./parse-file.ts";

export interface ParsePool {
  /** Parses files; results in the order given. */
  parse(files: SourceFile[]): Promise<ParsedFile[]>;
  /** Worker threads started so far (0 while parsing in the build's own thread). */
  readonly threadsStarted: number;
  close(): Promise<void>;
}

export interface ParsePoolOptions {
  /** Worker threads to parse with; 0 parses in the calling thread. */
  threads: number;
  /** Files parsed in the calling thread before workers start (small builds never start them). */
  serialUpTo?: number;
  /** The module the workers load their parse function from (default: parse-file.ts beside this one). */
  workerEntry?: string;
  /**
   * The largest file a worker is handed, in bytes (default 1 MiB). A worker's heap is
   * capped in proportion, so it collects garbage early instead of growing to the
   * process's limit; the cap still leaves room for the largest file's text and facts.
   */
  maxFileBytes?: number;
}

/** Heap cap of a parse worker, MiB: 192 for files up to 1 MiB, more for larger caps. */
export function workerHeapLimitMb(maxFileBytes = 1024 * 1024): number {
  return Math.max(192, Math.ceil((maxFileBytes / (1024 * 1024)) * 24) + 168);
}

/** This module's folder: the worker entry and the parse entry sit beside it. */
function moduleDir(): string {
  if (typeof __dirname === "string" && __dirname && fs.existsSync(path.join(__dirname, "parse-worker.mjs")))
    return __dirname;
  return path.resolve("lib", "indexer");
}

interface Job {
  id: number;
  file: SourceFile;
  resolve: (parsed: ParsedFile) => void;
  reject: (error: Error) => void;
}

/**
 * Files handed to one worker ahead of its results, and their bytes: a worker parses
 * its queue in order without waiting for the build's thread, which reads and writes
 * synchronously and would otherwise leave every worker idle after its current file.
 */
const WORKER_QUEUE_FILES = 64;
const WORKER_QUEUE_BYTES = 8 * 1024 * 1024;

/** A worker thread and the files posted to it and not yet answered, in the order posted. */
interface Slot {
  worker: Worker;
  jobs: Job[];
  /** bytes of those files */
  bytes: number;
}

/** A fixed set of worker threads, each parsing the files queued to it in order. */
class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private failure: Error | null = null;
  private nextId = 0;
  /** files the workers parsed so far */
  parsed = 0;

  constructor(
    readonly size: number,
    entry: string | undefined,
    heapLimitMb: number,
  ) {
    const dir = moduleDir();
    for (let i = 0; i < size; i++) {
      const worker = new Worker(path.join(dir, "parse-worker.mjs"), {
        workerData: { module: entry ?? path.join(dir, "parse-file.ts") },
        resourceLimits: { maxOldGenerationSizeMb: heapLimitMb, maxYoungGenerationSizeMb: 8 },
      });
      const slot: Slot = { worker, jobs: [], bytes: 0 };
      const { jobs } = slot;
      worker.on("message", (message: { id: number; result?: ParsedFile; error?: { message: string } }) => {
        // A worker answers in the order its files were posted.
        const job = jobs[0]?.id === message.id ? jobs.shift() : undefined;
        if (job) {
          slot.bytes -= job.file.size;
          if (message.error)
            job.reject(new Error(`Parsing ${job.file.path} failed: ${message.error.message}`));
          else {
            this.parsed++;
            job.resolve(message.result as ParsedFile);
          }
        }
        this.pump();
      });
      const fail = (error: Error) => {
        this.failure ??= new WayfinderError(
          "internal:parse_worker",
          `A parse worker stopped: ${error.message}`,
          {
            cause: error,
          },
        );
        for (const job of jobs.splice(0)) job.reject(this.failure);
        slot.bytes = 0;
        for (const queued of this.queue.splice(0)) queued.reject(this.failure);
      };
      worker.on("error", fail);
      worker.on("exit", (code) => {
        if (jobs.length > 0 || this.queue.length > 0) fail(new Error(`exited with code ${code}`));
      });
      this.slots.push(slot);
    }
  }

  parse(file: SourceFile): Promise<ParsedFile> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, file, resolve, reject });
      this.pump();
    });
  }

  /** Posts queued files to the least loaded workers that have room, up to each one's queue bound. */
  private pump(): void {
    while (this.queue.length > 0 && !this.failure) {
      let target: Slot | null = null;
      for (const slot of this.slots) {
        const { length } = slot.jobs;
        const room = length < WORKER_QUEUE_FILES && (length === 0 || slot.bytes < WORKER_QUEUE_BYTES);
        if (room && (!target || length < target.jobs.length)) target = slot;
      }
      if (!target) return;
      const job = this.queue.shift() as Job;
      target.jobs.push(job);
      target.bytes += job.file.size;
      target.worker.postMessage({ id: job.id, file: job.file });
    }
  }

  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}

export function createParsePool(options: ParsePoolOptions): ParsePool {
  const serialUpTo = options.serialUpTo ?? 0;
  let parsed = 0;
  let workers: WorkerPool | null = null;
  // Workers that could not start (their entry failed to load) are not tried again.
  let workersFailed = false;
  // In this thread, one batch after the other: tree-sitter parsers are shared per language.
  let serial: Promise<unknown> = Promise.resolve();
  return {
    get threadsStarted() {
      return workers?.size ?? 0;
    },
    async parse(files) {
      if (!workers && !workersFailed && options.threads > 0 && parsed + files.length > serialUpTo) {
        workers = new WorkerPool(
          options.threads,
          options.workerEntry,
          workerHeapLimitMb(options.maxFileBytes),
        );
      }
      parsed += files.length;
      const pool = workers;
      if (pool) {
        try {
          return await Promise.all(files.map((f) => pool.parse(f)));
        } catch (error) {
          // A pool that never parsed a file could not start: parse in this thread instead.
          if (pool.parsed > 0 || !isWayfinderError(error) || error.code !== "internal:parse_worker")
            throw error;
          workersFailed = true;
          if (workers === pool) workers = null;
          await pool.close();
        }
      }
      const run = serial.then(async () => {
        const out: ParsedFile[] = [];
        for (const file of files) out.push(await parseFile(file));
        return out;
      });
      serial = run.catch(() => undefined);
      return run;
    },
    async close() {
      await workers?.close();
      workers = null;
    },
  };
}
