/**
 * The types built on a named type ("which classes implement INotificationPublisher?",
 * "which validators extend the comparison base class?", "what subclasses Store?"): the
 * classes, structs and interfaces whose declarations name it as a base, interface or
 * mixin (the index's `inherits` edges), and one level further down. A call graph never
 * shows them — implementing an interface calls nothing — so a question about them is
 * answered from the declarations: the subject's file, then theirs.
 */
import "server-only";
import {
  inheritorsOf,
  symbolsByName,
  symbolsByQualifiedIds,
  symbolsByQualifiedName,
  symbolsInFile,
  type SymbolRecord,
} from "../../db/code-graph.ts";
import { getFileContent } from "../../db/index-reads.ts";
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
  /** of a structural match: the interface's methods it defines */
  methods?: string[];
}

/** The types built on the subject, or null when it is no type or nothing builds on it. */
export async function implementers(f: Focus, target: SymbolRecord): Promise<Analysis | null> {
  if (!TYPE_KINDS.has(target.kind)) return null;
  const declared = await inheritorsTree(f, target);
  // An interface nothing names as its base is implemented structurally (Go, TypeScript,
  // Python protocols): the types defining every one of its methods.
  const found = declared.length ? declared : await structuralImplementers(f, target);
  if (found.length === 0) return null;
  const structural = declared.length === 0;
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
    `${direct.length === 1 ? "builds" : "build"} on ${code(target.qualifiedName)} (${cite(target)}), ` +
    `${structural ? `defining every one of its methods (${joinWords(methodsOf(found).map(code))})` : "naming it as a base or interface"}: ` +
    `${joinWords(withRest(listed, direct.length))}${furtherText}.`;
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

/** The methods a structural match was made on (kept on each match's `methods`). */
function methodsOf(found: Inheritor[]): string[] {
  return found[0]?.methods ?? [];
}

/** How many types with a method of the interface's names are read at most, per name. */
const PER_METHOD = 200;

/**
 * The types whose methods cover an interface's (Go's `type Formatter interface { Format(…) }`
 * met by `TextFormatter.Format` and `JSONFormatter.Format`), code kept (tests left out
 * unless asked); the interface's methods are its member symbols, or read from its body
 * where the index keeps none (Go and TypeScript interfaces).
 */
async function structuralImplementers(f: Focus, target: SymbolRecord): Promise<Inheritor[]> {
  const methods = await interfaceMethods(f.generationId, target);
  if (methods.length === 0) return [];
  const owners = new Map<string, { methods: Set<string>; first: SymbolRecord }>();
  for (const name of methods)
    for (const s of await symbolsByName(f.generationId, name, PER_METHOD)) {
      if (s.kind !== "method" || !f.keep(s.path) || !f.keepName(s.qualifiedName)) continue;
      const owner = s.qualifiedName.split(".").slice(0, -1).join(".");
      // A type by its name and folder: a Go type's methods may be in several files of its package.
      const key = `${folderOf(s.path)}/${owner}`;
      if (!owner || key === `${folderOf(target.path)}/${target.qualifiedName}`) continue;
      const entry = owners.get(key) ?? { methods: new Set<string>(), first: s };
      entry.methods.add(name);
      owners.set(key, entry);
    }
  const complete = [...owners.values()].filter((o) => o.methods.size === methods.length);
  const out: Inheritor[] = [];
  for (const o of complete) {
    const owner = o.first.qualifiedName.split(".").slice(0, -1).join(".");
    const types = (await symbolsByQualifiedName(f.generationId, owner)).filter(
      (t) => TYPE_KINDS.has(t.kind) && folderOf(t.path) === folderOf(o.first.path),
    );
    const symbol = types.find((t) => t.path === o.first.path) ?? types[0] ?? o.first;
    out.push({ symbol, depth: 1, base: target, methods });
  }
  return out.sort(
    (a, b) => a.symbol.path.localeCompare(b.symbol.path) || a.symbol.startLine - b.symbol.startLine,
  );
}

function folderOf(path: string): string {
  return path.split("/").slice(0, -1).join("/");
}

/** An interface's method names: its member symbols, else the names declared with parameters in its body. */
async function interfaceMethods(generationId: string, target: SymbolRecord): Promise<string[]> {
  const prefix = `${target.qualifiedName}.`;
  const members = (await symbolsInFile(generationId, target.path))
    .filter((s) => s.qualifiedName.startsWith(prefix) && !s.qualifiedName.slice(prefix.length).includes("."))
    .filter((s) => s.kind === "method" || s.kind === "function")
    .map((s) => s.name)
    .filter((n) => !/^(?:__\w+__|constructor)$/.test(n));
  if (members.length) return [...new Set(members)];
  if (target.kind !== "interface" && target.kind !== "trait") return [];
  const text = await getFileContent(generationId, target.path);
  if (!text) return [];
  const body = text.split("\n").slice(target.startLine, Math.max(target.startLine, target.endLine - 1));
  const names = body.flatMap((line) => {
    const m = METHOD_LINE.exec(line);
    return m?.[1] ? [m[1]] : [];
  });
  return [...new Set(names)];
}

/** A method declared in an interface's body: `Format(*Entry) ([]byte, error)`, `fire(e: Entry): void;`, `fn name(&self)`. */
const METHOD_LINE =
  /^\s*(?:(?:readonly|public|abstract|fn|func|def)\s+)?([A-Za-z_]\w*)\s*\??\s*(?:<[^>]*>\s*)?\(/;

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
