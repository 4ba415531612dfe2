/**
 * `npm run bench`: indexing speed and memory, incremental re-index, answer latency
 * per mode, localization accuracy on the SWE-bench Lite dev set and on the
 * multi-language dev set against a whole-file BM25 baseline computed in the same run,
 * the question benchmark and a large corpus. Not part of the tests.
 *
 *   npm run bench                                  everything
 *   npm run bench -- --only index                  one section (index | latency | localization | multilang | questions | sweqa | large | robustness)
 *   npm run bench -- --corpus ~/wayfinder-bundles  repositories from git bundles (offline)
 *   npm run bench -- --only large --large-tags 1   the large bench on one revision per repository
 *
 * The bench's data (instances, corpus manifest) is in bench/data; repositories come from
 * bundles in the --corpus folders or are cloned from their upstream URLs (bench/corpus.ts).
 * Results are printed and written to bench/results/latest.json.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { BENCH_WORK, benchChildEnv, openRepo, setCorpusFolders } from "./corpus.ts";
import { largeSection } from "./large.ts";
import { localizationSection, multilangSection } from "./localization.ts";
import { questionsSection } from "./questions.ts";
import { robustnessSection } from "./robustness.ts";
import { sweqaSection } from "./sweqa.ts";
import { tsScriptArgs } from "../lib/package-files.ts";

const ROOT = path.resolve(__dirname, "..");
const WORK = BENCH_WORK;
const RESULTS = path.join(ROOT, "bench", "results");

interface IndexStats {
  seconds: number;
  files: number;
  lines: number;
  symbols: number;
  edges: number;
  parsedFiles: number;
  peakRssMb: number;
  phaseSeconds: Record<string, number>;
  /** wiki pages and the issues store (0 for builds before the wiki existed) */
  wikiSeconds?: number;
  wikiPages?: number;
  wikiPagesGenerated?: number;
  wikiPagesReused?: number;
  findings?: number;
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

function cli(home: string, args: string[]): unknown {
  const result = spawnSync(process.execPath, tsScriptArgs(path.join(ROOT, "lib/cli/main.ts"), args, ROOT), {
    cwd: ROOT,
    env: benchChildEnv(home),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`wayfinder ${args.join(" ")} failed:\n${result.stderr}`);
  return JSON.parse(result.stdout);
}

function dbSizeMb(home: string): number {
  let bytes = 0;
  for (const f of fs.readdirSync(home)) {
    if (f.startsWith("wayfinder.db")) bytes += fs.statSync(path.join(home, f)).size;
  }
  return Math.round((bytes / 1024 / 1024) * 10) / 10;
}

function indexSection(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const repo of ["pydata__xarray", "pytest-dev__pytest", "pylint-dev__pylint"]) {
    const corpus = openRepo(repo);
    const { dir } = corpus;
    const [first, second] = corpus.revisions;
    if (!first || !second) continue;
    corpus.checkout(first);
    const home = fs.mkdtempSync(path.join(WORK, `home-${repo}-`));
    const cold = (cli(home, ["index", dir, "--json"]) as { stats: IndexStats }).stats;
    // One changed file: append a comment to a mid-sized source file.
    const target = execFileSync("git", ["-C", dir, "ls-files", "*.py"], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)[5] as string;
    fs.appendFileSync(path.join(dir, target), "\n# wayfinder bench touch\n");
    const oneFile = (cli(home, ["index", dir, "--json"]) as { stats: IndexStats }).stats;
    corpus.checkout(second);
    const nextTag = (cli(home, ["index", dir, "--json"]) as { stats: IndexStats }).stats;
    const row = {
      files: cold.files,
      lines: cold.lines,
      symbols: cold.symbols,
      edges: cold.edges,
      coldSeconds: cold.seconds,
      filesPerSecond: Math.round(cold.files / cold.seconds),
      linesPerSecond: Math.round(cold.lines / cold.seconds),
      phaseSeconds: cold.phaseSeconds,
      oneFileReindexSeconds: oneFile.seconds,
      wikiSeconds: cold.wikiSeconds ?? 0,
      wikiPages: cold.wikiPages ?? 0,
      findings: cold.findings ?? 0,
      oneFileWikiSeconds: oneFile.wikiSeconds ?? 0,
      oneFileWikiPagesGenerated: oneFile.wikiPagesGenerated ?? 0,
      nextTagReindexSeconds: nextTag.seconds,
      nextTagParsedFiles: nextTag.parsedFiles,
      tags: `${first} → ${second}`,
      peakRssMb: Math.max(cold.peakRssMb, oneFile.peakRssMb, nextTag.peakRssMb),
      dbSizeMb: dbSizeMb(home),
    };
    out[repo] = row;
    log(
      `index ${repo}: ${row.files} files, ${row.lines} lines, cold ${row.coldSeconds}s (${row.filesPerSecond} files/s, ${row.linesPerSecond} lines/s), ` +
        `1-file re-index ${row.oneFileReindexSeconds}s, ${row.tags} re-index ${row.nextTagReindexSeconds}s (${row.nextTagParsedFiles} parsed), ` +
        `peak RSS ${row.peakRssMb} MB, db ${row.dbSizeMb} MB`,
    );
    log(
      `wiki ${repo}: ${row.wikiPages} pages and ${row.findings} findings in ${row.wikiSeconds}s cold; ` +
        `1-file re-index regenerated ${row.oneFileWikiPagesGenerated} pages in ${row.oneFileWikiSeconds}s`,
    );
    fs.rmSync(home, { recursive: true, force: true });
  }
  return out;
}

function latencySection(): Record<string, unknown> {
  const corpus = openRepo("pydata__xarray");
  const { dir } = corpus;
  corpus.checkout(corpus.revisions[0] as string);
  const home = fs.mkdtempSync(path.join(WORK, "home-latency-"));
  cli(home, ["index", dir, "--name", "xarray", "--json"]);
  const result = spawnSync(
    process.execPath,
    tsScriptArgs(path.join(ROOT, "bench/latency.ts"), ["xarray", "3"], ROOT),
    {
      cwd: ROOT,
      env: benchChildEnv(home),
      encoding: "utf8",
    },
  );
  if (result.status !== 0) throw new Error(`latency failed:\n${result.stderr}`);
  const out = JSON.parse(result.stdout) as Record<
    string,
    { p50: number; p95: number; firstPartP50: number; firstPartP95: number; passes: number }
  >;
  for (const [mode, r] of Object.entries(out)) {
    log(
      `latency ${mode}: answer p50 ${r.p50} ms, p95 ${r.p95} ms; first part p50 ${r.firstPartP50} ms, p95 ${r.firstPartP95} ms; ${r.passes} passes on average`,
    );
  }
  fs.rmSync(home, { recursive: true, force: true });
  return out;
}

const SECTIONS = [
  "index",
  "latency",
  "localization",
  "multilang",
  "questions",
  "sweqa",
  "large",
  "robustness",
] as const;
const USAGE = `usage: npm run bench -- [--only ${SECTIONS.join("|")}] [--corpus DIR]... [--large-tags N]`;

/** A clear one-line error and the usage, instead of a stack trace, for a mistyped command. */
function usageError(message: string): never {
  process.stderr.write(`bench: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function options() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        only: { type: "string" },
        corpus: { type: "string", multiple: true },
        "large-tags": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    usageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (values.only && !(SECTIONS as readonly string[]).includes(values.only)) {
    usageError(`unknown section '${values.only}'`);
  }
  const largeTags = values["large-tags"];
  if (largeTags !== undefined && !/^[1-9]\d*$/.test(largeTags)) {
    usageError(`--large-tags takes a positive whole number, not '${largeTags}'`);
  }
  return { ...values, largeTags: largeTags === undefined ? undefined : Number(largeTags) };
}

function main(): void {
  const values = options();
  if (values.corpus) setCorpusFolders(values.corpus);
  fs.mkdirSync(WORK, { recursive: true });
  fs.mkdirSync(RESULTS, { recursive: true });
  const sections: Record<(typeof SECTIONS)[number], () => Record<string, unknown>> = {
    index: indexSection,
    latency: latencySection,
    localization: () => localizationSection(log),
    multilang: () => multilangSection(log),
    questions: () => questionsSection(log),
    sweqa: () => sweqaSection(log),
    large: () => largeSection(values.largeTags),
    robustness: () => robustnessSection(values.corpus ?? [], log),
  };
  const chosen = values.only ? [values.only as (typeof SECTIONS)[number]] : SECTIONS;
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
  };
  for (const name of chosen) {
    log(`== ${name}`);
    results[name] = sections[name]();
  }
  fs.writeFileSync(path.join(RESULTS, "latest.json"), JSON.stringify(results, null, 2));
  log(`results written to ${path.relative(ROOT, path.join(RESULTS, "latest.json"))}`);
}

main();
