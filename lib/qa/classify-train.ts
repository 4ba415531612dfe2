/**
 * Training and evaluating the mode classifier (used by training/modes/train.ts and its
 * tests). Multinomial logistic regression with L2 regularisation, fitted full-batch with
 * Adam from zero weights: no sampling, so the same examples and options always give the
 * same weights, bit for bit. Each mode weighs the same in the loss whatever its share of
 * the examples, since the targets are per mode. Features seen in fewer than `minDf`
 * training questions are left out (a name from one repository teaches nothing), and
 * weights too small to matter are pruned from what is shipped.
 */
import { QUERY_MODE_LIST, type QueryMode } from "../answerers/contract.ts";
import { questionFeatures, DEFAULT_FEATURE_OPTIONS, type FeatureOptions } from "./classify-features.ts";
import { decide, scoreFeatures, type ModeModel } from "./classify-model.ts";

export interface LabeledQuestion {
  question: string;
  mode: QueryMode;
  repo?: string;
}

export interface TrainOptions {
  features: FeatureOptions;
  /** L2 penalty on the weights (not the biases) */
  l2: number;
  iterations: number;
  learningRate: number;
  minDf: number;
  /** weights whose every component is smaller than this are not shipped */
  prune: number;
}

export const DEFAULT_TRAIN_OPTIONS: TrainOptions = {
  features: DEFAULT_FEATURE_OPTIONS,
  l2: 0.002,
  iterations: 300,
  learningRate: 0.05,
  minDf: 2,
  prune: 0.01,
};

interface Row {
  index: Int32Array;
  value: Float64Array;
  label: number;
  weight: number;
}

export function trainModeModel(
  examples: LabeledQuestion[],
  options: TrainOptions = DEFAULT_TRAIN_OPTIONS,
): ModeModel {
  const modes = [...QUERY_MODE_LIST];
  const K = modes.length;
  const featureSets = examples.map((e) => questionFeatures(e.question, options.features));
  // Vocabulary in sorted order, so feature indices never depend on the examples' order.
  const df = new Map<string, number>();
  for (const f of featureSets) for (const name of f.keys()) df.set(name, (df.get(name) ?? 0) + 1);
  const vocabulary = [...df.keys()]
    .filter((name) => (df.get(name) ?? 0) >= options.minDf || /^[rxq]:/.test(name))
    .sort();
  const indexOf = new Map(vocabulary.map((name, i) => [name, i]));
  const counts = modes.map((m) => examples.filter((e) => e.mode === m).length);
  const rows: Row[] = examples.map((e, i) => {
    const entries = [...(featureSets[i] as Map<string, number>)].filter(([name]) => indexOf.has(name));
    const label = modes.indexOf(e.mode);
    return {
      index: Int32Array.from(entries.map(([name]) => indexOf.get(name) as number)),
      value: Float64Array.from(entries.map(([, v]) => v)),
      label,
      weight: examples.length / (K * Math.max(1, counts[label] ?? 1)),
    };
  });
  const totalWeight = rows.reduce((n, r) => n + r.weight, 0) || 1;
  const F = vocabulary.length;
  const W = new Float64Array(F * K);
  const b = new Float64Array(K);
  const adam = {
    mW: new Float64Array(F * K),
    vW: new Float64Array(F * K),
    mb: new Float64Array(K),
    vb: new Float64Array(K),
  };
  const gW = new Float64Array(F * K);
  const gb = new Float64Array(K);
  const logits = new Float64Array(K);
  const [beta1, beta2, eps] = [0.9, 0.999, 1e-8];
  for (let t = 1; t <= options.iterations; t++) {
    gW.fill(0);
    gb.fill(0);
    for (const row of rows) {
      for (let k = 0; k < K; k++) logits[k] = b[k] as number;
      for (let j = 0; j < row.index.length; j++) {
        const base = (row.index[j] as number) * K;
        const v = row.value[j] as number;
        for (let k = 0; k < K; k++) logits[k] = (logits[k] as number) + (W[base + k] as number) * v;
      }
      let max = -Infinity;
      for (let k = 0; k < K; k++) max = Math.max(max, logits[k] as number);
      let sum = 0;
      for (let k = 0; k < K; k++) {
        logits[k] = Math.exp((logits[k] as number) - max);
        sum += logits[k] as number;
      }
      const scale = row.weight / totalWeight;
      for (let k = 0; k < K; k++) {
        const d = ((logits[k] as number) / sum - (k === row.label ? 1 : 0)) * scale;
        gb[k] = (gb[k] as number) + d;
        for (let j = 0; j < row.index.length; j++) {
          const at = (row.index[j] as number) * K + k;
          gW[at] = (gW[at] as number) + d * (row.value[j] as number);
        }
      }
    }
    const c1 = 1 - beta1 ** t;
    const c2 = 1 - beta2 ** t;
    for (let i = 0; i < W.length; i++) {
      const g = (gW[i] as number) + options.l2 * (W[i] as number);
      adam.mW[i] = beta1 * (adam.mW[i] as number) + (1 - beta1) * g;
      adam.vW[i] = beta2 * (adam.vW[i] as number) + (1 - beta2) * g * g;
      W[i] =
        (W[i] as number) -
        (options.learningRate * ((adam.mW[i] as number) / c1)) /
          (Math.sqrt((adam.vW[i] as number) / c2) + eps);
    }
    for (let k = 0; k < K; k++) {
      const g = gb[k] as number;
      adam.mb[k] = beta1 * (adam.mb[k] as number) + (1 - beta1) * g;
      adam.vb[k] = beta2 * (adam.vb[k] as number) + (1 - beta2) * g * g;
      b[k] =
        (b[k] as number) -
        (options.learningRate * ((adam.mb[k] as number) / c1)) /
          (Math.sqrt((adam.vb[k] as number) / c2) + eps);
    }
  }
  const weights: Record<string, number[]> = {};
  vocabulary.forEach((name, i) => {
    const w = Array.from(W.subarray(i * K, i * K + K));
    if (w.some((x) => Math.abs(x) >= options.prune)) weights[name] = w.map(round4);
  });
  return {
    version: 1,
    modes,
    options: options.features,
    bias: Array.from(b).map(round4),
    weights,
    trained: {
      questions: examples.length,
      perMode: Object.fromEntries(modes.map((m, k) => [m, counts[k]])),
      repositories: new Set(examples.map((e) => e.repo ?? "")).size,
      vocabulary: F,
      shippedFeatures: Object.keys(weights).length,
      l2: options.l2,
      iterations: options.iterations,
      learningRate: options.learningRate,
      minDf: options.minDf,
    },
  };
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

/** Rows: the expected mode; columns: the predicted one. */
export type ConfusionMatrix = Record<QueryMode, Record<QueryMode, number>>;

export function confusionMatrix(pairs: { expected: QueryMode; predicted: QueryMode }[]): ConfusionMatrix {
  const empty = () => Object.fromEntries(QUERY_MODE_LIST.map((m) => [m, 0])) as Record<QueryMode, number>;
  const matrix = Object.fromEntries(QUERY_MODE_LIST.map((m) => [m, empty()])) as ConfusionMatrix;
  for (const { expected, predicted } of pairs) matrix[expected][predicted]++;
  return matrix;
}

/** Per mode, the share of its questions predicted right (recall), and overall accuracy. */
export function recallByMode(matrix: ConfusionMatrix): Record<QueryMode | "all", number> {
  let right = 0;
  let total = 0;
  const out = {} as Record<QueryMode | "all", number>;
  for (const m of QUERY_MODE_LIST) {
    const row = matrix[m];
    const n = QUERY_MODE_LIST.reduce((s, p) => s + row[p], 0);
    out[m] = n ? row[m] / n : 0;
    right += row[m];
    total += n;
  }
  out.all = total ? right / total : 0;
  return out;
}

/** The matrix as an aligned text table (for reports). */
export function formatConfusion(matrix: ConfusionMatrix): string {
  const short: Record<QueryMode, string> = {
    conceptual: "conc",
    diagnostic: "diag",
    exploratory: "expl",
    analytical: "anal",
  };
  const recall = recallByMode(matrix);
  const head = `expected \\ got  ${QUERY_MODE_LIST.map((m) => short[m].padStart(5)).join("")}  recall`;
  const lines = QUERY_MODE_LIST.map(
    (m) =>
      `${m.padEnd(15)}  ${QUERY_MODE_LIST.map((p) => String(matrix[m][p]).padStart(5)).join("")}  ${(recall[m] * 100).toFixed(1).padStart(5)}%`,
  );
  return [head, ...lines, `accuracy ${(recall.all * 100).toFixed(1)}%`].join("\n");
}

/**
 * What routing a question of one mode to another costs: sent away from analytical, it gets
 * import counts instead of its figure, none of what it asked; sent into diagnostic, its
 * answer hunts for a raise site; conceptual and exploratory retrieve much the same
 * definitions, so confusing them costs little.
 */
export function routingCost(expected: QueryMode, predicted: QueryMode): number {
  if (expected === predicted) return 0;
  if (expected === "analytical") return 3;
  if (predicted === "diagnostic") return 2;
  const pair = new Set([expected, predicted]);
  return pair.has("conceptual") && pair.has("exploratory") ? 0.5 : 1;
}

/**
 * Decision factors from cross-validated probabilities: among a small grid, the one with
 * the lowest total routing cost (then the best worst-mode recall).
 */
export function chooseDecision(
  modes: QueryMode[],
  predictions: { expected: QueryMode; p: number[] }[],
): number[] {
  let best: { w: number[]; cost: number; worst: number } = {
    w: modes.map(() => 1),
    cost: Number.POSITIVE_INFINITY,
    worst: -1,
  };
  // Only in the directions the costs point: toward analytical, away from diagnostic.
  for (const a of [1, 1.5, 2, 3])
    for (const d of [1, 0.8, 0.6]) {
      const w = modes.map((m) => (m === "analytical" ? a : m === "diagnostic" ? d : 1));
      const pairs = predictions.map((x) => {
        const weighed = x.p.map((p, k) => p * (w[k] ?? 1));
        const k = weighed.indexOf(Math.max(...weighed));
        return { expected: x.expected, predicted: modes[k] as QueryMode };
      });
      const cost = pairs.reduce((n, x) => n + routingCost(x.expected, x.predicted), 0);
      const recall = recallByMode(confusionMatrix(pairs));
      const worst = Math.min(...modes.map((m) => recall[m]));
      if (cost < best.cost - 1e-9 || (Math.abs(cost - best.cost) < 1e-9 && worst > best.worst))
        best = { w, cost, worst };
    }
  return best.w;
}

/** What retrieving the runner-up too would do at one close-call ratio. */
export interface CloseCallRow {
  ratio: number;
  /** questions whose runner-up is at least `ratio` of the top mode's probability */
  fused: number;
  /** of the questions whose top mode is wrong, those whose runner-up is right and fused */
  rescued: number;
  wrong: number;
}

/**
 * The close-call threshold's trade-off on held-back predictions: for each ratio, how many
 * questions would be retrieved for two modes and how many wrong top modes that would cover.
 */
export function closeCallTable(
  modes: QueryMode[],
  predictions: { expected: QueryMode; p: number[] }[],
  decision: number[],
  ratios: number[],
): CloseCallRow[] {
  const ranked = predictions.map((x) => {
    const p = decide({ decision }, x.p);
    const order = p.map((_, k) => k).sort((a, b) => (p[b] ?? 0) - (p[a] ?? 0));
    const [top = 0, second = 0] = order;
    return {
      expected: x.expected,
      top: modes[top],
      second: modes[second],
      share: (p[second] ?? 0) / (p[top] || 1),
    };
  });
  const wrong = ranked.filter((r) => r.top !== r.expected);
  return ratios.map((ratio) => ({
    ratio,
    fused: ranked.filter((r) => r.share >= ratio).length,
    rescued: wrong.filter((r) => r.second === r.expected && r.share >= ratio).length,
    wrong: wrong.length,
  }));
}

/** The mode a model predicts for a question (no guard, no LLM: the model alone). */
export function modelMode(model: ModeModel, question: string): QueryMode {
  const p = decide(model, scoreFeatures(model, questionFeatures(question, model.options)));
  let best = 0;
  for (let k = 1; k < p.length; k++) if ((p[k] ?? 0) > (p[best] ?? 0)) best = k;
  return model.modes[best] as QueryMode;
}
