/**
 * Answer latency per mode on an indexed repository: full offline answers (all
 * passes, session and metrics stored) through askQuestion, timing the whole answer
 * and the first streamed part. Prints one JSON object.
 */
import { closeDb } from "../lib/db/client.ts";
import { askQuestion } from "../lib/qa/ask.ts";
import type { QueryMode } from "../lib/qa/types.ts";
import { closeSearchServices } from "../lib/search/runtime.ts";

const QUESTIONS: Record<QueryMode, string[]> = {
  diagnostic: [
    "Why do I get ValueError: dimensions must be unique when concatenating datasets?",
    "KeyError raised in groupby when the group variable is missing, why?",
    "TypeError: unsupported operand type when adding a Dataset and a DataArray",
    "Why does to_netcdf fail with an invalid encoding error?",
  ],
  exploratory: [
    "Trace what happens when concat is called on a list of datasets",
    "Walk through how open_dataset reads a file and builds a Dataset",
    "How does DataArray.sel call into the indexing code?",
    "Follow the flow from Dataset.groupby to the reduction",
  ],
  analytical: [
    "What are the architectural problems in xarray/core?",
    "Which modules are most coupled and where are the import cycles?",
    "Assess the code quality of the backends package",
    "What are the hotspots with the highest fan-in?",
  ],
  conceptual: [
    "What does the Dataset class do?",
    "How do I use rolling windows?",
    "Explain what coordinates are in xarray",
    "What is the purpose of the backends module?",
  ],
};

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? 0;
}

async function main(): Promise<void> {
  const repository = process.argv[2];
  if (!repository) throw new Error("usage: latency.ts <repository>");
  const rounds = Number(process.argv[3] ?? 3);
  const out: Record<
    string,
    { p50: number; p95: number; firstPartP50: number; firstPartP95: number; passes: number }
  > = {};
  // One warm-up question so module loading and the tokenizer are not counted.
  await askQuestion(
    { repository, question: "What does this repository do?" },
    { write: () => undefined },
    { model: null },
  );
  for (const [mode, questions] of Object.entries(QUESTIONS) as [QueryMode, string[]][]) {
    const totals: number[] = [];
    const firsts: number[] = [];
    let passes = 0;
    for (let r = 0; r < rounds; r++) {
      for (const question of questions) {
        const t0 = performance.now();
        let first = -1;
        const result = await askQuestion(
          { repository, question, overrides: { mode } },
          { write: () => void (first < 0 && (first = performance.now() - t0)) },
          { model: null },
        );
        totals.push(performance.now() - t0);
        firsts.push(first);
        passes += result.metadata.passesUsed;
      }
    }
    out[mode] = {
      p50: Math.round(percentile(totals, 50)),
      p95: Math.round(percentile(totals, 95)),
      firstPartP50: Math.round(percentile(firsts, 50)),
      firstPartP95: Math.round(percentile(firsts, 95)),
      passes: Math.round((passes / totals.length) * 10) / 10,
    };
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
  await closeSearchServices();
  await closeDb();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
