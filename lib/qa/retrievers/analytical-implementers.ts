/**
 * The types built on a named type ("which classes implement INotificationPublisher?",
 * "which validators extend the comparison base class?", "what subclasses Store?"): the
 * classes, structs and interfaces whose declarations name it as a base, interface or
 * mixin (the index's `inherits` edges), and one level further down. A call graph never
 * shows them — implementing an interface calls nothing — so a question about them is
 * answered from the declarations: the subject's file, then theirs.
 */
import "server-only";
import { inheritorsOf, symbolsByQualifiedIds, type SymbolRecord } from "../../db/code-graph.ts";
import { escapeLabel } from "../../wiki/structure.ts";
import type { DiagramNode, DiagramPart } from "../types.ts";
import { cite, code, joinWords, named, type Analysis, type Focus } from "./analytical-focus.ts";
import { symbolNode } from "./subject-graph.ts";

/** Whether the question asks for the types built on its subject rather than its callers. */
export function asksImplementers(question: string): boolean {
  return /\b(?:which|what|list|find)\b[^?]{0,60}?\b(?:implement|extend|subclass|inherit from|derive from|specialize)s?\b|\bimplement(?:ations|ers|ors) of\b|\bsub-?(?:classes|types) of\b|\b(?:are|is) (?:built|based) on (?:the |a |an )?[\w' -]{0,40}\b(?:base|abstract|parent) (?:class|type)\b|\b(?:derived|child) (?:classes|types) of\b/i.test(
    question,
  );
}

const TYPE_KINDS = new Set(["class", "struct", "interface", "trait", "module", "type", "enum"]);

/** How many types the answer and the diagram name at most. */
const LISTED = 11;

interface Inheritor {
  symbol: SymbolRecord;
  /** 1: names the subject as its base; 2: builds on one of those */
  depth: 1 | 2;
  /** the type it builds on */
  base: SymbolRecord;
}

/** The types built on the subject, or null when it is no type or nothing builds on it. */
export async function implementers(f: Focus, target: SymbolRecord): Promise<Analysis | null> {
  if (!TYPE_KINDS.has(target.kind)) return null;
  const found = await inheritorsTree(f, target);
  if (found.length === 0) return null;
  const direct = found.filter((i) => i.depth === 1);
  const further = found.filter((i) => i.depth === 2);
  const files = [...new Set(direct.map((i) => i.symbol.path))];
  const listed = direct.slice(0, 3).map((i) => named(i.symbol));
  // Those one level further are named too when the direct ones are few (an abstract base
  // between an interface and its concrete classes): they are what the question is after.
  const room = Math.max(0, 4 - listed.length);
  const furtherListed = further.slice(0, room).map((i) => named(i.symbol));
  const furtherText = further.length
    ? `; ${further.length} more build on ${direct.length === 1 ? "it" : "those"}` +
      (furtherListed.length ? `: ${joinWords(withRest(furtherListed, further.length))}` : "")
    : "";
  const answer =
    `${direct.length} type${direct.length === 1 ? "" : "s"} in ${files.length} file${files.length === 1 ? "" : "s"} ` +
    `${direct.length === 1 ? "builds" : "build"} on ${code(target.qualifiedName)} (${cite(target)}), naming it as ` +
    `a base or interface: ${joinWords(withRest(listed, direct.length))}${furtherText}.`;
  const lines = [
    `- Subject: ${target.qualifiedName} — ${cite(target)}`,
    `- Built on it: ${direct.length} in ${files.length} file${files.length === 1 ? "" : "s"}; ${further.length} more one level further`,
    ...found.map(
      (i) =>
        `  - ${i.depth === 1 ? "" : `through ${code(i.base.qualifiedName)}: `}${code(i.symbol.qualifiedName)} (${cite(i.symbol)})`,
    ),
  ];
  const all = [...new Set(found.map((i) => i.symbol.path))];
  return {
    answer,
    lines,
    // The hierarchy's root, then the types built on it: the files the figure draws, in its order.
    files: [...new Set([target.path, ...all])],
    symbols: [...direct.map((i) => i.symbol), target, ...further.map((i) => i.symbol)],
    diagram: inheritanceDiagram(target, found),
    report: null,
  };
}

/** The names listed, then how many of the `total` are not (`A, B and 2 more`). */
function withRest(listed: string[], total: number): string[] {
  return total > listed.length ? [...listed, `${total - listed.length} more`] : listed;
}

/** The types naming the subject as a base, then those naming one of them, code kept (tests left out unless asked). */
async function inheritorsTree(f: Focus, target: SymbolRecord): Promise<Inheritor[]> {
  const out: Inheritor[] = [];
  const seen = new Set([target.qualifiedId]);
  let level: SymbolRecord[] = [target];
  for (const depth of [1, 2] as const) {
    const edges = await inheritorsOf(
      f.generationId,
      level.map((s) => s.qualifiedId),
    );
    const ids = [...new Set(edges.map((e) => e.srcId))].filter((id) => !seen.has(id));
    const records = new Map(
      (await symbolsByQualifiedIds(f.generationId, ids)).map((s) => [s.qualifiedId, s]),
    );
    const bases = new Map(level.map((s) => [s.qualifiedId, s]));
    const next: SymbolRecord[] = [];
    for (const e of edges) {
      const s = records.get(e.srcId);
      const base = bases.get(e.dstId);
      if (!s || !base || seen.has(s.qualifiedId) || !f.keep(s.path)) continue;
      seen.add(s.qualifiedId);
      out.push({ symbol: s, depth, base });
      next.push(s);
    }
    level = next;
    if (level.length === 0) break;
  }
  return out.sort(
    (a, b) =>
      a.depth - b.depth ||
      a.symbol.path.localeCompare(b.symbol.path) ||
      a.symbol.startLine - b.symbol.startLine,
  );
}

/** The subject with the types built on it (at most a dozen nodes; the rest counted in one). */
function inheritanceDiagram(target: SymbolRecord, found: Inheritor[]): DiagramPart {
  const shown = found.length > LISTED ? found.slice(0, LISTED - 1) : found;
  const ids = new Map<string, string>([[target.qualifiedId, "s0"]]);
  const nodes: DiagramNode[] = [symbolNode("s0", target)];
  for (const i of shown) {
    const id = `n${nodes.length}`;
    ids.set(i.symbol.qualifiedId, id);
    nodes.push(symbolNode(id, i.symbol));
  }
  const lines = ["graph BT", ...nodes.map((n) => `  ${n.id}["${escapeLabel(n.label)}"]`)];
  for (const i of shown)
    lines.push(`  ${ids.get(i.symbol.qualifiedId)} --> ${ids.get(i.base.qualifiedId) ?? "s0"}`);
  const left = found.length - shown.length;
  if (left > 0) {
    lines.push(`  more["+ ${left} more types"]`, "  more --> s0");
    nodes.push({ id: "more", label: `+ ${left} more types`, path: null, startLine: null, endLine: null });
  }
  return {
    kind: "dependencies",
    title: `Types built on ${target.qualifiedName}`,
    mermaid: lines.join("\n"),
    nodes,
  };
}
