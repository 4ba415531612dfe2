/**
 * How a model answerer sees the context: one fenced block per item with its location,
 * and the evidence graph as one line per relation.
 */
import { citeItem } from "./cite.ts";
import type { ContextItem, EvidenceGraph } from "./contract.ts";

/** Renders context for a prompt, one fenced block per item with its location header. */
export function renderContext(items: ContextItem[]): string {
  return items
    .map((item) => {
      const where = item.path ? `${item.path}:${item.startLine}-${item.endLine}` : item.title;
      const lang = item.kind === "symbol" ? "" : "text";
      // Where in a long item the question's words are: the lines to cite.
      const focus = item.focus ? ` (matches at ${citeItem(item)})` : "";
      return `### ${where} — ${item.title}${item.truncated ? " (truncated)" : ""}${focus}\n\`\`\`${lang}\n${item.text}\n\`\`\``;
    })
    .join("\n\n");
}

/** One line per triple, grouped by subject, for prompts. */
export function linearizeGraph(graph: EvidenceGraph, maxLines = 80): string {
  const lines = graph.triples.slice(0, maxLines).map((t) => {
    const where =
      t.objectPath && t.objectLines
        ? ` (${t.objectPath}:${t.objectLines[0]}-${t.objectLines[1]}${t.inContext ? "" : ", not in context"})`
        : "";
    const object = t.relation === "emits" ? JSON.stringify(t.object) : t.object;
    return `(${t.subject}) -[${t.relation}]-> (${object})${where}`;
  });
  if (graph.triples.length > maxLines) lines.push(`… ${graph.triples.length - maxLines} more relations`);
  return lines.join("\n");
}
