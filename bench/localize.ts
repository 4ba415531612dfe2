/**
 * Localization worker for one corpus repository of a localization set (SWE-bench Lite's
 * Python dev set, or the multi-language dev set): for each instance, check out its base
 * tree, re-index (incrementally after the first), run `retrieve` (the CGRAG loop with the
 * evidence engine) on the problem statement, and rank whole files with BM25 as the
 * baseline. Prints one JSON line per instance.
 * Run by bench/run.ts with WAYFINDER_HOME pointing at a fresh data directory.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { closeDb } from "../lib/db/client.ts";
import { ensureMigrated } from "../lib/db/migrate.ts";
import { indexRepository } from "../lib/builds/build.ts";
import { languageForPath } from "../lib/indexer/parser.ts";
import { classifyOffline } from "../lib/qa/classify.ts";
import { retrieveReport } from "../lib/qa/retrieve.ts";
import { closeSearchServices } from "../lib/search/runtime.ts";
import { WholeFileBm25 } from "./bm25.ts";
import { openRepo, type InstanceSet, type SweInstance } from "./corpus.ts";

/**
 * The files the baseline ranks: Python sources for SWE-bench (as it always has), every
 * file in a language Wayfinder parses for the multi-language set (a fix may touch a
 * header, a type declaration file or a source).
 */
function baselineFiles(checkout: string, set: InstanceSet): string[] {
  const listed = execFileSync("git", ["-C", checkout, "ls-files", "-z"], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  })
    .split("\0")
    .filter(Boolean);
  return listed.filter((p) => (set === "swe" ? p.endsWith(".py") : languageForPath(p) !== null));
}

async function main(): Promise<void> {
  const [set, repo, instancesFile] = process.argv.slice(2) as [InstanceSet, string, string];
  if (!["swe", "multi"].includes(set) || !repo || !instancesFile) {
    throw new Error("usage: localize.ts <swe|multi> <corpus repository> <instances.json>");
  }
  const instances = JSON.parse(fs.readFileSync(instancesFile, "utf8")) as SweInstance[];
  const corpus = openRepo(repo, set);
  const checkout = corpus.dir;
  await ensureMigrated();
  for (const inst of instances) {
    corpus.checkout(inst.instance_id);
    const t0 = performance.now();
    const { repository, stats } = await indexRepository(checkout, { name: "bench" });
    const indexSeconds = (performance.now() - t0) / 1000;
    // The bench README calls these DIAGNOSTIC questions; the classifier's own verdict is recorded too.
    const report = await retrieveReport(repository.id, inst.problem_statement, { mode: "diagnostic" });
    const classifiedAs = classifyOffline(inst.problem_statement).mode;
    const bm25 = new WholeFileBm25(
      baselineFiles(checkout, set).flatMap((p) => {
        const file = `${checkout}/${p}`;
        return fs.statSync(file, { throwIfNoEntry: false })?.isFile()
          ? [{ path: p, content: fs.readFileSync(file, "utf8") }]
          : [];
      }),
    );
    const baseline = bm25.rank(inst.problem_statement, 10);
    process.stdout.write(
      `${JSON.stringify({
        id: inst.instance_id,
        language: inst.language ?? "Python",
        gold: inst.gold_files,
        goldFunctions: (inst.edit_functions ?? []).map((f) => f.replace(/:(?!.*:)/, "::")),
        mode: report.mode,
        classifiedAs,
        files: report.files.slice(0, 10),
        symbols: report.symbols.slice(0, 10),
        passes: report.passes.length,
        signals: report.signals,
        baseline,
        retrieveMs: report.timings.totalMs,
        indexSeconds,
        parsedFiles: stats.parsedFiles,
      })}\n`,
    );
  }
  await closeSearchServices();
  await closeDb();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
