/**
 * Question classification: a forced mode wins; otherwise a configured model gives
 * structured output (mode, reasoning, scope), and the trained classifier
 * (classify-model.ts) answers offline or whenever the model fails. Rules sit on top of
 * the classifier's probabilities: a question with no error, log line or symptom in it is
 * never diagnostic, however many failure words it uses ("how does X decide when a failed
 * job is retried"); a census of a symbol's callers ("who calls X?") is analytical, with
 * the classifier's choice retrieved beside it; what one call written as code does when it
 * runs ("what does app.use(auth()) do to each request?"), what follows an event ("what
 * happens after …") or where a value goes ("where does the key go, and how does the parser
 * get it back?") is exploratory, and a decision asked about after a narrated scene ("if I
 * call r.Use(A) then r.Use(B), where is the order decided?") is conceptual, each with the
 * classifier's other reading retrieved beside it; an analytical reading of a question naming
 * no relation, measure or part of the code ("which escape sequences are allowed?") asks
 * what a rule accepts, conceptual; and when the two likeliest modes are close,
 * both are named and retrieval runs for both (the answer still follows the first).
 */
import { generateText, Output, type LanguageModel } from "ai";
import { z } from "zod";
import { CLASSIFIER_SYSTEM } from "../answerers/prompts.ts";
import { extractScope, prepare } from "./classify-rules.ts";
import { asksCase, asksDecision, followsCall, followsRun, namesStructure } from "./classify-clauses.ts";
import { diagnosticEvidence } from "./diagnostic-evidence.ts";
import { predictMode, shippedModel, type ModeModel } from "./classify-model.ts";
import type { ClassificationPart, QueryMode } from "./types.ts";

const classificationSchema = z.object({
  mode: z.enum(["DIAGNOSTIC", "EXPLORATORY", "ANALYTICAL", "CONCEPTUAL"]),
  reasoning: z.string().max(400),
  scope: z.string().max(200).nullable(),
});

/**
 * The runner-up is retrieved too when its probability is at least this share of the top
 * one's: two retrievals cost a few hundred milliseconds, a wrong mode the whole answer.
 */
export const CLOSE_RATIO = 0.45;

export interface ClassifyOptions {
  forcedMode?: QueryMode;
  model?: { model: LanguageModel; timeoutMs: number } | null;
  signal?: AbortSignal;
}

export interface ClassifyResult {
  classification: Omit<ClassificationPart, "rewrittenQuestion">;
  /** set when a configured model failed and the trained classifier answered instead */
  modelError: string | null;
}

export interface OfflineClassification {
  mode: QueryMode;
  /** the close runner-up retrieved beside the mode, if any */
  secondaryMode: QueryMode | null;
  /** the classifier's probability of each mode after the diagnostic rule */
  probabilities: { mode: QueryMode; p: number }[];
  reasoning: string;
}

/**
 * The trained classifier with the diagnostic rule and the close-call rule applied. The
 * diagnostic rule: when the classifier says diagnostic but the question holds no error,
 * log line or symptom, the question is read again without its failure words ("failed",
 * "error", a status code …); if it is then something else, it is that, since the failure
 * words alone made it diagnostic. Diagnostic is never the runner-up of such a question.
 */
export function classifyOffline(question: string, model: ModeModel = shippedModel()): OfflineClassification {
  const evidence = diagnosticEvidence(prepare(question));
  let prediction = predictMode(question, model);
  let maskedFailureWords = false;
  if (evidence.length === 0 && prediction.ranked[0]?.mode === "diagnostic") {
    const masked = predictMode(question.replace(FAILURE_WORDS, " "), model);
    if (masked.ranked[0]?.mode !== "diagnostic") {
      prediction = masked;
      maskedFailureWords = true;
    }
  }
  const kept = prediction.ranked.filter(
    (r) => !(evidence.length === 0 && r.mode === "diagnostic" && r !== prediction.ranked[0]),
  );
  const total = kept.reduce((n, r) => n + r.p, 0) || 1;
  const probabilities = kept.map((r) => ({ mode: r.mode, p: r.p / total }));
  let [top, second] = probabilities as [{ mode: QueryMode; p: number }, { mode: QueryMode; p: number }];
  // A census of a named symbol's callers is answered with its callers over files (analytical);
  // the flow the model saw in it is retrieved beside it.
  // "What calls X, and in what order?" asks for the run those calls make, not their list.
  const census =
    top.mode !== "analytical" &&
    top.mode !== "diagnostic" &&
    CALLERS_CENSUS.test(question) &&
    !IN_ORDER.test(question);
  if (census) [top, second] = [probabilities.find((r) => r.mode === "analytical") ?? top, top];
  // What one call written as code does when it runs, what follows an event or where a value
  // goes is the path from there; the place the model read in it is retrieved beside it.
  const prose = prepare(question).prose;
  const call = !census && top.mode === "conceptual" && followsCall(prose);
  const run = call || (!census && top.mode === "conceptual" && followsRun(prose));
  if (run) [top, second] = [probabilities.find((r) => r.mode === "exploratory") ?? top, top];
  // A decision asked about, however the scene was narrated, is one deciding place; the path
  // the model read in it is retrieved beside it.
  const decision = !census && !run && top.mode === "exploratory" && asksDecision(prose);
  // Which of two outcomes the code gives in a case ("are they replaced or combined?") is one
  // mechanism's behaviour; the path the model read in it is retrieved beside it.
  const outcome = !census && !run && !decision && top.mode === "exploratory" && asksCase(prose);
  if (decision || outcome) [top, second] = [probabilities.find((r) => r.mode === "conceptual") ?? top, top];
  // An analytical reading of a question that names no relation, measure or part of the code
  // asks which values a rule accepts: the deciding place, with the census retrieved beside it.
  const values = !census && top.mode === "analytical" && !namesStructure(question);
  if (values) [top, second] = [probabilities.find((r) => r.mode === "conceptual") ?? top, top];
  const shifted = census || run || decision || outcome || values;
  const secondaryMode = shifted
    ? second.mode
    : second && second.p >= CLOSE_RATIO * top.p
      ? second.mode
      : null;
  const cues = prediction.cues;
  const parts = [`${capitalize(top.mode)} (${percent(top.p)})${cues.length ? `: ${cues.join(", ")}` : ""}.`];
  if (census) parts.push("Asks for the callers of a symbol: analytical.");
  if (call) parts.push("Asks what one call does when it runs: exploratory.");
  else if (run) parts.push("Asks what follows an event or where a value goes: exploratory.");
  if (decision) parts.push("Asks what decides: conceptual.");
  if (outcome) parts.push("Asks which of two outcomes the code gives in a case: conceptual.");
  if (values)
    parts.push("Names no relation, measure or part of the code: asks what a rule accepts, conceptual.");
  if (maskedFailureWords)
    parts.push(
      "Not diagnostic: it quotes no error, log line or symptom, and failure words alone do not make one.",
    );
  if (secondaryMode)
    parts.push(
      `${top.mode} or ${secondaryMode}: retrieved for both (${secondaryMode} ${percent(second.p)}).`,
    );
  return { mode: top.mode, secondaryMode, probabilities, reasoning: parts.join(" ") };
}

export async function classifyQuestion(
  question: string,
  options: ClassifyOptions = {},
): Promise<ClassifyResult> {
  const scope = extractScope(question);
  if (options.forcedMode) {
    return {
      classification: {
        mode: options.forcedMode,
        secondaryMode: null,
        reasoning: "Mode chosen by the request.",
        scope,
        forced: true,
        source: "forced",
      },
      modelError: null,
    };
  }
  const offline = classifyOffline(question);
  const fromClassifier = {
    mode: offline.mode,
    secondaryMode: offline.secondaryMode,
    reasoning: offline.reasoning,
    scope,
    forced: false,
    source: "classifier" as const,
  };
  if (!options.model) return { classification: fromClassifier, modelError: null };
  try {
    const timeout = AbortSignal.timeout(Math.min(options.model.timeoutMs, 20_000));
    const { output } = await generateText({
      model: options.model.model,
      system: CLASSIFIER_SYSTEM,
      prompt: `Classify this question: ${question.slice(0, 4000)}`,
      output: Output.object({ schema: classificationSchema }),
      maxRetries: 1,
      abortSignal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    });
    const mode = output.mode.toLowerCase() as QueryMode;
    return {
      classification: {
        mode,
        // When the trained classifier is sure of another mode, that one is retrieved too.
        secondaryMode:
          offline.mode !== mode && (offline.probabilities[0]?.p ?? 0) >= 0.5 ? offline.mode : null,
        reasoning: output.reasoning,
        scope: output.scope && output.scope !== "null" ? output.scope : scope,
        forced: false,
        source: "llm",
      },
      modelError: null,
    };
  } catch (error) {
    return {
      classification: fromClassifier,
      modelError: error instanceof Error ? error.message.slice(0, 200) : String(error),
    };
  }
}

// "Who calls X?", "what calls X?", "which functions call (create, instantiate) X?", "list the methods that run X".
const CALLERS_CENSUS =
  /\b(?:who|what) (?:else )?(?:calls|invokes)\b|\bwhich (?:functions|methods|callers|code|places|constructors)\b[^?.]{0,40}?\b(?:call|calls|invoke|invokes|create|creates|construct|constructs|instantiate|instantiates)\b|\blist (?:the |every |all )?(?:\w+ ){0,2}?(?:that|which) (?:call|run|invoke)s?\b/i;

const IN_ORDER = /\bin (?:what|which) order\b/i;

// Words that name a failure without reporting one ("a failed job", "the error handler", "a 304").
const FAILURE_WORDS =
  /\b(?:fail(?:s|ed|ing|ures?)?|errors?|exceptions?|warnings?|rais(?:e|es|ed|ing)|throws?|threw|thrown|invalid|wrong|bugs?|crash(?:es|ed)?|timeouts?|retry|retries|[45]\d\d)\b/gi;

function capitalize(text: string): string {
  return text.slice(0, 1).toUpperCase() + text.slice(1);
}

function percent(p: number): string {
  return `${Math.round(p * 100)}%`;
}
