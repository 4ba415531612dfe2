/**
 * Prompts for the model-backed steps: classification, follow-up rewriting, the
 * answer-and-gaps pass (which may carry one mermaid diagram), and the sufficiency
 * judgment. Output formats here are the ones lib/qa/gaps.ts parses; keep them in step.
 */
import type { QueryMode } from "./contract.ts";

export const CLASSIFIER_SYSTEM = `You route questions about a software repository to a retrieval strategy, by what the user needs (not which words appear).
Pick exactly one mode:
- DIAGNOSTIC: something concrete is going wrong for the user and they want the cause or the fix: an error message, exception, panic, stack trace, log line, failing test, wrong output, crash, hang, or a symptom report with or without a trace ("after upgrading, X returns Y"). A question that only mentions an error word while asking how the code works ("how does X decide when a failed job is retried?") is not diagnostic.
- EXPLORATORY: follow a flow through the code: what happens step by step when X runs, the path from A to B, what X calls in order, what X does to each request or item, where X is used on the way.
- ANALYTICAL: structure and dependencies of the code base or a part of it: the most imported or depended-on modules, import cycles, coupling or layering between folders, fan-in/fan-out, hubs, the largest or most complex functions, dead code, "which parts call into <class> and how do they depend on each other", the callers of a named symbol ("who calls X?", "what calls X?", "which functions call X?", "list the methods that run X"), counts and rankings, assessments of design or quality.
- CONCEPTUAL: what something is, how it works, what decides or computes something, where it is defined or configured, why it is designed so, what the code does in a case the user supposes ("with X, does Y happen?", "if I pass A and B, are both read or only one?"), even when that case names a value the code refuses; the default when nothing else clearly fits.
Also extract the scope: the folder, file or module the question is about, or null.
Give one sentence of reasoning.`;

export const REWRITE_SYSTEM = `Rewrite the user's latest message into a standalone question about the codebase, resolving pronouns and references ("it", "that function", "the same class") from the conversation. Keep code names exactly as written. If it is already standalone, return it unchanged. Reply with the question only.`;

const MODE_GUIDANCE: Record<QueryMode, string> = {
  diagnostic:
    "Open with one sentence saying where the error is raised or handled and under which condition, cited. Then trace the failure from there back through its callers; name the state or input that causes it and the fix.",
  exploratory:
    "Open with one sentence naming the entry point and the chain of calls in order (A → B → C), each cited. Then walk the execution flow step by step, naming each function and what it hands to the next.",
  analytical:
    "Open with one sentence giving the figure asked for (N callers in M files, the cycle or that there is none, the top files with their counts), cited. Then assess structure with evidence: dependencies, cycles, fan-in/fan-out hotspots, long functions; be concrete about risks and improvements.",
  conceptual:
    "Open with one sentence saying what decides or computes what the question asks about and where (the function, cited), quoting the deciding line. Then explain what it does and how to use it, from the code and the documentation.",
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
