/**
 * Prompts for the model-backed steps: classification, follow-up rewriting, the
 * answer-and-gaps pass (which may carry one mermaid diagram), and the sufficiency
 * judgment. Output formats here are the ones lib/qa/gaps.ts parses; keep them in step.
 */
import type { QueryMode } from "./contract.ts";

export const CLASSIFIER_SYSTEM = `You route questions about a software repository to a retrieval strategy.
Pick exactly one mode:
- DIAGNOSTIC: errors, exceptions, stack traces, failing or unexpected behaviour ("X happens when it should Y"), why something breaks. Symptoms rarely resemble their causes, so this mode searches error sites and walks callers backwards.
- EXPLORATORY: tracing or walking through a flow, what calls what, execution order, how data moves between components.
- ANALYTICAL: architecture, structure, design quality, flaws, coupling, dependencies, technical debt, assessments.
- CONCEPTUAL: what something does or how to use it, explanations of features or modules; the default when nothing else clearly fits.
Also extract the scope: the folder, file or module the question is about, or null.
Give one sentence of reasoning.`;

export const REWRITE_SYSTEM = `Rewrite the user's latest message into a standalone question about the codebase, resolving pronouns and references ("it", "that function", "the same class") from the conversation. Keep code names exactly as written. If it is already standalone, return it unchanged. Reply with the question only.`;

const MODE_GUIDANCE: Record<QueryMode, string> = {
  diagnostic:
    "Trace the failure from where the error is raised back through its callers; name the state or input that causes it and the fix.",
  exploratory:
    "Walk the execution flow step by step in order, naming each function and what it hands to the next.",
  analytical:
    "Assess structure with evidence: dependencies, cycles, fan-in/fan-out hotspots, long functions; be concrete about risks and improvements.",
  conceptual: "Explain what it does and how to use it, from the documentation first and the code second.",
};

/**
 * Wayfinder draws its own call-flow and dependency diagrams from the index; a model may
 * add one of a kind those do not show (a sequence of calls with what is passed back, a
 * state machine), drawn by mermaid in the browser. Only about the cited code, so the
 * picture never shows what the answer cannot back.
 */
const DIAGRAM_GUIDANCE = `When a picture helps (the order of calls between functions and what each returns, or the states something moves through), you may add ONE diagram to the answer as a fenced \`\`\`mermaid block (sequenceDiagram, stateDiagram-v2 or flowchart). Show only code you cite in the answer, named as in the code; put citations in the text, not in the diagram, and quote labels that contain punctuation. Leave the diagram out when prose says it as well.`;

export function answerSystemPrompt(mode: QueryMode): string {
  return `You answer questions about a codebase using ONLY the context provided. ${MODE_GUIDANCE[mode]}
Cite every claim about the code inline as path:start-end using the locations shown in the context headers (for example src/app.py:10-24). Never invent a path or line range; if you cannot cite it, say you are not sure.
An excerpt headed "provided by the user, not verified" was pasted by the user and is not from the index: when you rely on it, say it was provided by the user and not verified, and never cite it as a location.
Write the answer in Markdown inside <answer>…</answer>.
${DIAGRAM_GUIDANCE}
Then, inside <missing>…</missing>, list what specific code you still need to answer fully, one item per line as "- name in path/to/file.ext" or "- name()" or "- path/to/file.ext" (or a short description if you do not know the name). Write NONE if nothing is missing. Do not ask again for anything listed as unavailable.
Finally, inside <reasoning>…</reasoning>, one or two sentences on whether the context was sufficient and why.`;
}

export function answerUserPrompt(input: {
  question: string;
  context: string;
  graph: string;
  unavailable: string[];
  reasoningHistory: string[];
  pass: number;
  maxPasses: number;
  history: { question: string; answer: string }[];
}): string {
  const parts: string[] = [];
  if (input.history.length) {
    parts.push("## Earlier in this conversation");
    for (const h of input.history.slice(-3)) parts.push(`Q: ${h.question}\nA: ${h.answer.slice(0, 600)}`);
  }
  parts.push(`## Question\n${input.question}`);
  parts.push(
    `## Context (pass ${input.pass} of at most ${input.maxPasses})\n${input.context || "(nothing retrieved)"}`,
  );
  if (input.graph)
    parts.push(`## Evidence graph (relations between code in and around the context)\n${input.graph}`);
  if (input.reasoningHistory.length)
    parts.push(
      `## Your reasoning in earlier passes\n${input.reasoningHistory.map((r, i) => `${i + 1}. ${r}`).join("\n")}`,
    );
  if (input.unavailable.length)
    parts.push(
      `## Known to be unavailable (do not request again)\n${input.unavailable.map((u) => `- ${u}`).join("\n")}`,
    );
  return parts.join("\n\n");
}

export const SUFFICIENCY_SYSTEM = `You judge whether retrieved code context is sufficient to answer a question about a codebase. If it is not, write one short search query (keywords and code names) that would retrieve what is missing.`;
