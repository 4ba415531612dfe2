/**
 * Trains the mode classifier on the labeled questions in training/modes/data/*.jsonl and
 * writes lib/qa/classify-weights.json and training/modes/metrics.json.
 *
 *   npm run train:modes                 train on the `train` split, report the held-out `test` split
 *   npm run train:modes -- --cv         grouped cross-validation on the `train` split only
 *                                       (folds by repository), for choosing options
 *   npm run train:modes -- --cv --misses  the same with the default options, listing what it gets wrong
 *   npm run train:modes -- --no-write   report without writing the weights
 *   npm run train:modes -- --folds 10   as many folds (by repository) for the cross-validation
 *
 * The `test` split's repositories are held out: nothing is tuned on them, they are only
 * reported (the model alone, the offline classifier with its diagnostic and close-call
 * rules, the model it replaces, and the hand-written rules as a baseline).
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { QUERY_MODE_LIST, type QueryMode } from "../../lib/answerers/contract.ts";
import { classifyOffline, CLOSE_RATIO } from "../../lib/qa/classify.ts";
import { classifyByRules } from "../../lib/qa/classify-rules.ts";
import { questionFeatures } from "../../lib/qa/classify-features.ts";
import { decide, scoreFeatures } from "../../lib/qa/classify-model.ts";
import {
  chooseDecision,
  closeCallTable,
  confusionMatrix,
  type ConfusionMatrix,
  DEFAULT_TRAIN_OPTIONS,
  formatConfusion,
  modelMode,
  recallByMode,
  trainModeModel,
  type LabeledQuestion,
  type TrainOptions,
} from "../../lib/qa/classify-train.ts";
import type { ModeModel } from "../../lib/qa/classify-model.ts";

const ROOT = path.resolve(__dirname, "..", "..");
const DATA = path.join(__dirname, "data");
const WEIGHTS = path.join(ROOT, "lib", "qa", "classify-weights.json");
const METRICS = path.join(__dirname, "metrics.json");
const CLOSE_CALL_RATIOS = [0.2, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7];

interface Row extends LabeledQuestion {
  repo: string;
  language: string;
  style: string;
  split: "train" | "test";
}

/** Every labeled question, checked: a bad line is an error naming its file and line. */
export function loadRows(dir = DATA): Row[] {
  const rows: Row[] = [];
  const seen = new Set<string>();
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()) {
    const lines = fs.readFileSync(path.join(dir, file), "utf8").split("\n");
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      const where = `${file}:${i + 1}`;
      let row: Partial<Row>;
      try {
        row = JSON.parse(line) as Partial<Row>;
      } catch {
        throw new Error(`${where}: not JSON`);
      }
      if (typeof row.question !== "string" || !row.question.trim()) throw new Error(`${where}: no question`);
      if (!QUERY_MODE_LIST.includes(row.mode as QueryMode))
        throw new Error(`${where}: unknown mode ${row.mode}`);
      if (row.split !== "train" && row.split !== "test")
        throw new Error(`${where}: split must be train or test`);
      const key = row.question.trim().toLowerCase();
      if (seen.has(key)) return;
      seen.add(key);
      rows.push({
        question: row.question,
        mode: row.mode as QueryMode,
        repo: row.repo ?? file.replace(/\.jsonl$/, ""),
        language: row.language ?? "",
        style: row.style ?? "",
        split: row.split,
      });
    });
  }
  return rows;
}

function evaluate(rows: Row[], predict: (q: string) => QueryMode) {
  const pairs = rows.map((r) => ({ expected: r.mode, predicted: predict(r.question) }));
  const matrix = confusionMatrix(pairs);
  const misses = rows.flatMap((r, i) =>
    pairs[i]?.predicted === r.mode
      ? []
      : [`${r.mode} → ${pairs[i]?.predicted} [${r.repo}] ${r.question.replace(/\s+/g, " ").slice(0, 140)}`],
  );
  return { matrix, recall: recallByMode(matrix), misses };
}

function rounded(recall: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(recall).map(([k, v]) => [k, Math.round(v * 1000) / 10]));
}

/** Folds by repository: every question of a repository is in the same fold, as in the held-out split. */
function folds(rows: Row[], count = 5): Map<string, number> {
  const repos = [...new Set(rows.map((r) => r.repo))].sort();
  return new Map(repos.map((r, i) => [r, i % count]));
}

/**
 * Each training question's probabilities from a model that did not see its repository, and
 * the mode the offline classifier (that model with the rules over it) gives it.
 */
function crossPredictions(rows: Row[], options: TrainOptions, count = 5) {
  const foldOf = folds(rows, count);
  const out: { expected: QueryMode; p: number[]; offline: QueryMode }[] = [];
  for (let f = 0; f < count; f++) {
    const model = trainModeModel(
      rows.filter((r) => foldOf.get(r.repo) !== f),
      options,
    );
    for (const r of rows.filter((x) => foldOf.get(x.repo) === f))
      out.push({
        expected: r.mode,
        p: scoreFeatures(model, questionFeatures(r.question, model.options)),
        offline: classifyOffline(r.question, model).mode,
      });
  }
  return out;
}

/** How many conceptual questions went to exploratory and the other way round. */
function boundary(matrix: ConfusionMatrix): string {
  return `conceptual → exploratory ${matrix.conceptual.exploratory}, exploratory → conceptual ${matrix.exploratory.conceptual}`;
}

function crossValidate(rows: Row[], options: TrainOptions, folds = 5) {
  const misses: string[] = [];
  const repos = [...new Set(rows.map((r) => r.repo))].sort();
  const foldOf = new Map(repos.map((r, i) => [r, i % folds]));
  const pairs: { expected: QueryMode; predicted: QueryMode }[] = [];
  const guarded: { expected: QueryMode; predicted: QueryMode }[] = [];
  for (let f = 0; f < folds; f++) {
    const train = rows.filter((r) => foldOf.get(r.repo) !== f);
    const test = rows.filter((r) => foldOf.get(r.repo) === f);
    if (test.length === 0) continue;
    const model = trainModeModel(train, options);
    for (const r of test) {
      pairs.push({ expected: r.mode, predicted: modelMode(model, r.question) });
      const offline = classifyOffline(r.question, model).mode;
      guarded.push({ expected: r.mode, predicted: offline });
      if (offline !== r.mode)
        misses.push(`${r.mode} → ${offline} [${r.repo}] ${r.question.replace(/\s+/g, " ").slice(0, 160)}`);
    }
  }
  return {
    model: recallByMode(confusionMatrix(pairs)),
    offline: recallByMode(confusionMatrix(guarded)),
    matrix: confusionMatrix(guarded),
    misses,
  };
}

/** The weights in the repository before this run, or null when there are none yet. */
function shippedOrNull(): ModeModel | null {
  try {
    return JSON.parse(fs.readFileSync(WEIGHTS, "utf8")) as ModeModel;
  } catch {
    return null;
  }
}

/** The model as JSON with one feature a line, so a retrained model's diff shows what moved. */
function serialize(model: ModeModel): string {
  const { weights, ...rest } = model;
  const head = Object.entries(rest).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  const features = Object.entries(weights).map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  return `{\n${head.join(",\n")},\n  "weights": {\n${features.join(",\n")}\n  }\n}\n`;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      cv: { type: "boolean" },
      misses: { type: "boolean" },
      "no-write": { type: "boolean" },
      data: { type: "string" },
      folds: { type: "string" },
    },
  });
  const rows = loadRows(values.data ?? DATA);
  const train = rows.filter((r) => r.split === "train");
  const test = rows.filter((r) => r.split === "test");
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say(
    `${rows.length} questions over ${new Set(rows.map((r) => r.repo)).size} repositories and ` +
      `${new Set(rows.map((r) => r.language)).size} languages; train ${train.length}, held-out test ${test.length} ` +
      `(${new Set(test.map((r) => r.repo)).size} repositories)`,
  );
  const foldCount = Number(values.folds ?? 5);
  if (values.cv) {
    const f = DEFAULT_TRAIN_OPTIONS.features;
    const grid: Partial<TrainOptions>[] = [
      {},
      { features: { ...f, calls: false } },
      { features: { ...f, charWeight: 0 } },
      { features: { ...f, charWeight: 0.1 } },
      { l2: 0.02 },
      { l2: 0.05 },
      { iterations: 150 },
    ];
    if (values.misses) {
      const cv = crossValidate(train, DEFAULT_TRAIN_OPTIONS, foldCount);
      say(`${formatConfusion(cv.matrix)}\n\ncross-validation misses (train split):\n${cv.misses.join("\n")}`);
      return;
    }
    for (const change of grid) {
      const options = { ...DEFAULT_TRAIN_OPTIONS, ...change };
      const cv = crossValidate(train, options, foldCount);
      say(
        `cv ${JSON.stringify(change)}: model ${JSON.stringify(rounded(cv.model))}; offline ${JSON.stringify(rounded(cv.offline))}; ${boundary(cv.matrix)}`,
      );
    }
    return;
  }
  // The model being replaced, measured on the same held-out split, so a retrain shows what it changed.
  const replaced = shippedOrNull();
  const before = replaced ? evaluate(test, (q) => classifyOffline(q, replaced).mode) : null;
  const held = crossPredictions(train, DEFAULT_TRAIN_OPTIONS, foldCount);
  const model: ModeModel = {
    ...trainModeModel(train, DEFAULT_TRAIN_OPTIONS),
    decision: chooseDecision([...QUERY_MODE_LIST], held),
  };
  say(`decision factors (cross-validated on the training split): ${JSON.stringify(model.decision)}`);
  // Grouped cross-validation (folds by repository): how the classifier does on repositories it
  // did not see, measured where tuning is allowed.
  const crossModel = confusionMatrix(
    held.map((x) => {
      const p = decide(model, x.p);
      return { expected: x.expected, predicted: model.modes[p.indexOf(Math.max(...p))] as QueryMode };
    }),
  );
  const crossOffline = confusionMatrix(held.map((x) => ({ expected: x.expected, predicted: x.offline })));
  say(
    `\ngrouped cross-validation on the training split (${foldCount} folds by repository), offline classifier:\n${formatConfusion(crossOffline)}\n${boundary(crossOffline)}`,
  );
  say(`model alone: ${boundary(crossModel)}, accuracy ${(recallByMode(crossModel).all * 100).toFixed(1)}%`);
  // The close-call threshold (CLOSE_RATIO) checked where tuning is allowed: on the training
  // split's cross-validated predictions, never on the held-out split.
  const closeCalls = closeCallTable([...QUERY_MODE_LIST], held, model.decision ?? [], CLOSE_CALL_RATIOS);
  say(
    `close calls (cross-validated, training split; in use ${CLOSE_RATIO}):\n${closeCalls
      .map(
        (r) =>
          `  ratio ${r.ratio}: retrieved for two modes ${r.fused} of ${held.length}, wrong top modes covered ${r.rescued} of ${r.wrong}`,
      )
      .join("\n")}`,
  );
  const alone = evaluate(test, (q) => modelMode(model, q));
  const offline = evaluate(test, (q) => classifyOffline(q, model).mode);
  const rules = evaluate(test, (q) => classifyByRules(q).mode);
  const trainFit = evaluate(train, (q) => classifyOffline(q, model).mode);
  const secondary = test.filter((r) => classifyOffline(r.question, model).secondaryMode !== null).length;
  say(
    `\nheld-out test split, offline classifier (model + diagnostic rule):\n${formatConfusion(offline.matrix)}`,
  );
  if (before)
    say(`\nheld-out test split, the model this one replaces (before):\n${formatConfusion(before.matrix)}`);
  say(`\nheld-out test split, model alone:\n${formatConfusion(alone.matrix)}`);
  say(`\nheld-out test split, hand-written rules (baseline):\n${formatConfusion(rules.matrix)}`);
  say(`\ntrain split (fit): accuracy ${(trainFit.recall.all * 100).toFixed(1)}%`);
  say(`held-out questions retrieved for two modes: ${secondary} of ${test.length}`);
  if (values["no-write"]) return;
  fs.writeFileSync(WEIGHTS, serialize(model));
  const metrics = {
    questions: rows.length,
    train: train.length,
    test: test.length,
    testRepositories: [...new Set(test.map((r) => r.repo))].sort(),
    options: DEFAULT_TRAIN_OPTIONS,
    heldOut: {
      offline: { confusion: offline.matrix, recall: rounded(offline.recall) },
      model: { confusion: alone.matrix, recall: rounded(alone.recall) },
      rules: { confusion: rules.matrix, recall: rounded(rules.recall) },
      replaced: before ? { confusion: before.matrix, recall: rounded(before.recall) } : null,
      retrievedForTwoModes: secondary,
    },
    crossValidated: {
      folds: foldCount,
      offline: { confusion: crossOffline, recall: rounded(recallByMode(crossOffline)) },
      model: { confusion: crossModel, recall: rounded(recallByMode(crossModel)) },
    },
    trainFit: rounded(trainFit.recall),
    closeCalls: { inUse: CLOSE_RATIO, crossValidated: closeCalls },
  };
  fs.writeFileSync(METRICS, `${JSON.stringify(metrics, null, 2)}\n`);
  say(
    `\nwrote ${path.relative(ROOT, WEIGHTS)} (${Object.keys(model.weights).length} features) and ${path.relative(ROOT, METRICS)}`,
  );
}

if (require.main === module) main();
