/**
 * The question benchmark: questions of all four kinds over real repositories
 * (bench/data/questions/*.json), each with the files and symbols a good answer must
 * cite. Every question is answered offline as a user would get it (rules classify, the
 * mode retriever and the CGRAG loop with the evidence engine answer), and scored:
 * per mode hit@1/hit@5 of files and symbols, whether the answer cites the expected
 * files, scope precision of analytical answers, passes used and stop reasons.
 *
 * `questionsSection` (run by bench/run.ts, `--only questions`) checks the corpora out and
 * runs this file as a worker with a fresh WAYFINDER_HOME; the worker indexes each corpus
 * and prints one JSON line per question.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { QueryMode } from "../lib/qa/types.ts";
import { BENCH_WORK, benchChildEnv, openRepo } from "./corpus.ts";
import { tsScriptArgs } from "../lib/package-files.ts";
import { baseQualifiedId } from "../lib/db/symbol-ids.ts";

export const QUESTION_DIR = path.join(__dirname, "data", "questions");
const ROOT = path.resolve(__dirname, "..");
const MODES: QueryMode[] = ["conceptual", "diagnostic", "exploratory", "analytical"];
const K = 5;

/** A file or symbol a good answer must cite; a list is satisfied by any one of its members. */
export type Expected = string | string[];

export interface BenchQuestion {
  id: string;
  corpus: string;
  mode: QueryMode;
  question: string;
  files: Expected[];
  symbols: Expected[];
  /** analytical questions: the folder, package or file the question names */
  scope?: string;
  why?: string;
}

/**
 * A repository the questions are asked about: one of bench/data/corpus.json at a revision
 * (an instance's tag, or `head`), or this project's own source at a commit.
 */
export type Corpus = { name: string; ref: string; self?: boolean };

export interface QuestionSet {
  corpora: Corpus[];
  questions: BenchQuestion[];
}

/** What the worker measured for one question. */
export interface QuestionRow {
  id: string;
  corpus: string;
  expectedMode: QueryMode;
  mode: QueryMode;
  scope: string | null;
  files: string[];
  symbols: string[];
  citedFiles: string[];
  passes: number;
  stopReason: string;
  gaps: string[][];
  ms: number;
  /** expected files and symbols that are not in the index (a mistake in the question set) */
  unknown: string[];
  answer: string;
}

/** Every question set under bench/data/questions, merged. */
export function loadQuestionSets(dir = QUESTION_DIR): QuestionSet {
  const out: QuestionSet = { corpora: [], questions: [] };
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const set = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as QuestionSet;
    out.corpora.push(...set.corpora);
    out.questions.push(...set.questions);
  }
  return out;
}

/** Whether every expected entry is among the first k ranked items. */
export function hitAt(ranked: string[], expected: Expected[], k: number): boolean {
  // An overload (`a.ts::f#2`) answers for its name (`a.ts::f`).
  const top = ranked.slice(0, k).map(baseQualifiedId);
  return expected.every((e) => (Array.isArray(e) ? e.some((x) => top.includes(x)) : top.includes(e)));
}

/** Whether a path lies in a scope (the scope itself, or under it as a folder). */
export function inScope(file: string, scope: string): boolean {
  const s = scope.replace(/\/+$/, "");
  return file === s || file.startsWith(`${s}/`);
}

/**
 * Scope precision of one analytical answer: the share of the files it puts forward (the
 * top-k ranked files and every file its citations point at) that lie inside the scope.
 */
export function scopePrecision(row: Pick<QuestionRow, "files" | "citedFiles">, scope: string): number {
  const shown = [...new Set([...row.files.slice(0, K), ...row.citedFiles])];
  if (shown.length === 0) return 0;
  return shown.filter((f) => inScope(f, scope)).length / shown.length;
}

function pct(n: number, total: number): number {
  return total ? Math.round((n / total) * 1000) / 10 : 0;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? 0;
}

export interface ModeSummary {
  questions: number;
  classified: number;
  fileHit1: number;
  fileHit5: number;
  symbolQuestions: number;
  symbolHit1: number;
  symbolHit5: number;
  citesExpectedFiles: number;
  scopePrecision?: number;
  passesMedian: number;
  passes: Record<string, number>;
  stopReasons: Record<string, number>;
  msP50: number;
  msP95: number;
}

/** Per-mode figures over the rows (grouped by the mode each question expects). */
export function summarize(questions: BenchQuestion[], rows: QuestionRow[]): Record<string, ModeSummary> {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const out: Record<string, ModeSummary> = {};
  for (const mode of [...MODES, "all" as const]) {
    const list = rows.filter((r) => mode === "all" || r.expectedMode === mode);
    if (list.length === 0) continue;
    const q = (r: QuestionRow) => byId.get(r.id) as BenchQuestion;
    const withSymbols = list.filter((r) => q(r).symbols.length > 0);
    const scoped = list.filter((r) => q(r).scope);
    const count = (values: string[]) =>
      Object.fromEntries(
        [...new Set(values)].sort().map((v) => [v, values.filter((x) => x === v).length] as const),
      );
    out[mode] = {
      questions: list.length,
      classified: pct(list.filter((r) => r.mode === r.expectedMode).length, list.length),
      fileHit1: pct(list.filter((r) => hitAt(r.files, q(r).files, 1)).length, list.length),
      fileHit5: pct(list.filter((r) => hitAt(r.files, q(r).files, K)).length, list.length),
      symbolQuestions: withSymbols.length,
      symbolHit1: pct(
        withSymbols.filter((r) => hitAt(r.symbols, q(r).symbols, 1)).length,
        withSymbols.length,
      ),
      symbolHit5: pct(
        withSymbols.filter((r) => hitAt(r.symbols, q(r).symbols, K)).length,
        withSymbols.length,
      ),
      citesExpectedFiles: pct(
        list.filter((r) => hitAt(r.citedFiles, q(r).files, Number.MAX_SAFE_INTEGER)).length,
        list.length,
      ),
      ...(scoped.length
        ? {
            scopePrecision: pct(
              scoped.reduce((n, r) => n + scopePrecision(r, q(r).scope as string), 0),
              scoped.length,
            ),
          }
        : {}),
      passesMedian: median(list.map((r) => r.passes)),
      passes: count(list.map((r) => String(r.passes))),
      stopReasons: count(list.map((r) => r.stopReason)),
      msP50: Math.round(
        percentile(
          list.map((r) => r.ms),
          50,
        ),
      ),
      msP95: Math.round(
        percentile(
          list.map((r) => r.ms),
          95,
        ),
      ),
    };
  }
  return out;
}

/** Questions whose expected files or symbols were not all in the top k, with what came instead. */
export function misses(questions: BenchQuestion[], rows: QuestionRow[]): Record<string, unknown>[] {
  const byId = new Map(questions.map((q) => [q.id, q]));
  return rows.flatMap((r) => {
    const q = byId.get(r.id) as BenchQuestion;
    const fileMiss = !hitAt(r.files, q.files, K);
    const symbolMiss = q.symbols.length > 0 && !hitAt(r.symbols, q.symbols, K);
    if (!fileMiss && !symbolMiss) return [];
    return [
      {
        id: r.id,
        mode: `${r.expectedMode}${r.mode === r.expectedMode ? "" : ` (classified ${r.mode})`}`,
        ...(fileMiss ? { expectedFiles: q.files, gotFiles: r.files.slice(0, K) } : {}),
        ...(symbolMiss ? { expectedSymbols: q.symbols, gotSymbols: r.symbols.slice(0, K) } : {}),
      },
    ];
  });
}

interface WorkerCorpus {
  name: string;
  dir: string;
}

/** This project's own source at a commit, exported once into the bench's work folder. */
function checkoutSelf(commit: string): string {
  const dir = path.join(BENCH_WORK, "questions", `self-${commit.slice(0, 12)}`);
  if (!fs.existsSync(dir)) {
    const partial = `${dir}.partial`;
    fs.rmSync(partial, { recursive: true, force: true });
    fs.mkdirSync(partial, { recursive: true });
    const archive = execFileSync("git", ["-C", ROOT, "archive", "--format=tar", commit], {
      maxBuffer: 512 * 1024 * 1024,
    });
    execFileSync("tar", ["-x", "-C", partial], { input: archive });
    fs.renameSync(partial, dir);
  }
  return dir;
}

/**
 * The section run by bench/run.ts: checks every corpus out, runs the worker with a fresh
 * data directory, prints per-mode figures and the misses.
 */
export function questionsSection(log: (line: string) => void): Record<string, unknown> {
  const set = loadQuestionSets();
  const corpora: WorkerCorpus[] = set.corpora
    .filter((c) => set.questions.some((q) => q.corpus === c.name))
    .map((c) => {
      if (c.self) return { name: c.name, dir: checkoutSelf(c.ref) };
      const repo = openRepo(c.name);
      repo.checkout(c.ref);
      return { name: c.name, dir: repo.dir };
    });
  const work = BENCH_WORK;
  fs.mkdirSync(work, { recursive: true });
  const home = fs.mkdtempSync(path.join(work, "home-questions-"));
  const input = path.join(home, "corpora.json");
  fs.writeFileSync(input, JSON.stringify(corpora));
  const result = spawnSync(process.execPath, tsScriptArgs(__filename, [input], ROOT), {
    cwd: ROOT,
    env: benchChildEnv(home),
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (result.status !== 0) throw new Error(`questions worker failed (exit ${result.status})`);
  const rows = result.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as QuestionRow);
  fs.rmSync(home, { recursive: true, force: true });
  const byId = new Map(set.questions.map((q) => [q.id, q]));
  for (const r of rows) {
    const q = byId.get(r.id) as BenchQuestion;
    const rank = (expected: Expected[], ranked: string[]) => {
      const at = Math.max(
        ...expected.map((e) => {
          const i = ranked.findIndex((x) => (Array.isArray(e) ? e.includes(x) : x === e));
          return i < 0 ? Number.POSITIVE_INFINITY : i + 1;
        }),
      );
      return Number.isFinite(at) ? String(at) : "-";
    };
    log(
      `  ${r.id} [${r.expectedMode}${r.mode === r.expectedMode ? "" : ` → ${r.mode}`}]: files at ${rank(q.files, r.files)}` +
        `${q.symbols.length ? `, symbols at ${rank(q.symbols, r.symbols.map(baseQualifiedId))}` : ""}, ${r.passes} passes (${r.stopReason}), ${Math.round(r.ms)} ms` +
        `${r.unknown.length ? `; NOT IN INDEX: ${r.unknown.join(", ")}` : ""}`,
    );
  }
  const summary = summarize(set.questions, rows);
  for (const [mode, s] of Object.entries(summary)) {
    log(
      `questions ${mode} (${s.questions}, ${s.classified}% classified as expected): files hit@1 ${s.fileHit1}%, hit@5 ${s.fileHit5}%; ` +
        `symbols hit@1 ${s.symbolHit1}%, hit@5 ${s.symbolHit5}% (${s.symbolQuestions} questions); answer cites the files ${s.citesExpectedFiles}%` +
        `${s.scopePrecision !== undefined ? `; scope precision ${s.scopePrecision}%` : ""}; ` +
        `passes median ${s.passesMedian} ${JSON.stringify(s.passes)}; stops ${JSON.stringify(s.stopReasons)}; p50 ${s.msP50} ms, p95 ${s.msP95} ms`,
    );
  }
  return { summary, misses: misses(set.questions, rows), rows };
}

// ------------------------------------------------------------------ worker

async function worker(input: string): Promise<void> {
  const { closeDb } = await import("../lib/db/client.ts");
  const { ensureMigrated } = await import("../lib/db/migrate.ts");
  const { indexRepository } = await import("../lib/indexer/build.ts");
  const { retrieveReport } = await import("../lib/qa/retrieve.ts");
  const { closeSearchServices } = await import("../lib/search/runtime.ts");
  const { getFile } = await import("../lib/db/index-store.ts");
  const { symbolsByQualifiedIds } = await import("../lib/db/code-graph.ts");
  const corpora = JSON.parse(fs.readFileSync(input, "utf8")) as WorkerCorpus[];
  const set = loadQuestionSets();
  await ensureMigrated();
  for (const corpus of corpora) {
    const t0 = performance.now();
    const { repository } = await indexRepository(corpus.dir, { name: corpus.name });
    const generationId = repository.activeGenerationId as string;
    process.stderr.write(`  indexed ${corpus.name} in ${Math.round((performance.now() - t0) / 100) / 10}s\n`);
    for (const q of set.questions.filter((x) => x.corpus === corpus.name)) {
      const unknown: string[] = [];
      for (const f of q.files.flat()) if (!(await getFile(generationId, f))) unknown.push(f);
      const ids = q.symbols.flat();
      const found = new Set((await symbolsByQualifiedIds(generationId, ids)).map((s) => s.qualifiedId));
      unknown.push(...ids.filter((id) => !found.has(id)));
      const report = await retrieveReport(repository.id, q.question);
      const row: QuestionRow = {
        id: q.id,
        corpus: q.corpus,
        expectedMode: q.mode,
        mode: report.mode,
        scope: report.scope,
        files: report.files.slice(0, 20),
        symbols: report.symbols.slice(0, 20),
        citedFiles: report.citedFiles,
        passes: report.passesUsed,
        stopReason: report.stopReason,
        gaps: report.passes.map((p) => p.gaps),
        ms: report.timings.totalMs,
        unknown,
        answer: report.answer,
      };
      process.stdout.write(`${JSON.stringify(row)}\n`);
    }
  }
  await closeSearchServices();
  await closeDb();
}

if (require.main === module) {
  const input = process.argv[2];
  if (!input) throw new Error("usage: questions.ts <corpora.json>");
  worker(input).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
