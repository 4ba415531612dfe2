/**
 * `npm run load`: concurrent streamed questions against an already-running Wayfinder
 * server on loopback, while the repository is re-indexed in a loop. Questions go to
 * POST /api/qa with the body useChat sends (components/chat/chat.tsx), and every
 * response is read to the end: a question fails on a non-2xx status, an `error` part,
 * or a stream that ends without its `finish` part. Bounded in count and in time.
 * Reports throughput, latency to first byte and to finish, errors by kind, re-index
 * builds and generation flips, and the server's peak RSS (sampled from /proc).
 *
 *   npm run load -- --url http://127.0.0.1:3000 --repo xarray [--concurrency 20]
 *     [--questions 100] [--duration 120] [--no-reindex] [--questions-file F] [--json]
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { parseArgs } from "node:util";
import { createParser } from "eventsource-parser";
import type { QueryMode } from "../lib/answerers/contract.ts";

type Mode = QueryMode;

interface Question {
  text: string;
  mode?: Mode;
}

/** Generic questions that make sense for any Python repository, across the four modes. */
const BUILT_IN_QUESTIONS: Question[] = [
  {
    mode: "conceptual",
    text: "What is the overall architecture of this project and how are its modules organised?",
  },
  { mode: "conceptual", text: "How is configuration or global options handled in this codebase?" },
  { mode: "conceptual", text: "What are the main public classes and what is each one responsible for?" },
  { mode: "conceptual", text: "How does this library read data from files?" },
  { mode: "diagnostic", text: "Why do I get a ValueError when I pass an invalid argument?" },
  { mode: "diagnostic", text: "Why is a TypeError raised when the input has the wrong type?" },
  { mode: "diagnostic", text: 'Why do I get KeyError: "not found" when a key is missing?' },
  { mode: "diagnostic", text: "Why does NotImplementedError get raised and where does it come from?" },
  { mode: "exploratory", text: "What happens when __init__ is called on the main class?" },
  { mode: "exploratory", text: "Trace the flow from opening a dataset to returning the loaded values." },
  { mode: "exploratory", text: "What calls the merge function and what does it call?" },
  {
    mode: "exploratory",
    text: "Walk me through what happens when a value is converted to a string with __repr__.",
  },
  { mode: "analytical", text: "Which modules are the most complex and the hardest to maintain?" },
  { mode: "analytical", text: "Where is error handling inconsistent or are exceptions swallowed?" },
  { mode: "analytical", text: "Which functions have the most callers and would be risky to change?" },
  { mode: "analytical", text: "Are there circular dependencies between the packages?" },
];

interface Options {
  url: URL;
  /** id or name; empty = the server's only repository */
  repo: string;
  concurrency: number;
  questions: number;
  durationMs: number;
  reindex: boolean;
  questionsFile?: string;
  forceMode: boolean;
  quality: "quick" | "balanced" | "thorough";
  json: boolean;
  pid?: number;
}

interface Outcome {
  ok: boolean;
  errorKind?: string;
  errorText?: string;
  firstByteMs: number | null;
  finishMs: number | null;
  generationId?: string;
  mode?: string;
}

class UsageError extends Error {}

function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new UsageError(`--${name} must be a positive integer (got "${value}").`);
  return n;
}

/** Loopback only: this script generates load and must never be pointed at another host. */
export function assertLoopback(url: URL): void {
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UsageError(`--url must be http(s) (got ${url.protocol}).`);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const loopback = host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
  if (!loopback) {
    throw new UsageError(
      `Refusing to load ${url.host}: npm run load only targets a server on loopback (127.0.0.1, ::1, localhost).`,
    );
  }
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: "string", default: "http://127.0.0.1:3000" },
      repo: { type: "string" },
      concurrency: { type: "string" },
      questions: { type: "string" },
      duration: { type: "string" },
      reindex: { type: "boolean", default: true },
      "no-reindex": { type: "boolean", default: false },
      "questions-file": { type: "string" },
      "force-mode": { type: "boolean", default: false },
      quality: { type: "string", default: "balanced" },
      pid: { type: "string" },
      json: { type: "boolean", default: false },
    },
    strict: true,
  });
  let url: URL;
  try {
    url = new URL(values.url);
  } catch {
    throw new UsageError(`--url is not a URL: ${values.url}`);
  }
  assertLoopback(url);
  if (!["quick", "balanced", "thorough"].includes(values.quality))
    throw new UsageError("--quality must be quick, balanced or thorough.");
  return {
    url,
    repo: values.repo ?? "",
    concurrency: positiveInt(values.concurrency, "concurrency", 20),
    questions: positiveInt(values.questions, "questions", 100),
    durationMs: positiveInt(values.duration, "duration", 120) * 1000,
    reindex: values.reindex && !values["no-reindex"],
    questionsFile: values["questions-file"],
    forceMode: values["force-mode"],
    quality: values.quality as Options["quality"],
    json: values.json,
    pid: values.pid === undefined ? undefined : positiveInt(values.pid, "pid", 0),
  };
}

/** One question per non-empty line; an optional `mode:` prefix names its mode. */
function loadQuestions(file: string | undefined): Question[] {
  if (!file) return BUILT_IN_QUESTIONS;
  const questions = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line): Question => {
      const m = /^(conceptual|diagnostic|exploratory|analytical):\s*(.+)$/.exec(line);
      return m ? { mode: m[1] as Mode, text: m[2] as string } : { text: line };
    });
  if (questions.length === 0) throw new UsageError(`${file} holds no questions.`);
  return questions;
}

// ---------------------------------------------------------------------------
// Server process and memory, from /proc
// ---------------------------------------------------------------------------

/** Inodes of sockets listening on `port` (IPv4 and IPv6). */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = fs.readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      const local = cols[1];
      if (!local || cols[3] !== "0A") continue; // 0A = LISTEN
      const portHex = local.split(":").at(-1);
      if (portHex && parseInt(portHex, 16) === port && cols[9]) inodes.add(cols[9]);
    }
  }
  return inodes;
}

function numericDirs(dir: string): number[] {
  try {
    return fs
      .readdirSync(dir)
      .filter((d) => /^\d+$/.test(d))
      .map(Number);
  } catch {
    return [];
  }
}

/** The PID of the process listening on `port`: /proc first, `ss -ltnp` as a fallback. */
export function findServerPid(port: number): number | null {
  const inodes = listeningInodes(port);
  if (inodes.size > 0) {
    for (const pid of numericDirs("/proc")) {
      let fds: string[];
      try {
        fds = fs.readdirSync(`/proc/${pid}/fd`);
      } catch {
        continue;
      }
      for (const fd of fds) {
        try {
          const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
          const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
          if (inode && inodes.has(inode)) return pid;
        } catch {
          // the fd closed while we looked
        }
      }
    }
  }
  try {
    const out = execFileSync("ss", ["-ltnpH", `sport = :${port}`], { encoding: "utf8" });
    const pid = /pid=(\d+)/.exec(out)?.[1];
    return pid ? Number(pid) : null;
  } catch {
    return null;
  }
}

function vmRssKb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The process and all its descendants (index workers are children of the server). */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const pid of numericDirs("/proc")) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      // The command name may contain spaces and parentheses; fields resume after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(pid);
      children.set(ppid, list);
    } catch {
      // exited while we looked
    }
  }
  const tree: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift() as number;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

interface RssSampler {
  stop(): { serverPeakMb: number; treePeakMb: number; samples: number };
}

function sampleRss(pid: number, everyMs = 200): RssSampler {
  let serverPeak = 0;
  let treePeak = 0;
  let samples = 0;
  const tick = () => {
    serverPeak = Math.max(serverPeak, vmRssKb(pid));
    treePeak = Math.max(
      treePeak,
      processTree(pid).reduce((sum, p) => sum + vmRssKb(p), 0),
    );
    samples++;
  };
  tick();
  const timer = setInterval(tick, everyMs);
  return {
    stop() {
      clearInterval(timer);
      tick();
      return { serverPeakMb: serverPeak / 1024, treePeakMb: treePeak / 1024, samples };
    },
  };
}

// ---------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------

interface RepositoryInfo {
  id: string;
  name: string;
  active: { generationId: string; number: number } | null;
  build: { status?: string; number?: number } | null;
}

async function getJson<T>(url: URL): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url.pathname} answered ${response.status}`);
  return (await response.json()) as T;
}

async function findRepository(base: URL, repo: string): Promise<RepositoryInfo> {
  const { repositories } = await getJson<{ repositories: RepositoryInfo[] }>(new URL("/api/repos", base));
  const found = repo
    ? (repositories.find((r) => r.id === repo) ?? repositories.find((r) => r.name === repo))
    : repositories.length === 1
      ? repositories[0]
      : undefined;
  if (!found)
    throw new UsageError(
      `${repo ? `No repository "${repo}"` : "Name one repository with --repo"} on ${base.origin} (have: ${repositories.map((r) => r.name).join(", ") || "none"}).`,
    );
  if (!found.active) throw new UsageError(`Repository "${found.name}" has no finished index yet.`);
  return found;
}

/** Posts one question as useChat does and reads the UI message stream to its end. */
async function ask(
  options: Options,
  repositoryId: string,
  question: Question,
  signal: AbortSignal,
): Promise<Outcome> {
  const sessionId = randomUUID();
  const body = {
    id: sessionId,
    messages: [{ id: randomUUID(), role: "user", parts: [{ type: "text", text: question.text }] }],
    trigger: "submit-message",
    repositoryId,
    options: {
      quality: options.quality,
      ...(options.forceMode && question.mode ? { mode: question.mode } : {}),
    },
  };
  const t0 = performance.now();
  const outcome: Outcome = { ok: false, firstByteMs: null, finishMs: null };
  let response: Response;
  try {
    response = await fetch(new URL("/api/qa", options.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    return {
      ...outcome,
      errorKind: signal.aborted ? "aborted_at_deadline" : "network",
      errorText: String(error),
    };
  }
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => "");
    return { ...outcome, errorKind: `http_${response.status}`, errorText: text.slice(0, 300) };
  }
  let finished = false;
  let streamError: string | null = null;
  const handleEvent = (data: string) => {
    if (data === "[DONE]") return;
    let part: { type?: string; errorText?: string; messageMetadata?: { generationId?: string } };
    try {
      part = JSON.parse(data) as typeof part;
    } catch {
      streamError ??= `unparseable part: ${data.slice(0, 100)}`;
      return;
    }
    if (part.type === "error") streamError ??= part.errorText ?? "error part";
    if (part.type === "start" && part.messageMetadata?.generationId)
      outcome.generationId = part.messageMetadata.generationId;
    if (part.type === "data-classification") outcome.mode = (part as { data?: { mode?: string } }).data?.mode;
    if (part.type === "finish") {
      finished = true;
      outcome.finishMs = performance.now() - t0;
    }
  };
  try {
    const parser = createParser({ onEvent: ({ data }) => handleEvent(data) });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (outcome.firstByteMs === null) outcome.firstByteMs = performance.now() - t0;
      parser.feed(value);
    }
  } catch (error) {
    return {
      ...outcome,
      errorKind: signal.aborted ? "aborted_at_deadline" : "stream_broken",
      errorText: String(error),
    };
  }
  if (streamError) return { ...outcome, errorKind: "stream_error_part", errorText: streamError };
  if (!finished) return { ...outcome, errorKind: "no_finish_part" };
  return { ...outcome, ok: true };
}

interface ReindexStats {
  started: number;
  conflicts: number;
  completed: number;
  failed: number;
  errors: Record<string, number>;
  generations: string[];
}

/** Re-indexes in a loop until `stop` aborts: start, wait for the build to end, repeat. */
async function reindexLoop(base: URL, repositoryId: string, stop: AbortSignal): Promise<ReindexStats> {
  const stats: ReindexStats = {
    started: 0,
    conflicts: 0,
    completed: 0,
    failed: 0,
    errors: {},
    generations: [],
  };
  const seen = (generationId: string | undefined) => {
    if (generationId && stats.generations.at(-1) !== generationId) stats.generations.push(generationId);
  };
  const repoUrl = new URL(`/api/repos/${encodeURIComponent(repositoryId)}`, base);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const current = async () => (await getJson<{ repository: RepositoryInfo }>(repoUrl)).repository;
  seen((await current()).active?.generationId);
  while (!stop.aborted) {
    const response = await fetch(new URL(`/api/repos/${encodeURIComponent(repositoryId)}/index`, base), {
      method: "POST",
    }).catch(() => null);
    if (!response) {
      stats.errors.network = (stats.errors.network ?? 0) + 1;
      await sleep(500);
      continue;
    }
    await response.body?.cancel();
    if (response.status === 409) {
      // A build is already running: expected, not an error.
      stats.conflicts++;
      await sleep(500);
      continue;
    }
    if (response.status !== 202) {
      const key = `http_${response.status}`;
      stats.errors[key] = (stats.errors[key] ?? 0) + 1;
      await sleep(500);
      continue;
    }
    stats.started++;
    // Poll until this build is neither queued nor building; keep polling after `stop` so the
    // last build's outcome is known (bounded by a generous cap).
    const deadline = Date.now() + 15 * 60_000;
    for (;;) {
      await sleep(250);
      let repo: RepositoryInfo;
      try {
        repo = await current();
      } catch {
        continue;
      }
      seen(repo.active?.generationId);
      // A queued build waits for a worker (WAYFINDER_INDEX_WORKER=external): still pending.
      const pending = repo.build?.status === "queued" || repo.build?.status === "building";
      if (!pending || Date.now() > deadline) {
        if (repo.build?.status === "ready" || repo.build?.status === "superseded") stats.completed++;
        else stats.failed++;
        break;
      }
    }
  }
  return stats;
}

// ---------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] as number;
}

function latencySummary(values: (number | null)[]) {
  const sorted = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  const round = (v: number | null) => (v === null ? null : Math.round(v));
  return {
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    max: round(sorted.at(-1) ?? null),
  };
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const questions = loadQuestions(options.questionsFile);
  const repository = await findRepository(options.url, options.repo);
  const port = Number(options.url.port || (options.url.protocol === "https:" ? 443 : 80));
  const pid = options.pid ?? findServerPid(port);
  if (!options.json)
    process.stderr.write(
      `load: ${options.questions} questions, ${options.concurrency} at a time, ≤${options.durationMs / 1000}s, ` +
        `repository ${repository.name}, server pid ${pid ?? "not found"}, re-index ${options.reindex ? "on" : "off"}\n`,
    );
  const sampler = pid ? sampleRss(pid) : null;

  const stopReindex = new AbortController();
  const reindex = options.reindex ? reindexLoop(options.url, repository.id, stopReindex.signal) : null;
  // In-flight questions get a grace period after the time cap, then are aborted (and counted).
  const abortQuestions = new AbortController();
  const started = performance.now();
  const timeCap = setTimeout(() => abortQuestions.abort(), options.durationMs + 60_000);
  const outcomes: Outcome[] = [];
  let next = 0;
  const workers = Array.from({ length: options.concurrency }, async () => {
    while (next < options.questions && performance.now() - started < options.durationMs) {
      const question = questions[next % questions.length] as Question;
      next++;
      outcomes.push(await ask(options, repository.id, question, abortQuestions.signal));
    }
  });
  await Promise.all(workers);
  const elapsedS = (performance.now() - started) / 1000;
  clearTimeout(timeCap);
  stopReindex.abort();
  const reindexStats = reindex ? await reindex : null;
  const memory = sampler?.stop() ?? null;

  const errors: Record<string, number> = {};
  const examples: Record<string, string> = {};
  for (const o of outcomes) {
    if (o.ok || !o.errorKind) continue;
    errors[o.errorKind] = (errors[o.errorKind] ?? 0) + 1;
    if (o.errorText) examples[o.errorKind] ??= o.errorText;
  }
  const errorCount = Object.values(errors).reduce((a, b) => a + b, 0);
  const modes: Record<string, number> = {};
  for (const o of outcomes) if (o.mode) modes[o.mode] = (modes[o.mode] ?? 0) + 1;
  const report = {
    server: { url: options.url.origin, pid },
    repository: repository.name,
    concurrency: options.concurrency,
    questions: outcomes.length,
    succeeded: outcomes.length - errorCount,
    errors,
    errorExamples: examples,
    elapsedSeconds: Math.round(elapsedS * 10) / 10,
    throughputPerSecond: Math.round((outcomes.length / elapsedS) * 100) / 100,
    latencyMs: {
      firstByte: latencySummary(outcomes.map((o) => o.firstByteMs)),
      finish: latencySummary(outcomes.map((o) => o.finishMs)),
    },
    modes,
    generationsAnswered: new Set(outcomes.map((o) => o.generationId).filter(Boolean)).size,
    reindex: reindexStats && {
      started: reindexStats.started,
      completed: reindexStats.completed,
      failed: reindexStats.failed,
      conflicts409: reindexStats.conflicts,
      errors: reindexStats.errors,
      generationFlips: Math.max(0, reindexStats.generations.length - 1),
    },
    peakRssMb: memory && {
      server: Math.round(memory.serverPeakMb),
      serverWithChildren: Math.round(memory.treePeakMb),
      samples: memory.samples,
    },
  };
  const reindexErrors = reindexStats
    ? reindexStats.failed + Object.values(reindexStats.errors).reduce((a, b) => a + b, 0)
    : 0;

  if (options.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const ms = (v: number | null) => (v === null ? "—" : `${v} ms`);
    const rows: [string, string][] = [
      ["questions", `${report.questions} (${report.succeeded} ok, ${errorCount} errors)`],
      ["concurrency", String(report.concurrency)],
      ["elapsed", `${report.elapsedSeconds} s`],
      ["throughput", `${report.throughputPerSecond} questions/s`],
      [
        "first byte p50 / p95 / max",
        `${ms(report.latencyMs.firstByte.p50)} / ${ms(report.latencyMs.firstByte.p95)} / ${ms(report.latencyMs.firstByte.max)}`,
      ],
      [
        "finish p50 / p95 / max",
        `${ms(report.latencyMs.finish.p50)} / ${ms(report.latencyMs.finish.p95)} / ${ms(report.latencyMs.finish.max)}`,
      ],
      [
        "modes (classified)",
        Object.entries(modes)
          .map(([m, n]) => `${m} ${n}`)
          .join(", ") || "—",
      ],
      [
        "errors by kind",
        Object.entries(errors)
          .map(([k, n]) => `${k} ${n}`)
          .join(", ") || "none",
      ],
      [
        "re-index",
        report.reindex
          ? `${report.reindex.started} started, ${report.reindex.completed} ready, ${report.reindex.failed} failed, ` +
            `${report.reindex.conflicts409}× 409, ${report.reindex.generationFlips} generation flips`
          : "off",
      ],
      ["generations answered from", String(report.generationsAnswered)],
      [
        "peak RSS",
        report.peakRssMb
          ? `server ${report.peakRssMb.server} MB, with children ${report.peakRssMb.serverWithChildren} MB`
          : "server process not found",
      ],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    for (const [k, v] of rows) process.stdout.write(`${k.padEnd(width)}  ${v}\n`);
    for (const [kind, text] of Object.entries(examples)) process.stdout.write(`  ${kind}: ${text}\n`);
  }
  return errorCount > 0 || reindexErrors > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`load: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
