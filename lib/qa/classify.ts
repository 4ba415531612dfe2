/**
 * Question classification: a forced mode wins; otherwise a model gives structured
 * output (mode, reasoning, scope) when one is configured, and the deterministic rules
 * answer offline or whenever the model fails.
 */
import { generateText, Output, type LanguageModel } from "ai";
import { z } from "zod";
import { CLASSIFIER_SYSTEM } from "../answerers/prompts.ts";
import { classifyByRules } from "./classify-rules.ts";
import type { ClassificationPart, QueryMode } from "./types.ts";

const classificationSchema = z.object({
  mode: z.enum(["DIAGNOSTIC", "EXPLORATORY", "ANALYTICAL", "CONCEPTUAL"]),
  reasoning: z.string().max(400),
  scope: z.string().max(200).nullable(),
});

export interface ClassifyOptions {
  forcedMode?: QueryMode;
  model?: { model: LanguageModel; timeoutMs: number } | null;
  signal?: AbortSignal;
}

export interface ClassifyResult {
  classification: Omit<ClassificationPart, "rewrittenQuestion">;
  /** set when a configured model failed and the rules answered instead */
  modelError: string | null;
}

export async function classifyQuestion(
  question: string,
  options: ClassifyOptions = {},
): Promise<ClassifyResult> {
  const rules = classifyByRules(question);
  if (options.forcedMode) {
    return {
      classification: {
        mode: options.forcedMode,
        reasoning: "Mode chosen by the request.",
        scope: rules.scope,
        forced: true,
        source: "forced",
      },
      modelError: null,
    };
  }
  if (options.model) {
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
      return {
        classification: {
          mode: output.mode.toLowerCase() as QueryMode,
          reasoning: output.reasoning,
          scope: output.scope && output.scope !== "null" ? output.scope : rules.scope,
          forced: false,
          source: "llm",
        },
        modelError: null,
      };
    } catch (error) {
      return {
        classification: {
          mode: rules.mode,
          reasoning: rules.reasoning,
          scope: rules.scope,
          forced: false,
          source: "rules",
        },
        modelError: error instanceof Error ? error.message.slice(0, 200) : String(error),
      };
    }
  }
  return {
    classification: {
      mode: rules.mode,
      reasoning: rules.reasoning,
      scope: rules.scope,
      forced: false,
      source: "rules",
    },
    modelError: null,
  };
}
