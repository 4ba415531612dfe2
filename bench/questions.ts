/**
 * The question benchmark: questions of all four kinds over real repositories
 * (bench/data/questions/*.json), each with the files and symbols a good answer must
 * cite, and a split: `dev` (looked at when tuning) or `heldout` (never tuned on; its
 * questions are reported only in aggregate). Every question is answered offline as a
 * user would get it (the trained classifier routes it, the mode retriever and the CGRAG
 * loop with the evidence engine answer), and scored per split and mode: mode right (and
 * the classifier's confusion matrix), hit@1/hit@5 of files and symbols, whether the
 * answer cites the expected files, noise, whether the first paragraph answers, scope
 * precision of analytical answers, passes used and stop reasons.
 *
 * Noise: the share of the files an answer puts forward (its top five and the files it
 * cites) that are tests, examples, docs, benchmarks, vendored or generated code the
 * question is not about, or lie outside the scope an analytical question names.
 * The first paragraph answers when it cites a span of at most 150 lines in an expected
 * file — for a question with expected symbols, one overlapping an expected symbol or an
 * overload of it — and
 * frames nothing as an error unless the question is diagnostic.
 *
 * The sets (counts kept current here): questions.json, languages.json and dev-more.json
 * (dev, mostly Python and the multi-language localization corpora), dev-langs.json (dev,
 * 124 questions over one repository in each of the ten languages other than Python),
 * dev-extra.json (dev, 26 questions over Ruby faraday and C# MediatR), dev-flows.json (dev,
 * 48 questions over Go chi, TypeScript got, Rust walkdir and Java jjwt, shaped like the
 * held-out half's: exploratory ones expect the 3-4 steps of a flow, conceptual and
 * diagnostic ones two symbols, half the analytical ones several files and no symbol) and
 * heldout.json.
 * Dev: 331 questions over 33 repositories in eleven languages and this project's own TSX
 * (conceptual 84, diagnostic 88, exploratory 83, analytical 76);
 * held-out: 133 over 12 repositories in eleven languages (conceptual 33, diagnostic 33,
 * exploratory 33, analytical 34).
 *
 * `questionsSection` (run by bench/run.ts, `--only questions`) checks the corpora out and
 * runs this file as a worker with a fresh WAYFINDER_HOME; the worker indexes each corpus
 * and prints one JSON line per question.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { QUERY_MODE_LIST, type QueryMode } from "../lib/qa/types.ts";
import { parseCitations } from "../lib/qa/citations.ts";
import { confusionMatrix, formatConfusion, type ConfusionMatrix } from "../lib/qa/classify-train.ts";
import { BENCH_WORK, openRepo, runJsonWorker } from "./corpus.ts";
import { baseQualifiedId } from "../lib/db/symbol-ids.ts";

export const QUESTION_DIR = path.join(__dirname, "data", "questions");
const ROOT = path.resolve(__dirname, "..");
const MODES = QUERY_MODE_LIST;
const K = 5;

/** A file or symbol a good answer must cite; a list is satisfied by any one of its members. */
export type Expected = string | string[];

export type Split = "dev" | "heldout";
export const SPLITS: Split[] = ["dev", "heldout"];

export interface BenchQuestion {
  id: string;
  corpus: string;
  mode: QueryMode;
  /** dev: tuned on; heldout: never tuned on (questions written before the split default to dev) */
  split?: Split;
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
  split: Split;
  expectedMode: QueryMode;
  mode: QueryMode;
  /** a close runner-up retrieved beside the mode */
  secondaryMode: QueryMode | null;
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
  /** share of the files put forward that are noise (see the module header) */
  noise: number;
  opening: Opening;
}

/** What the first paragraph of an answer does. */
export interface Opening {
  /** cites a span of at most 150 lines in an expected file */
  citesRightFile: boolean;
  /** cites a span overlapping an expected symbol (null: the question lists none) */
  citesExpectedSymbol: boolean | null;
  /** speaks of raise sites or errors */
  errorFraming: boolean;
}

const MAX_OPENING_SPAN = 150;
const ERROR_FRAMING = /\braise site\b|\bis raised\b|\braises\b|\bNo raise\b|\berror\b|\bexception\b/i;
/** A file path as an answer cites it (`src/error.rs:12-30`, `lib/errors/index.js`). */
const CITED_PATH = /[\w.@-]*(?:\/[\w.@-]+)+(?::\d+(?:-\d+)?)?|[\w.-]+\.[A-Za-z]\w*:\d+(?:-\d+)?/g;

/** Whether an answer's first paragraph answers (see the module header). */
export function openingOf(
  answer: string,
  expectedFiles: Expected[],
  expectedSpans: { path: string; startLine: number; endLine: number }[],
): Opening {
  const first = answer.split(/\n\s*\n/)[0] ?? "";
  const files = new Set(expectedFiles.flat());
  const spans = parseCitations(first).filter((c) => c.endLine - c.startLine + 1 <= MAX_OPENING_SPAN);
  return {
    citesRightFile: spans.some((c) => files.has(c.path)),
    citesExpectedSymbol: expectedSpans.length
      ? spans.some((c) =>
          expectedSpans.some(
            (e) => e.path === c.path && c.startLine <= e.endLine && e.startLine <= c.endLine,
          ),
        )
      : null,
    // Code and cited paths are not framing: `src/error.rs:12-30` names a file, not an error.
    errorFraming: ERROR_FRAMING.test(first.replace(/`[^`]*`/g, "").replace(CITED_PATH, " ")),
  };
}

/**
 * The first paragraph answers: it cites the deciding code — an expected symbol, or for a
 * question that lists none a span of an expected file — and frames nothing as an error
 * unless the question is diagnostic.
 */
export function openingAnswers(row: Pick<QuestionRow, "opening" | "expectedMode">): boolean {
  const o = row.opening;
  const cites = o.citesExpectedSymbol ?? o.citesRightFile;
  return cites && (row.expectedMode === "diagnostic" || !o.errorFraming);
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

/**
 * How many of the expected entries are among the first k ranked items (each entry counted on
 * its own, where hitAt asks for all of them at once): the figure that shows progress on
 * questions expecting three or four places before every one of them is found.
 */
export function foundAt(ranked: string[], expected: Expected[], k: number): number {
  const top = ranked.slice(0, k).map(baseQualifiedId);
  return expected.filter((e) => (Array.isArray(e) ? e.some((x) => top.includes(x)) : top.includes(e))).length;
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
  /** questions retrieved for two modes (a close runner-up) */
  fused: number;
  noise: number;
  openingAnswers: number;
  fileHit1: number;
  fileHit5: number;
  symbolQuestions: number;
  symbolHit1: number;
  symbolHit5: number;
  /** Expected files (symbols) found in the top 5, each counted on its own, as a share of all. */
  fileRecall5: number;
  symbolRecall5: number;
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
      fused: list.filter((r) => r.secondaryMode !== null).length,
      noise: pct(
        list.reduce((n, r) => n + r.noise, 0),
        list.length,
      ),
      openingAnswers: pct(list.filter(openingAnswers).length, list.length),
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
      fileRecall5: pct(
        list.reduce((n, r) => n + foundAt(r.files, q(r).files, K), 0),
        list.reduce((n, r) => n + q(r).files.length, 0),
      ),
      symbolRecall5: pct(
        withSymbols.reduce((n, r) => n + foundAt(r.symbols, q(r).symbols, K), 0),
        withSymbols.reduce((n, r) => n + q(r).symbols.length, 0),
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

/** Expected mode (rows) against the mode the question was routed to (columns). */
export function benchConfusion(rows: QuestionRow[]): ConfusionMatrix {
  return confusionMatrix(rows.map((r) => ({ expected: r.expectedMode, predicted: r.mode })));
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
export function checkoutSelf(commit: string): string {
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
  const rows = runJsonWorker<QuestionRow>({
    script: __filename,
    input: corpora,
    label: "questions",
    root: ROOT,
  });
  const byId = new Map(set.questions.map((q) => [q.id, q]));
  // Held-out questions are reported in aggregate only: nobody tunes on what they miss.
  for (const r of rows.filter((x) => x.split === "dev")) {
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
      `  ${r.id} [${r.expectedMode}${r.mode === r.expectedMode ? "" : ` → ${r.mode}`}${r.secondaryMode ? ` +${r.secondaryMode}` : ""}]: files at ${rank(q.files, r.files)}` +
        `${q.symbols.length ? `, symbols at ${rank(q.symbols, r.symbols.map(baseQualifiedId))}` : ""}, ${r.passes} passes (${r.stopReason}), ${Math.round(r.ms)} ms` +
        `; opening ${openingAnswers(r) ? "answers" : `does not (${JSON.stringify(r.opening)})`}${r.noise > 0 ? `; noise ${Math.round(r.noise * 100)}%` : ""}` +
        `${r.unknown.length ? `; NOT IN INDEX: ${r.unknown.join(", ")}` : ""}`,
    );
  }
  const unknown = rows.filter((r) => r.unknown.length).length;
  if (unknown) log(`questions: ${unknown} question(s) expect files or symbols that are not in the index`);
  const bySplit: Record<string, unknown> = {};
  for (const split of SPLITS) {
    const list = rows.filter((r) => r.split === split);
    if (list.length === 0) continue;
    const summary = summarize(set.questions, list);
    for (const [mode, s] of Object.entries(summary)) {
      log(
        `questions ${split} ${mode} (${s.questions}, mode right ${s.classified}%, ${s.fused} fused): files hit@1 ${s.fileHit1}%, hit@5 ${s.fileHit5}% (each file ${s.fileRecall5}%); ` +
          `symbols hit@1 ${s.symbolHit1}%, hit@5 ${s.symbolHit5}% (each symbol ${s.symbolRecall5}%; ${s.symbolQuestions} questions); noise ${s.noise}%; first paragraph answers ${s.openingAnswers}%; ` +
          `answer cites the files ${s.citesExpectedFiles}%` +
          `${s.scopePrecision !== undefined ? `; scope precision ${s.scopePrecision}%` : ""}; ` +
          `passes median ${s.passesMedian} ${JSON.stringify(s.passes)}; stops ${JSON.stringify(s.stopReasons)}; p50 ${s.msP50} ms, p95 ${s.msP95} ms`,
      );
    }
    const confusion = benchConfusion(list);
    log(
      `questions ${split}: the classifier's routing (expected mode \\ routed to)\n${formatConfusion(confusion)}`,
    );
    bySplit[split] = { summary, confusion };
  }
  const training = path.join(ROOT, "training", "modes", "metrics.json");
  return {
    splits: bySplit,
    classifierHeldOut: fs.existsSync(training)
      ? (JSON.parse(fs.readFileSync(training, "utf8")) as { heldOut: unknown }).heldOut
      : null,
    misses: misses(
      set.questions,
      rows.filter((r) => r.split === "dev"),
    ),
    rows,
  };
}

// ------------------------------------------------------------------ worker

async function worker(input: string): Promise<void> {
  const { closeDb } = await import("../lib/db/client.ts");
  const { ensureMigrated } = await import("../lib/db/migrate.ts");
  const { indexRepository } = await import("../lib/builds/build.ts");
  const { retrieveReport } = await import("../lib/qa/retrieve.ts");
  const { closeSearchServices } = await import("../lib/search/runtime.ts");
  const { getFile } = await import("../lib/db/index-reads.ts");
  const { symbolsByQualifiedIds, symbolsOfQualifiedId } = await import("../lib/db/code-graph.ts");
  const { questionTopics } = await import("../lib/qa/concepts.ts");
  const { excludedByDefault } = await import("../lib/qa/retrievers/scope.ts");
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
      // An overload (`a.ts::f#2`) answers for its name, as in hitAt: a plain id's spans are
      // those of every definition of the name in its file.
      const spans = (await Promise.all(ids.map((id) => symbolsOfQualifiedId(generationId, id)))).flat();
      const shown = [...new Set([...report.files.slice(0, K), ...report.citedFiles])];
      const topics = questionTopics(q.question);
      const expectedFiles = new Set(q.files.flat());
      const noisy = shown.filter(
        (f) =>
          !expectedFiles.has(f) && (excludedByDefault(f, topics) || (q.scope ? !inScope(f, q.scope) : false)),
      );
      const row: QuestionRow = {
        id: q.id,
        corpus: q.corpus,
        split: q.split ?? "dev",
        expectedMode: q.mode,
        mode: report.mode,
        secondaryMode: report.secondaryMode,
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
        noise: shown.length ? noisy.length / shown.length : 0,
        opening: openingOf(report.answer, q.files, spans),
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
