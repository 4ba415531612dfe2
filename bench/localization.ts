/**
 * The localization sections of the bench: given a real issue (bug report or feature
 * request) as the question, does retrieval rank the files, and the functions, the merged
 * fix changed? Two sets run the same way — SWE-bench Lite's Python dev set
 * (`--only localization`) and Multi-SWE-bench's dev set in C, C++, Go, Java, JavaScript
 * and Rust (`--only multilang`) — each against whole-file BM25 over the same trees in the
 * same run. Scored as LocAgent does: Acc@k = every gold file is within the top k; also
 * whether any gold file is in the top 5, and single-file and multi-file instances apart.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BENCH_WORK, benchChildEnv, corpusKey, openRepo, sweInstances, type InstanceSet } from "./corpus.ts";
import { baseQualifiedId } from "../lib/db/symbol-ids.ts";
import { tsScriptArgs } from "../lib/package-files.ts";

const ROOT = path.resolve(__dirname, "..");

export interface LocalizationRow {
  id: string;
  language: string;
  gold: string[];
  goldFunctions: string[];
  mode: string;
  classifiedAs: string;
  files: string[];
  symbols: string[];
  baseline: string[];
  signals: Record<string, string[]>;
  retrieveMs: number;
  passes: number;
}

type Pick = (r: LocalizationRow) => string[];

const files: Pick = (r) => r.files;
const baseline: Pick = (r) => r.baseline;
const goldFiles: Pick = (r) => r.gold;

function pct(hits: number, total: number): number {
  return Math.round((hits / Math.max(1, total)) * 1000) / 10;
}

/** Acc@k: the share of rows whose every gold item is within the first k picked. */
export function accuracy(rows: LocalizationRow[], pick: Pick, gold: Pick, k: number): number {
  return pct(rows.filter((r) => gold(r).every((g) => pick(r).slice(0, k).includes(g))).length, rows.length);
}

/** The share of rows with at least one gold item within the first k picked. */
export function anyHit(rows: LocalizationRow[], pick: Pick, gold: Pick, k: number): number {
  return pct(rows.filter((r) => gold(r).some((g) => pick(r).slice(0, k).includes(g))).length, rows.length);
}

/** File figures of one ranking (Wayfinder's or the baseline's) over some rows. */
export function fileFigures(rows: LocalizationRow[], pick: Pick) {
  const single = rows.filter((r) => r.gold.length === 1);
  const multi = rows.filter((r) => r.gold.length > 1);
  return {
    acc1: accuracy(rows, pick, goldFiles, 1),
    acc5: accuracy(rows, pick, goldFiles, 5),
    acc10: accuracy(rows, pick, goldFiles, 10),
    anyHit5: anyHit(rows, pick, goldFiles, 5),
    singleFileAcc5: accuracy(single, pick, goldFiles, 5),
    multiFileAcc5: accuracy(multi, pick, goldFiles, 5),
    multiFileAnyHit5: anyHit(multi, pick, goldFiles, 5),
  };
}

/**
 * A ranked symbol in the benchmark's notation too: SWE-bench names a function nested in
 * a method by its class and its own name (`Response.generate` for the `generate`
 * defined inside `Response.iter_content`), where the index keeps the whole nesting.
 */
export function benchFunctionNames(qualifiedId: string): string[] {
  const at = qualifiedId.lastIndexOf("::");
  const segments = qualifiedId.slice(at + 2).split(".");
  if (at < 0 || segments.length < 3) return [qualifiedId];
  return [qualifiedId, `${qualifiedId.slice(0, at + 2)}${segments[0]}.${segments[segments.length - 1]}`];
}

/** The ranked symbols, each under the name the benchmark gives it when that is a gold function. */
function functions(r: LocalizationRow): string[] {
  return r.symbols
    .map(baseQualifiedId)
    .map((s) => benchFunctionNames(s).find((n) => r.goldFunctions.includes(n)) ?? s);
}

/** Wayfinder and BM25 over the same rows, counts included; function figures where the data names functions. */
export function localizationSummary(rows: LocalizationRow[]) {
  const named = rows.filter((r) => r.goldFunctions.length > 0);
  const goldFunctions = (r: LocalizationRow) => r.goldFunctions;
  return {
    instances: rows.length,
    singleFile: rows.filter((r) => r.gold.length === 1).length,
    multiFile: rows.filter((r) => r.gold.length > 1).length,
    wayfinder: fileFigures(rows, files),
    bm25: fileFigures(rows, baseline),
    ...(named.length
      ? {
          functionInstances: named.length,
          functionAcc5: accuracy(named, functions, goldFunctions, 5),
          functionAcc10: accuracy(named, functions, goldFunctions, 10),
        }
      : {}),
    classifiedDiagnostic: rows.filter((r) => r.classifiedAs === "diagnostic").length,
    retrieveMsP50: [...rows.map((r) => r.retrieveMs)].sort((a, b) => a - b)[Math.floor(rows.length / 2)] ?? 0,
  };
}

/** Runs the worker (bench/localize.ts) once per repository of a set, with a fresh data directory each. */
function runSet(set: InstanceSet, log: (line: string) => void): LocalizationRow[] {
  const instances = sweInstances(set);
  const byRepo = new Map<string, typeof instances>();
  for (const inst of instances) {
    const key = corpusKey(inst.repo);
    byRepo.set(key, [...(byRepo.get(key) ?? []), inst]);
  }
  const rows: LocalizationRow[] = [];
  for (const [repo, list] of byRepo) {
    openRepo(repo, set); // cloned here, so a failure to get it is reported before the worker starts
    const home = fs.mkdtempSync(path.join(BENCH_WORK, `home-loc-${repo}-`));
    const file = path.join(home, "instances.json");
    fs.writeFileSync(file, JSON.stringify(list));
    const result = spawnSync(
      process.execPath,
      tsScriptArgs(path.join(ROOT, "bench/localize.ts"), [set, repo, file], ROOT),
      { cwd: ROOT, env: benchChildEnv(home), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
    );
    if (result.status !== 0) throw new Error(`localize ${repo} failed:\n${result.stderr}`);
    const repoRows = result.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as LocalizationRow);
    rows.push(...repoRows);
    for (const r of repoRows) log(`  ${rowLine(r)}`);
    fs.rmSync(home, { recursive: true, force: true });
  }
  return rows;
}

/** Where each gold file ranked, Wayfinder's then BM25's ("-": not in the top 10). */
function rowLine(r: LocalizationRow): string {
  const at = (ranked: string[]) => r.gold.map((g) => ranked.indexOf(g) + 1 || "-").join(",");
  const fn = r.goldFunctions.length
    ? `, functions at ${r.goldFunctions.map((g) => functions(r).indexOf(g) + 1 || "-").join(",")}`
    : "";
  return `${r.id}: gold at ${at(r.files)} (bm25 ${at(r.baseline)})${fn}, ${r.passes} passes, ${r.retrieveMs} ms`;
}

function figuresLine(label: string, s: ReturnType<typeof localizationSummary>): string {
  const w = s.wayfinder;
  const b = s.bm25;
  const fn =
    s.functionAcc5 !== undefined ? `; function Acc@5 ${s.functionAcc5}%, @10 ${s.functionAcc10}%` : "";
  return (
    `${label} (${s.instances}: ${s.singleFile} single-file, ${s.multiFile} multi-file): ` +
    `Acc@1 ${w.acc1}%, @5 ${w.acc5}%, @10 ${w.acc10}%, any@5 ${w.anyHit5}%, ` +
    `single @5 ${w.singleFileAcc5}%, multi @5 ${w.multiFileAcc5}% (any ${w.multiFileAnyHit5}%)${fn} | ` +
    `BM25 Acc@1 ${b.acc1}%, @5 ${b.acc5}%, @10 ${b.acc10}%, any@5 ${b.anyHit5}%, ` +
    `single @5 ${b.singleFileAcc5}%, multi @5 ${b.multiFileAcc5}%`
  );
}

/** `--only localization`: SWE-bench Lite's Python dev set. */
export function localizationSection(log: (line: string) => void): Record<string, unknown> {
  const rows = runSet("swe", log);
  const summary = localizationSummary(rows);
  log(figuresLine("localization", summary));
  log(`the classifier puts ${summary.classifiedDiagnostic}/${summary.instances} as diagnostic`);
  return { summary, rows };
}

/** `--only multilang`: the multi-language dev set, figures per language and over all. */
export function multilangSection(log: (line: string) => void): Record<string, unknown> {
  const rows = runSet("multi", log);
  const languages = [...new Set(rows.map((r) => r.language))].sort();
  const perLanguage = Object.fromEntries(
    languages.map((l) => [l, localizationSummary(rows.filter((r) => r.language === l))]),
  );
  const summary = localizationSummary(rows);
  for (const [language, s] of Object.entries(perLanguage)) log(figuresLine(`multilang ${language}`, s));
  log(figuresLine("multilang all", summary));
  return { summary, perLanguage, rows };
}
