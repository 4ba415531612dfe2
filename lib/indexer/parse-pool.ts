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
import {
  parseBudgetSeconds,
  parseFile,
  unparsedFile,
  type ParsedFile,
  type SourceFile,
  type UnparsedReason,
  PARSE_BUDGET,
} from "./parse-file.ts";

export interface ParsePool {
  /** Parses files; results in the order given. */
  parse(files: SourceFile[]): Promise<ParsedFile[]>;
  /** Worker threads started so far (0 while parsing in the build's own thread). */
  readonly threadsStarted: number;
  /** Workers replaced after one stopped on a file (out of memory, or stuck past its budget). */
  readonly workersReplaced: number;
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
  /**
   * Seconds a file may take (parse-file.ts PARSE_BUDGET). A worker still on one file
   * at twice its budget plus 10 s is replaced: the in-thread deadline did not stop it.
   */
  budget?: typeof PARSE_BUDGET;
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

/** How often the pool looks for a worker stuck on one file. */
const WATCHDOG_MS = 1_000;

/** A worker thread and the files posted to it and not yet answered, in the order posted. */
interface Slot {
  worker: Worker;
  jobs: Job[];
  /** bytes of those files */
  bytes: number;
  /** when the worker began the file at the head of `jobs`, or became ready if later (performance.now()) */
  headSince: number;
  /** whether it loaded its parse entry: a worker that fails before could not start */
  ready: boolean;
  /**
   * The error it stopped with, kept until it exits: results it posted before the error can
   * still be on their way (an error travels on the worker's internal channel and can overtake
   * them), and they all arrive before `exit`.
   */
  error: (Error & { code?: string }) | null;
}

/**
 * A fixed number of worker threads, each parsing the files queued to it in order. A
 * file whose parse throws is indexed as text with the reason. A worker that stops on a
 * file — its heap exhausted, an error it could not catch, or still busy long past the
 * file's budget (a parse the in-thread deadline could not interrupt) — is replaced:
 * that file is indexed as text with the reason, and the files queued behind it go to
 * the others.
 */
class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private failure: Error | null = null;
  private nextId = 0;
  private readonly watchdog: NodeJS.Timeout;
  /** files the workers parsed so far */
  parsed = 0;
  /** workers replaced after stopping on a file */
  replaced = 0;

  constructor(
    readonly size: number,
    private readonly entry: string | undefined,
    private readonly heapLimitMb: number,
    private readonly budget: typeof PARSE_BUDGET,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.start());
    this.watchdog = setInterval(() => this.checkStuck(), WATCHDOG_MS);
    this.watchdog.unref();
  }

  private start(): Slot {
    const dir = moduleDir();
    const worker = new Worker(path.join(dir, "parse-worker.mjs"), {
      workerData: { module: this.entry ?? path.join(dir, "parse-file.ts"), budget: this.budget },
      resourceLimits: { maxOldGenerationSizeMb: this.heapLimitMb, maxYoungGenerationSizeMb: 8 },
    });
    const slot: Slot = {
      worker,
      jobs: [],
      bytes: 0,
      headSince: performance.now(),
      ready: false,
      error: null,
    };
    type Message = { ready?: true; id?: number; result?: ParsedFile; error?: { message: string } };
    worker.on("message", (message: Message) => {
      if (message.ready) {
        slot.ready = true;
        // Loading the parse entry took no file's time: the head file's clock starts now.
        slot.headSince = performance.now();
        return;
      }
      // A worker answers in the order its files were posted.
      const job = slot.jobs[0]?.id === message.id ? slot.jobs.shift() : undefined;
      if (job) {
        slot.bytes -= job.file.size;
        slot.headSince = performance.now();
        this.parsed++;
        // A parse that threw (the parse entry catches what it expects) leaves its file as text.
        if (message.error) job.resolve(unparsedFile(job.file, `error: ${message.error.message}`));
        else job.resolve(message.result as ParsedFile);
      }
      this.pump();
    });
    // The file a worker stopped on is known only once the results it posted before have
    // arrived, which is by its `exit`: the error waits for that.
    worker.on("error", (error: Error & { code?: string }) => {
      slot.error ??= error;
    });
    worker.on("exit", (code) => {
      if (slot.jobs.length > 0 || slot.error)
        this.stopped(slot, slot.error ?? new Error(`the parse worker exited with code ${code}`));
    });
    return slot;
  }

  /** A worker died: the file it was on is indexed as text, the rest parse elsewhere. */
  private stopped(slot: Slot, error: Error & { code?: string }): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return; // already replaced (the watchdog, or the pool closing)
    const outOfMemory = error.code === "ERR_WORKER_OUT_OF_MEMORY";
    if (!outOfMemory && !slot.ready) {
      // It could not even load the parse entry: the pool fails (and parses in the calling thread).
      this.fail(error);
      return;
    }
    const detail = outOfMemory
      ? `the worker's ${this.heapLimitMb} MB heap ran out`
      : `the parse worker stopped: ${error.message}`;
    this.replace(slot, outOfMemory ? "memory" : "error", detail);
  }

  /** Replaces a slot's worker; its head file becomes text with the reason, its queue goes back. */
  private replace(slot: Slot, reason: UnparsedReason, detail: string): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    const [head, ...rest] = slot.jobs.splice(0);
    void slot.worker.terminate().catch(() => undefined);
    this.replaced++;
    this.slots[index] = this.start();
    if (head) head.resolve(unparsedFile(head.file, `${reason}: ${detail}`));
    this.queue.unshift(...rest);
    this.pump();
  }

  private checkStuck(): void {
    const now = performance.now();
    for (const slot of [...this.slots]) {
      const head = slot.jobs[0];
      // A worker still loading its entry is not parsing yet (a busy machine can take many seconds).
      if (!head || !slot.ready) continue;
      // Well past the budget the worker's own deadline enforces: only a stuck worker gets here.
      const limit = 2 * parseBudgetSeconds(head.file.size, this.budget) + this.budget.baseSeconds;
      if (now - slot.headSince > limit * 1000) this.replace(slot, "timeout", `over ${limit} s`);
    }
  }

  private fail(error: Error): void {
    this.failure ??= new WayfinderError(
      "internal:parse_worker",
      `A parse worker could not start: ${error.message}. Set WAYFINDER_PARSE_THREADS=0 to parse in the indexing process itself.`,
      { cause: error },
    );
    for (const slot of this.slots) {
      for (const job of slot.jobs.splice(0)) job.reject(this.failure);
      slot.bytes = 0;
    }
    for (const queued of this.queue.splice(0)) queued.reject(this.failure);
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
        const room =
          !slot.error && length < WORKER_QUEUE_FILES && (length === 0 || slot.bytes < WORKER_QUEUE_BYTES);
        if (room && (!target || length < target.jobs.length)) target = slot;
      }
      if (!target) return;
      const job = this.queue.shift() as Job;
      if (target.jobs.length === 0) target.headSince = performance.now();
      target.jobs.push(job);
      target.bytes += job.file.size;
      target.worker.postMessage({ id: job.id, file: job.file });
    }
  }

  async close(): Promise<void> {
    clearInterval(this.watchdog);
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}

/** A parse in this thread; whatever one file throws leaves that file as text, never the batch failed. */
async function parseOrText(file: SourceFile, budget: typeof PARSE_BUDGET | undefined): Promise<ParsedFile> {
  try {
    return await parseFile(file, { budget });
  } catch (error) {
    return unparsedFile(file, `error: ${error instanceof Error ? error.message : String(error)}`);
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
    get workersReplaced() {
      return workers?.replaced ?? 0;
    },
    async parse(files) {
      if (!workers && !workersFailed && options.threads > 0 && parsed + files.length > serialUpTo) {
        const budget = options.budget ?? PARSE_BUDGET;
        workers = new WorkerPool(
          options.threads,
          options.workerEntry,
          workerHeapLimitMb(options.maxFileBytes),
          budget,
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
        for (const file of files) out.push(await parseOrText(file, options.budget));
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
