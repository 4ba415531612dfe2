/**
 * Questions in other people's words: SWE-QA's descriptive questions ("what / why / where
 * / how") over Python repositories, each with the files its reference answer points at.
 * For each question: does `retrieve` (rules classify, the mode retriever and the CGRAG
 * loop with the evidence engine) put any expected file in its top 1 / 5 / 10, and at
 * which rank (MRR), per kind of question; beside it, in the same run over the same
 * indexed files, whole-file BM25 (bench/bm25.ts) over every indexed file and over the
 * code files only, and each retrieval channel alone (whole-file BM25 as Wayfinder
 * stores it, with the question's words weighed and expanded and with its content terms
 * alone, chunk BM25, vector search with the configured embedder and, for
 * comparison, with the hashing embedder over the same chunks, definitions by name).
 *
 * The questions are `swe-qa*.jsonl` files in the corpus folders (`--corpus`, a folder
 * and its direct subfolders), each beside the single-commit bundles of its
 * repositories (`<owner>__<name>.bundle`, the question's `ref` a tag in it), so a
 * held-out set is measured by pointing `--corpus` at its folder. `sweqaSection` (run by
 * bench/run.ts, `--only sweqa`) checks the repositories out and runs this file as a
 * worker per repository with a fresh WAYFINDER_HOME; the worker prints one JSON line
 * per question.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BENCH_WORK, corpusFolders, runJsonWorker } from "./corpus.ts";

const ROOT = path.resolve(__dirname, "..");

export interface SweqaQuestion {
  instance_id: string;
  repo: string;
  /** a tag of the repository's bundle (else base_commit is checked out) */
  ref?: string;
  base_commit: string;
  problem_statement: string;
  gold_files: string[];
  kind: string;
}

/** What the worker measured for one question: ranked files per ranker. */
export interface SweqaRow {
  id: string;
  repo: string;
  kind: string;
  gold: string[];
  mode: string;
  /** ranked file lists, best first: `wayfinder`, the baselines and the channels alone */
  ranked: Record<string, string[]>;
  /** the mode retriever's own file ranking per signal it fused */
  signals: Record<string, string[]>;
  ms: number;
}

/** Rankers reported, in order: Wayfinder, the two baselines, then each channel alone. */
export const RANKERS = [
  "wayfinder",
  "bm25",
  "bm25Code",
  "wholeFile",
  "wholeFilePlain",
  "chunks",
  "vector",
  "vectorHashing",
  "definitions",
] as const;

/** The question files (`swe-qa*.jsonl`) in the corpus folders and their direct subfolders. */
export function sweqaQuestionFiles(folders: string[]): string[] {
  const out: string[] = [];
  for (const folder of folders) {
    const dirs = [
      folder,
      ...fs
        .readdirSync(folder, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => path.join(folder, d.name)),
    ];
    for (const dir of dirs) {
      for (const f of fs.readdirSync(dir).sort()) {
        if (/^swe-qa.*\.jsonl$/.test(f)) out.push(path.join(dir, f));
      }
    }
  }
  return out;
}

function readQuestions(file: string): SweqaQuestion[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SweqaQuestion);
}

/** 1-based rank of the first expected file among the first `k`, or 0. */
export function firstHit(ranked: string[], gold: string[], k = 10): number {
  const i = ranked.slice(0, k).findIndex((f) => gold.includes(f));
  return i < 0 ? 0 : i + 1;
}

export interface RankerFigures {
  questions: number;
  hit1: number;
  hit5: number;
  hit10: number;
  /** mean reciprocal rank of the first expected file, within the top 10 */
  mrr: number;
}

function pct(n: number, total: number): number {
  return total ? Math.round((n / total) * 1000) / 10 : 0;
}

/** Any-file hit@1/5/10 and MRR of one ranker over the rows. */
export function figures(rows: SweqaRow[], ranker: string): RankerFigures {
  const ranks = rows.map((r) => firstHit(r.ranked[ranker] ?? [], r.gold));
  const hits = (k: number) => ranks.filter((x) => x > 0 && x <= k).length;
  return {
    questions: rows.length,
    hit1: pct(hits(1), rows.length),
    hit5: pct(hits(5), rows.length),
    hit10: pct(hits(10), rows.length),
    mrr: rows.length
      ? Math.round((ranks.reduce((n, x) => n + (x > 0 ? 1 / x : 0), 0) / rows.length) * 1000) / 1000
      : 0,
  };
}

/** Per kind of question (and `all`), the figures of every ranker. */
export function summarizeSweqa(rows: SweqaRow[]): Record<string, Record<string, RankerFigures>> {
  const kinds = ["all", ...[...new Set(rows.map((r) => r.kind))].sort()];
  const out: Record<string, Record<string, RankerFigures>> = {};
  for (const kind of kinds) {
    const list = rows.filter((r) => kind === "all" || r.kind === kind);
    out[kind] = Object.fromEntries(RANKERS.map((ranker) => [ranker, figures(list, ranker)]));
  }
  return out;
}

function git(args: string[]): string {
  return execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** The repository's tree at the questions' ref, cloned once from the bundle beside the question file. */
function checkoutRepository(questionFile: string, repo: string, ref: string): string {
  const name = repo.replace("/", "__");
  const bundle = path.join(path.dirname(questionFile), `${name}.bundle`);
  if (!fs.existsSync(bundle)) throw new Error(`sweqa: no bundle ${bundle} for ${repo}`);
  const dir = path.join(BENCH_WORK, "sweqa", path.basename(path.dirname(questionFile)), name);
  if (!fs.existsSync(path.join(dir, ".git"))) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    git(["clone", "-q", "--no-checkout", bundle, dir]);
  }
  git(["-C", dir, "checkout", "-q", "-f", ref]);
  git(["-C", dir, "clean", "-q", "-fdx"]);
  return dir;
}

/**
 * The section run by bench/run.ts: every question file's repositories, one worker each,
 * then per-kind figures with the baselines and the channels beside, and the misses.
 */
export function sweqaSection(log: (line: string) => void): Record<string, unknown> {
  const files = sweqaQuestionFiles(corpusFolders());
  if (files.length === 0)
    throw new Error("sweqa: no swe-qa*.jsonl in the corpus folders (pass --corpus DIR)");
  const rows: SweqaRow[] = [];
  for (const file of files) {
    const questions = readQuestions(file);
    for (const repo of [...new Set(questions.map((q) => q.repo))]) {
      const list = questions.filter((q) => q.repo === repo);
      const first = list[0] as SweqaQuestion;
      const dir = checkoutRepository(file, repo, first.ref ?? first.base_commit);
      const repoRows = runJsonWorker<SweqaRow>({
        script: __filename,
        input: { dir, questions: list },
        label: "sweqa",
        root: ROOT,
      });
      rows.push(...repoRows);
      const f = (ranker: string) => figures(repoRows, ranker).hit5;
      log(
        `  ${repo} (${repoRows.length}): any file in the top 5 ${f("wayfinder")}% | whole-file BM25 ${f("bm25")}%, over code files ${f("bm25Code")}%`,
      );
    }
  }
  const summary = summarizeSweqa(rows);
  for (const [kind, byRanker] of Object.entries(summary)) {
    const line = RANKERS.map((ranker) => {
      const s = byRanker[ranker] as RankerFigures;
      return `${ranker} ${s.hit1}/${s.hit5}/${s.hit10} mrr ${s.mrr}`;
    }).join(" | ");
    log(`sweqa ${kind} (${byRanker.wayfinder?.questions}), any-file hit@1/@5/@10: ${line}`);
  }
  const misses = rows
    .filter((r) => firstHit(r.ranked.wayfinder ?? [], r.gold, 5) === 0)
    .map((r) => ({
      id: r.id,
      kind: r.kind,
      mode: r.mode,
      gold: r.gold,
      got: (r.ranked.wayfinder ?? []).slice(0, 5),
      bm25Hit5: firstHit(r.ranked.bm25 ?? [], r.gold, 5) > 0,
    }));
  log(
    `sweqa misses (no expected file in Wayfinder's top 5): ${misses.length}, of which whole-file BM25 finds ${misses.filter((m) => m.bm25Hit5).length}`,
  );
  const ms = rows.map((r) => r.ms).sort((a, b) => a - b);
  return { summary, retrieveMsP50: ms[Math.floor(ms.length / 2)] ?? 0, misses, rows };
}

// ------------------------------------------------------------------ worker

function unique(paths: string[], limit = 20): string[] {
  return [...new Set(paths)].slice(0, limit);
}

async function worker(input: string): Promise<void> {
  const { closeDb } = await import("../lib/db/client.ts");
  const { ensureMigrated } = await import("../lib/db/migrate.ts");
  const { indexRepository } = await import("../lib/builds/build.ts");
  const { retrieveReport } = await import("../lib/qa/retrieve.ts");
  const { closeSearchServices } = await import("../lib/search/runtime.ts");
  const { chunkIdsIn, chunkTexts, getFileContent, listFiles } = await import("../lib/db/index-reads.ts");
  const { chunkEmbeddingText } = await import("../lib/indexer/embed.ts");
  const { HashingEmbedder } = await import("../lib/search/embedder.ts");
  const { lexicalSearch, vectorSearch } = await import("../lib/search/hybrid.ts");
  const { wholeFileSearch } = await import("../lib/search/whole-file.ts");
  const { bm25Files } = await import("../lib/db/file-terms.ts");
  const { contentTerms } = await import("../lib/db/tokenize.ts");
  const { definitionCandidates } = await import("../lib/qa/retrievers/shared.ts");
  const { conceptTerms, questionTopics } = await import("../lib/qa/concepts.ts");
  const { WholeFileBm25 } = await import("./bm25.ts");
  const { dir, questions } = JSON.parse(fs.readFileSync(input, "utf8")) as {
    dir: string;
    questions: SweqaQuestion[];
  };
  await ensureMigrated();
  const t0 = performance.now();
  const { repository, stats } = await indexRepository(dir, { name: path.basename(dir) });
  const generationId = repository.activeGenerationId as string;
  process.stderr.write(
    `  indexed ${path.basename(dir)}: ${stats.files} files in ${Math.round((performance.now() - t0) / 100) / 10}s\n`,
  );
  // The baselines rank exactly the files Wayfinder indexed, read back from the index.
  const indexed = await listFiles(generationId);
  const texts = await Promise.all(
    indexed.map(async (f) => ({
      path: f.path,
      kind: f.kind,
      content: (await getFileContent(generationId, f.path)) ?? "",
    })),
  );
  const bm25 = new WholeFileBm25(texts);
  const bm25Code = new WholeFileBm25(texts.filter((t) => t.kind === "code"));
  // The hashing embedder over the same code chunks, searched exactly in memory.
  const hashing = new HashingEmbedder();
  const chunkIds = await chunkIdsIn(generationId);
  const codeChunks: { path: string; vector: Float32Array }[] = [];
  for (let i = 0; i < chunkIds.length; i += 500) {
    const rows = (await chunkTexts(chunkIds.slice(i, i + 500))).filter((r) => r.kind === "code");
    const vectors = await hashing.embed(rows.map(chunkEmbeddingText));
    rows.forEach((r, j) => codeChunks.push({ path: r.path, vector: vectors[j] as Float32Array }));
  }
  const hashingSearch = async (question: string) => {
    const [q] = await hashing.embed([question]);
    return codeChunks
      .map((c) => ({
        path: c.path,
        score: c.vector.reduce((n, x, k) => n + x * ((q as Float32Array)[k] as number), 0),
      }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 40)
      .map((c) => c.path);
  };
  for (const q of questions) {
    const question = q.problem_statement;
    const started = performance.now();
    const report = await retrieveReport(repository.id, question);
    const ms = performance.now() - started;
    const [wholeFile, chunks, vector, definitions] = await Promise.all([
      wholeFileSearch(generationId, question, { limit: 20 }),
      lexicalSearch(generationId, question, { limit: 40, kinds: ["code"], stems: true }),
      vectorSearch(repository.id, generationId, question, { limit: 40, kinds: ["code"] }),
      definitionCandidates(generationId, conceptTerms(question), 30, questionTopics(question)),
    ]);
    const row: SweqaRow = {
      id: q.instance_id,
      repo: q.repo,
      kind: q.kind,
      gold: q.gold_files,
      mode: report.mode,
      ranked: {
        wayfinder: report.files.slice(0, 20),
        bm25: bm25.rank(question, 20),
        bm25Code: bm25Code.rank(question, 20),
        wholeFile: wholeFile.map((h) => h.path),
        wholeFilePlain: (
          await bm25Files(
            generationId,
            contentTerms(question, 200).map((word) => ({ word, weight: 1 })),
            { limit: 20 },
          )
        ).map((h) => h.path),
        chunks: unique(chunks.map((h) => h.path)),
        vector: unique(vector.map((h) => h.path)),
        vectorHashing: unique(await hashingSearch(question)),
        definitions: unique(definitions.map((d) => d.symbol?.path ?? "")),
      },
      signals: report.signals,
      ms: Math.round(ms),
    };
    process.stdout.write(`${JSON.stringify(row)}\n`);
  }
  await closeSearchServices();
  await closeDb();
}

if (require.main === module) {
  const input = process.argv[2];
  if (!input) throw new Error("usage: sweqa.ts <questions.json>");
  worker(input).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
