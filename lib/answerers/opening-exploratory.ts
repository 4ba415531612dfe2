/**
 * The exploratory opening: the entry point and the chain of calls in order (A → B → C),
 * each cited, in the question's terms ("When you call X, it starts at …"); asked who calls
 * something, its callers; an entry that calls nothing resolved names what most likely follows.
 */
import type { AnswerInput, ContextItem } from "./contract.ts";
import {
  cite,
  code,
  flowNodes,
  isAuxiliary,
  joinWords,
  mainPath,
  type FlowStep,
} from "./evidence-reading.ts";
import { hitsOf, MAX_CITED_LINES, questionStems } from "./lead-definition.ts";
import { conceptualOpening } from "./opening-conceptual.ts";
import { ERROR_WORDS, whenAsked } from "./question-clauses.ts";

/** What a step on the line to where the flow ends weighs, more than any part of the tree. */
const ENDWARD = 10_000;

/** What a step called only under a check or in an error handler loses: the main line goes on elsewhere. */
const SIDE = 1_000;

/** The longest main line an opening lists when it runs to where the question says the flow ends. */
const MAX_END_LINE = 7;

/** A type an error is made of (`ValidationException`, `ParseError`, `Panic`). */
const ERROR_TYPE = /(?:Error|Exception|Panic)$/;

export function exploratoryOpening(input: AnswerInput, symbols: ContextItem[]): string {
  const step = (s: FlowStep, next?: FlowStep) => `${code(s.name)} (${stepCitation(s, symbols, next)})`;
  const chain = (path: FlowStep[]) => path.map((s, i) => step(s, path[i + 1]));
  const callers = flowNodes(input, "callers:");
  if (callers.length > 1) {
    const target = callers[0] as FlowStep;
    const direct = callers.filter((c) => c.depth === 1);
    const further = callers.filter((c) => c.depth === 2);
    return `${step(target)} is called by ${direct.length} function${direct.length === 1 ? "" : "s"}: ${joinWords(direct.slice(0, 4).map((s) => step(s)))}${direct.length > 4 ? ` and ${direct.length - 4} more` : ""}${further[0] ? `; ${step(further[0])} is one hop further up` : ""}.`;
  }
  const steps = flowNodes(input);
  // The line of the flow leading to what the question names ("down to the connection being opened").
  const terms = questionStems(input.question);
  const own = steps.map((s) => hitsOf(s.name.split(".").pop() ?? s.name, terms));
  const reach = steps.map((s, i) => Math.max(...own.slice(i, i + 1 + s.descendants)));
  // Several calls named in order ("NewServer, AddRoutes, then Start"): each as named, with the
  // line of calls it runs along.
  const roots = steps.filter((s) => s.depth === 0);
  // The path a question asks to follow runs where nothing fails: an error type built on the
  // way ends the chain shown, unless the question is about errors.
  const happy = (path: FlowStep[]) => {
    if (ERROR_WORDS.test(input.question)) return path;
    const end = path.findIndex((s, i) => i > 0 && ERROR_TYPE.test(s.name));
    return end < 0 ? path : path.slice(0, end);
  };
  if (roots.length > 1) {
    const chains = roots.map((root) => {
      const at = steps.indexOf(root);
      const part = steps.slice(at, at + 1 + root.descendants);
      return chain(
        happy(
          mainPath(part, roots.length > 2 ? 3 : 4, (i) =>
            part[i]?.endward ? ENDWARD : part[i]?.side ? -SIDE : 4 * (reach[at + i] ?? 0),
          ),
        ),
      ).join(" → ");
    });
    return `${whenAsked(input.question, "it runs")} ${chains.join(", then ")}.`;
  }
  // The line to where the question says the flow ends is the main line, however long.
  const toEnd = steps.filter((s) => s.endward).length;
  const path = happy(
    mainPath(steps, Math.min(MAX_END_LINE, 5 + Math.max(0, toEnd - 4)), (i) =>
      steps[i]?.endward ? ENDWARD : steps[i]?.side ? -SIDE : 4 * (reach[i] ?? 0),
    ),
  );
  const entry = path[0];
  if (!entry) return conceptualOpening(input, symbols);
  if (path.length === 1) return loneEntry(step(entry), entry, symbols);
  const [first, ...rest] = chain(path);
  const sentences = [`${whenAsked(input.question, "it starts at")} ${first}, then ${rest.join(" → ")}.`];
  // What else the entry calls, beside the main line.
  const at = steps.indexOf(entry);
  const siblings: FlowStep[] = [];
  for (let i = at + 1; i < steps.length; i++) {
    const s = steps[i] as FlowStep;
    if (s.depth === 1 && s !== path[1]) siblings.push(s);
  }
  if (siblings.length)
    sentences.push(`${code(entry.name)} also calls ${joinWords(siblings.slice(0, 3).map((s) => step(s)))}.`);
  return sentences.join(" ");
}

/**
 * A flow whose entry calls nothing the index resolved (a call through a field, a callback, a
 * macro): the opening says so and names the code retrieval ranked next, which the flow most
 * likely goes on to, each cited, rather than ending at the entry.
 */
function loneEntry(entryText: string, entry: FlowStep, symbols: ContextItem[]): string {
  const next = symbols
    .filter((i) => i.facts?.qualifiedName && i.path && i.facts.qualifiedName !== entry.name)
    .filter((i) => !isAuxiliary(i.path ?? "") && !ERROR_TYPE.test(i.facts?.qualifiedName ?? ""))
    .slice(0, 2);
  const lead = `The flow starts at ${entryText}, which calls nothing else in the index`;
  if (next.length === 0) return `${lead}.`;
  const named = next.map((i) => `${code(i.facts?.qualifiedName ?? "")} (${cite(i)})`);
  return `${lead}; the code it most likely goes on to is ${joinWords(named)}.`;
}

/**
 * A flow step's citation: its whole definition, or when that is longer than an opening
 * should point at, the lines of it retrieval matched (the step's item in context), else the
 * line where it calls the next step of the chain, else its first lines. An opening never
 * cites more than MAX_CITED_LINES lines.
 */
function stepCitation(s: FlowStep, symbols: ContextItem[], next?: FlowStep): string {
  const [start, end] = s.lines.split("-").map(Number) as [number, number];
  if (end - start < MAX_CITED_LINES) return `${s.path}:${s.lines}`;
  const own = symbols.filter((i) => i.path === s.path && i.startLine === start);
  const focused = own.find((i) => i.focus && i.focus.endLine - i.focus.startLine < MAX_CITED_LINES);
  if (focused) return cite(focused);
  const callee = next?.name.split(/[.:#]/).pop();
  if (callee) {
    const call = new RegExp(`(?<![\\w$])${callee.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*\\(`);
    for (const item of own) {
      const at = item.text.split("\n").findIndex((line) => call.test(line));
      const line = item.startLine + at;
      if (at >= 0 && line <= item.endLine) return `${s.path}:${line}-${line}`;
    }
  }
  return `${s.path}:${start}-${start + MAX_CITED_LINES - 1}`;
}
