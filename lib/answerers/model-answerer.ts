/**
 * The model-backed answerer: streams one answer-and-gaps completion per pass through
 * the AI SDK, shows only the answer text as it arrives (markup filtered out), then
 * parses the missing section. For fuzzy gaps it asks for a sufficiency judgment with
 * a search sub-query. Timeouts, provider errors and output without an answer become
 * ProviderError so the loop can fall back to the evidence engine.
 */
import { generateText, Output, streamText, type LanguageModel } from "ai";
import { z } from "zod";
import { renderContext } from "./render.ts";
import { linearizeGraph } from "./render.ts";
import { createAnswerStreamFilter, parseModelOutput } from "./answer-format.ts";
import { parseGapTarget } from "./gap-format.ts";
import { ProviderError, type AnswerInput, type AnswerOutput, type Answerer } from "./contract.ts";
import { answerSystemPrompt, answerUserPrompt, SUFFICIENCY_SYSTEM } from "./prompts.ts";

const sufficiencySchema = z.object({
  sufficient: z.boolean(),
  reasoning: z.string(),
  nextQuery: z.string().nullable(),
});

export class ModelAnswerer implements Answerer {
  readonly kind = "llm" as const;

  constructor(
    private readonly model: LanguageModel,
    readonly name: string,
    private readonly timeoutMs: number,
  ) {}

  async answer(
    input: AnswerInput,
    onDelta: (text: string) => void,
    signal?: AbortSignal,
  ): Promise<AnswerOutput> {
    const filter = createAnswerStreamFilter();
    let raw = "";
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const abortSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let streamError: unknown = null;
    try {
      const result = streamText({
        model: this.model,
        system: answerSystemPrompt(input.mode),
        prompt: answerUserPrompt({
          question: input.question,
          context: renderContext(input.context),
          graph: linearizeGraph(input.graph),
          unavailable: [...input.notFound],
          reasoningHistory: input.reasoningHistory,
          pass: input.pass,
          maxPasses: input.maxPasses,
          history: input.history,
        }),
        maxRetries: 1,
        abortSignal,
        onError: ({ error }) => {
          streamError = error;
        },
      });
      for await (const delta of result.textStream) {
        raw += delta;
        const visible = filter.push(delta);
        if (visible) onDelta(visible);
      }
      const tail = filter.end();
      if (tail) onDelta(tail);
    } catch (error) {
      if (signal?.aborted && !timeout.aborted) throw error;
      throw asProviderError(error, timeout);
    }
    // streamText ends the stream quietly on abort (onAbort, no error), so a timeout or a
    // cancelled request would otherwise pass a cut-off reply off as a complete answer.
    if (signal?.aborted && !timeout.aborted)
      throw signal.reason ?? new DOMException("The request was aborted.", "AbortError");
    if (timeout.aborted) throw new ProviderError("The language model did not answer in time.", "timeout");
    if (streamError) throw asProviderError(streamError, timeout);
    const reasoning = raw.match(/<reasoning>([\s\S]*?)(<\/reasoning>|$)/i)?.[1]?.trim() ?? "";
    const parsed = parseModelOutput(raw.replace(/<reasoning>[\s\S]*?(<\/reasoning>|$)/i, ""));
    if (!parsed.answer.trim()) {
      throw new ProviderError("The model returned no answer text.", "malformed");
    }
    const subQueries = new Map<string, string>();
    const fuzzy = parsed.gaps.filter((g) => parseGapTarget(g).kind === "fuzzy");
    let sufficient = parsed.gaps.length === 0;
    let judged = reasoning;
    if (fuzzy.length) {
      const judgment = await this.judge(input, fuzzy, abortSignal).catch(() => null);
      if (judgment) {
        sufficient = judgment.sufficient && parsed.gaps.length === 0;
        judged = judged || judgment.reasoning;
        if (judgment.nextQuery) for (const g of fuzzy) subQueries.set(g, `${judgment.nextQuery} ${g}`);
      }
    }
    return { answer: parsed.answer, gaps: parsed.gaps, reasoning: judged, sufficient, subQueries };
  }

  private async judge(input: AnswerInput, fuzzyGaps: string[], abortSignal: AbortSignal) {
    const { output } = await generateText({
      model: this.model,
      system: SUFFICIENCY_SYSTEM,
      prompt: `Question: ${input.question}\n\nContext items:\n${input.context
        .map((c) => `- ${c.title} (${c.path ?? c.kind})`)
        .join(
          "\n",
        )}\n\nKnowledge graph:\n${linearizeGraph(input.graph, 40)}\n\nStill missing, as described: ${fuzzyGaps.join("; ")}`,
      output: Output.object({ schema: sufficiencySchema }),
      maxRetries: 0,
      abortSignal,
    });
    return output;
  }
}

function asProviderError(error: unknown, timeout: AbortSignal): ProviderError {
  if (error instanceof ProviderError) return error;
  if (timeout.aborted)
    return new ProviderError("The language model did not answer in time.", "timeout", { cause: error });
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError(`The language model provider failed: ${message.slice(0, 200)}`, "provider", {
    cause: error,
  });
}
