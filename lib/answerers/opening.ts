/**
 * The evidence engine's first sentences: the answer itself, in the question's terms,
 * built from the evidence the body then lists (so the two never disagree), each
 * statement cited.
 * - conceptual: what decides or computes the thing asked about, where, quoting the
 *   deciding line(s) ("Whether to follow a redirect is decided in `resolve_redirects`
 *   (requests/sessions.py:91-185): `while resp.is_redirect:`");
 * - diagnostic: where the error is raised or handled and under which condition (a
 *   message built apart from its raise: where it is written, and the helper raising it);
 *   a symptom with no quoted error gets the code behind it, never "no raise site matches";
 * - exploratory: the entry point and the chain of calls in order (A → B → C), each cited,
 *   or, asked who calls something, its callers;
 * - analytical: the figure asked for, as the analytical retriever computed it (the
 *   `Answer:` line of its structure item).
 * Only a diagnostic answer speaks of raise sites.
 */
import type { AnswerInput, ContextItem } from "./contract.ts";
import { escapeInline } from "./evidence-reading.ts";
import { conceptualOpening } from "./opening-conceptual.ts";
import { diagnosticOpening } from "./opening-diagnostic.ts";
import { exploratoryOpening } from "./opening-exploratory.ts";

/** One to three sentences that answer the question from the evidence, each with its citation. */
export function openingFor(
  input: AnswerInput,
  symbols: ContextItem[],
  byName: Map<string, ContextItem>,
): string {
  switch (input.mode) {
    case "diagnostic":
      return diagnosticOpening(input, symbols, byName);
    case "exploratory":
      return exploratoryOpening(input, symbols);
    case "analytical":
      return analyticalOpening(input);
    case "conceptual":
      return conceptualOpening(input, symbols);
  }
}

function analyticalOpening(input: AnswerInput): string {
  const structure = input.context.find((i) => i.kind === "structure");
  const answer = structure?.text.split("\n").find((l) => l.startsWith("Answer: "));
  return answer ? escapeInline(answer.slice("Answer: ".length).trim()) : "";
}
