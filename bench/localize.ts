/**
 * Localization worker for one corpus repository of the SWE-bench Lite dev set: for each
 * instance, check out its base tree, re-index (incrementally after the first),
 * run `retrieve` (the CGRAG loop with the evidence engine) on the problem statement,
 * and rank whole files with BM25 as the baseline. Prints one JSON line per instance.
 * Run by bench/run.ts with WAYFINDER_HOME pointing at a fresh data directory.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { closeDb } from "../lib/db/client.ts";
import { ensureMigrated } from "../lib/db/migrate.ts";
import { indexRepository } from "../lib/indexer/build.ts";
import { classifyByRules } from "../lib/qa/classify-rules.ts";
import { retrieveReport } from "../lib/qa/retrieve.ts";
import { closeSearchServices } from "../lib/search/runtime.ts";
import { WholeFileBm25 } from "./bm25.ts";
import { openRepo, type SweInstance } from "./corpus.ts";

async function main(): Promise<void> {
  const [repo, instancesFile] = process.argv.slice(2);
  if (!repo || !instancesFile) throw new Error("usage: localize.ts <corpus repository> <instances.json>");
  const instances = JSON.parse(fs.readFileSync(instancesFile, "utf8")) as SweInstance[];
  const corpus = openRepo(repo);
  const checkout = corpus.dir;
  await ensureMigrated();
  for (const inst of instances) {
    corpus.checkout(inst.instance_id);
    const t0 = performance.now();
    const { repository, stats } = await indexRepository(checkout, { name: "bench" });
    const indexSeconds = (performance.now() - t0) / 1000;
    // The bench README calls these DIAGNOSTIC questions; the rules' own verdict is recorded too.
    const report = await retrieveReport(repository.id, inst.problem_statement, { mode: "diagnostic" });
    const classifiedAs = classifyByRules(inst.problem_statement).mode;
    const pyFiles = execFileSync("git", ["-C", checkout, "ls-files", "-z", "*.py"], { encoding: "utf8" })
      .split("\0")
      .filter(Boolean);
    const bm25 = new WholeFileBm25(
      pyFiles.map((p) => ({ path: p, content: fs.readFileSync(`${checkout}/${p}`, "utf8") })),
    );
    const baseline = bm25.rank(inst.problem_statement, 10);
    process.stdout.write(
      `${JSON.stringify({
        id: inst.instance_id,
        gold: inst.gold_files,
        goldFunctions: inst.edit_functions.map((f) => f.replace(/:(?!.*:)/, "::")),
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
