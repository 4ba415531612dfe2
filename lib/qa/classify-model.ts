/**
 * The trained mode classifier: multinomial logistic regression over the features of
 * classify-features.ts, its weights shipped in classify-weights.json (written by
 * `npm run train:modes`, see training/modes). Prediction is a sum of the weights of the
 * features a question has, then a softmax: a few microseconds, no download, no model.
 */
import { QUERY_MODE_LIST, type QueryMode } from "../answerers/contract.ts";
import { questionFeatures, type FeatureOptions, type Features } from "./classify-features.ts";
import shipped from "./classify-weights.json";

export interface ModeModel {
  version: 1;
  /** the order of the columns of every weight vector */
  modes: QueryMode[];
  options: FeatureOptions;
  bias: number[];
  /** feature → one weight per mode */
  weights: Record<string, number[]>;
  /**
   * What a wrong mode costs, as a factor on each mode's probability before the choice: a
   * question wrongly kept away from analytical loses its whole answer, one sent to
   * exploratory instead of conceptual little (both retrieve definitions). Chosen by
   * cross-validation on the training split.
   */
  decision?: number[];
  /** what it was trained on and how (for the report; never read at prediction) */
  trained: Record<string, unknown>;
}

export interface ModePrediction {
  /** modes by probability, highest first */
  ranked: { mode: QueryMode; p: number }[];
  /** the features that pushed the top mode up most (for the classification's reasoning) */
  cues: string[];
}

let cached: ModeModel | null = null;

/** The model shipped with the project. */
export function shippedModel(): ModeModel {
  cached ??= validated(shipped as unknown);
  return cached;
}

function validated(value: unknown): ModeModel {
  const m = value as Partial<ModeModel>;
  const modes = m.modes ?? [];
  if (
    m.version !== 1 ||
    modes.length !== QUERY_MODE_LIST.length ||
    !modes.every((x) => QUERY_MODE_LIST.includes(x)) ||
    m.bias?.length !== modes.length ||
    typeof m.weights !== "object" ||
    !m.options
  ) {
    throw new Error("classify-weights.json is not a mode model (run npm run train:modes)");
  }
  return m as ModeModel;
}

/** Probabilities of each mode for a question's features. */
export function scoreFeatures(model: ModeModel, features: Features): number[] {
  const logits = [...model.bias];
  for (const [name, value] of features) {
    const w = model.weights[name];
    if (!w) continue;
    for (let k = 0; k < logits.length; k++) logits[k] = (logits[k] ?? 0) + (w[k] ?? 0) * value;
  }
  return softmax(logits);
}

export function predictMode(question: string, model: ModeModel = shippedModel()): ModePrediction {
  return predictFeatures(model, questionFeatures(question, model.options));
}

export function predictFeatures(model: ModeModel, features: Features): ModePrediction {
  const p = decide(model, scoreFeatures(model, features));
  const ranked = model.modes
    .map((mode, k) => ({ mode, p: p[k] ?? 0 }))
    .sort((a, b) => b.p - a.p || model.modes.indexOf(a.mode) - model.modes.indexOf(b.mode));
  return { ranked, cues: cuesFor(model, features, model.modes.indexOf(ranked[0]?.mode ?? "conceptual")) };
}

/**
 * The features that favour mode `k` over the others most, as a reader would name them:
 * words and word pairs in quotes, rule signals by their id. Character n-grams are left
 * out (they say the same as the words they come from).
 */
function cuesFor(model: ModeModel, features: Features, k: number, max = 3): string[] {
  const scored: { cue: string; lift: number }[] = [];
  for (const [name, value] of features) {
    const w = model.weights[name];
    if (!w || name.startsWith("c:")) continue;
    const others = w.filter((_, j) => j !== k);
    const lift = ((w[k] ?? 0) - Math.max(...others)) * value;
    const cue = cueName(name);
    if (cue && lift > 0.05) scored.push({ cue, lift });
  }
  return [...new Set(scored.sort((a, b) => b.lift - a.lift).map((s) => s.cue))].slice(0, max);
}

/** A feature as a reader would name it, or null for one that says nothing on its own ("the", "does"). */
function cueName(feature: string): string | null {
  const [family, body = ""] = [feature.slice(0, 1), feature.slice(2)];
  const words = body
    .split("_")
    .map((w) => PLACEHOLDERS[w] ?? w)
    .join(" ");
  switch (family) {
    case "w":
      return FUNCTION_WORDS.has(body) || body.startsWith("<") ? null : `"${words}"`;
    case "b":
    case "s":
      return body.split("_").every((w) => FUNCTION_WORDS.has(w) || w.startsWith("<")) ? null : `"${words}"`;
    case "r":
      return `the ${body.replace(/-/g, " ")} signal`;
    case "q": {
      const [opener = "", kind = ""] = body.split("+");
      return `"${opener}" with a verb of ${VERB_NAMES[kind] ?? kind}`;
    }
    case "x":
      return SHAPES[body] ?? null;
    default:
      return null;
  }
}

const PLACEHOLDERS: Record<string, string> = {
  "<code>": "code",
  "<path>": "a path",
  "<num>": "a number",
  "<status>": "a status code",
  "<quote>": "a quotation",
  "<flag>": "an option",
};

const VERB_NAMES: Record<string, string> = {
  motion: "movement",
  transform: "transformation",
  sequence: "sequence",
  decide: "deciding",
  define: "definition",
};

const SHAPES: Record<string, string> = {
  evidence: "an error, log line or symptom",
  exception: "an exception type",
  frames: "stack frames",
  fence: "pasted code",
  lines: "a pasted report",
  long: "a long report",
  imperative: "an imperative",
};

// prettier-ignore
const FUNCTION_WORDS = new Set(
  "a an the is are was were be been does do did how what which where when why who whom with in of to for on and or it its this that these those i my me we our us you your be by from as at into not no there here so if then than can could would should will".split(" "),
);

/** Probabilities weighed by the model's decision factors, summing to one again. */
export function decide(model: Pick<ModeModel, "decision">, p: number[]): number[] {
  if (!model.decision) return p;
  const weighed = p.map((x, k) => x * (model.decision?.[k] ?? 1));
  const sum = weighed.reduce((a, b) => a + b, 0) || 1;
  return weighed.map((x) => x / sum);
}

export function softmax(logits: number[]): number[] {
  const max = Math.max(...logits);
  const exp = logits.map((l) => Math.exp(l - max));
  const sum = exp.reduce((a, b) => a + b, 0);
  return exp.map((e) => e / sum);
}
