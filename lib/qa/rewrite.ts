/**
 * Follow-up rewriting: a question that leans on the conversation ("who calls it?")
 * becomes a standalone question before retrieval. A model rewrites when configured;
 * the deterministic rules do it offline or when the model fails.
 */
import { generateText, type LanguageModel } from "ai";
import { REWRITE_SYSTEM } from "../answerers/prompts.ts";
import { extractAnchors } from "../search/anchors.ts";
import { rewriteFollowUp } from "./rewrite-rules.ts";
import { subjectMentions, type SubjectMention } from "./subjects.ts";

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

/**
 * What a turn's question was about — the code names, the words it names as a type ("the
 * Retry class") and the paths it wrote, in that order — so "it" in the next question is
 * that subject, never whatever the previous answer happened to cite first.
 */
export function subjectsOf(question: string): string[] {
  const mentions = subjectMentions(question);
  const paths = mentions.filter((m) => m.kind === "path").map((m) => m.text);
  const named = mentions.filter(
    (m) =>
      (m.kind === "symbol" && !paths.some((p) => p.includes(m.text.replace(/[!?]+$/, "")))) ||
      (m.kind === "term" && namedAsType(question, m)),
  );
  const anchors = extractAnchors(question);
  const out = [...named.map((m) => m.text), ...anchors.identifiers, ...paths, ...anchors.paths];
  return [...new Set(out)].slice(0, 3);
}

/** "the Retry class", "class Retry": a word the question names as a type (not "class decide"). */
function namedAsType(question: string, mention: SubjectMention): boolean {
  if (!mention.noun) return false;
  const word = mention.text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const noun = `${mention.noun}(?:e?s)?`;
  return (
    new RegExp(`\\b${word}\\W{0,2}\\s+${noun}\\b`, "i").test(question) ||
    (/^[A-Z]/.test(mention.text) && new RegExp(`\\b${noun}\\s+\\W?${word}\\b`, "i").test(question))
  );
}
