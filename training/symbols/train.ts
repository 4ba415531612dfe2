/**
 * Trains the learned symbol ranker on the dump in training/symbols/data/*.jsonl (the
 * question bench's dev split, see dump.ts) and writes lib/qa/retrievers/symbol-ranker-weights.json
 * and training/symbols/metrics.json.
 *
 *   npm run train:symbols                 leave-one-repository-out figures, then train on all and write
 *   npm run train:symbols -- --no-write   the figures only
 *
 * The figures are each repository's dev questions ranked by a model trained on the other
 * repositories, beside the retrievers' current order: hit@5 (every expected symbol in the
 * first five), each symbol@5 and hit@1, per expected mode. Only the first candidates the
 * dump recorded can move, so an expected symbol beyond them counts as missed in both.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  crossValidate,
  DEFAULT_RANKER_OPTIONS,
  trainRanker,
  type RankingExample,
} from "../../lib/qa/retrievers/symbol-ranker-train.ts";
import { FEATURE_NAMES } from "../../lib/qa/retrievers/symbol-features.ts";

const ROOT = path.resolve(__dirname, "..", "..");
const DATA = path.join(__dirname, "data");
const WEIGHTS = path.join(ROOT, "lib", "qa", "retrievers", "symbol-ranker-weights.json");
const METRICS = path.join(__dirname, "metrics.json");

/** Every dumped question, checked: a line with the wrong feature width is an error naming its file. */
export function loadExamples(dir = DATA): RankingExample[] {
  const out: RankingExample[] = [];
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()) {
    for (const line of fs.readFileSync(path.join(dir, file), "utf8").split("\n")) {
      if (!line.trim()) continue;
      const e = JSON.parse(line) as RankingExample;
      if (e.candidates.some((c) => c.features.length !== FEATURE_NAMES.length))
        throw new Error(`${file}: ${e.id} has features of another width (dump again: npm run dump:symbols)`);
      out.push(e);
    }
  }
  return out;
}

function main(): void {
  const { values } = parseArgs({ options: { "no-write": { type: "boolean" } } });
  const examples = loadExamples();
  const cv = crossValidate(examples);
  for (const [mode, f] of Object.entries(cv)) {
    console.log(
      `${mode.padEnd(12)} (${f.current.questions}): hit@5 ${f.current.hit5}% -> ${f.model.hit5}%, ` +
        `each symbol@5 ${f.current.each5}% -> ${f.model.each5}%, hit@1 ${f.current.hit1}% -> ${f.model.hit1}%`,
    );
  }
  if (values["no-write"]) return;
  const model = trainRanker(examples);
  fs.writeFileSync(WEIGHTS, `${JSON.stringify(model, null, 2)}\n`);
  fs.writeFileSync(
    METRICS,
    `${JSON.stringify({ options: DEFAULT_RANKER_OPTIONS, leaveOneRepositoryOut: cv }, null, 2)}\n`,
  );
  console.log(`wrote ${path.relative(ROOT, WEIGHTS)} and ${path.relative(ROOT, METRICS)}`);
}

if (require.main === module) main();
