/**
 * Follow-up rewriting: a question that leans on the conversation ("who calls it?")
 * becomes a standalone question before retrieval. A model rewrites when configured;
 * the deterministic rules do it offline or when the model fails.
 */
import { generateText, type LanguageModel } from "ai";
import { REWRITE_SYSTEM } from "../answerers/prompts.ts";
import { extractAnchors } from "../search/anchors.ts";
import { rewriteFollowUp } from "./rewrite-rules.ts";

export interface Turn {
  question: string;
  answer: string;
}

export async function standaloneQuestion(
  question: string,
  history: Turn[],
  model: { model: LanguageModel; timeoutMs: number } | null,
): Promise<{ question: string; rewritten: boolean }> {
  if (history.length === 0) return { question, rewritten: false };
  const rules = rewriteFollowUp(
    question,
    history.map((h) => ({ question: h.question, subjects: subjectsOf(h.question) })),
  );
  if (!model || !rules.rewritten) {
    // Without a model only rewrite what the rules recognise as a follow-up.
    return { question: rules.standalone, rewritten: rules.rewritten };
  }
  try {
    const { text } = await generateText({
      model: model.model,
      system: REWRITE_SYSTEM,
      prompt: `${history
        .slice(-4)
        .map((h) => `User: ${h.question}\nAssistant: ${h.answer.slice(0, 400)}`)
        .join("\n\n")}\n\nLatest message: ${question}`,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(Math.min(model.timeoutMs, 15_000)),
    });
    const cleaned = text.trim().replace(/^["']|["']$/g, "");
    return cleaned
      ? { question: cleaned, rewritten: cleaned !== question }
      : { question: rules.standalone, rewritten: rules.rewritten };
  } catch {
    return { question: rules.standalone, rewritten: rules.rewritten };
  }
}

/** Code names and paths a turn was about (what "it" most likely refers to). */
export function subjectsOf(question: string): string[] {
  const anchors = extractAnchors(question);
  return [...anchors.identifiers, ...anchors.paths].slice(0, 3);
}
