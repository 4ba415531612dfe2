/**
 * Reads mermaid flowchart source back into a graph: the subset Wayfinder's diagram
 * builders write (graph direction, subgraphs, boxes and stadiums with quoted labels,
 * arrows with an optional weight, `class` lines), which is also what answers stored
 * before diagrams were drawn on the server carry. Anything else is refused with the
 * line it stopped at, so a page shows the source instead of a wrong picture.
 */
import type { NodeShape } from "./types.ts";

export interface ParsedNode {
  id: string;
  label: string;
  shape: NodeShape;
  group: string | null;
  classes: string[];
}

export interface ParsedEdge {
  from: string;
  to: string;
  label: string | null;
}

export interface ParsedDiagram {
  direction: "LR" | "TD";
  groups: { id: string; label: string; parent: string | null }[];
  nodes: ParsedNode[];
  edges: ParsedEdge[];
}

export class DiagramSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DiagramSyntaxError";
  }
}

const ID = String.raw`[A-Za-z_][\w-]*`;
const HEADER = /^(?:graph|flowchart)\s+(LR|RL|TD|TB|BT)\s*;?$/;
const SUBGRAPH = new RegExp(String.raw`^subgraph\s+(${ID})(?:\s*\["((?:[^"\\]|\\.)*)"\])?$`);
const OPENER = String.raw`(\(\[|\[|\(|\{)`;
const CLOSER = String.raw`(\]\)|\]|\)|\})`;
const QUOTED_NODE = new RegExp(String.raw`^(${ID})${OPENER}"((?:[^"\\]|\\.)*)"${CLOSER}$`);
const BARE_NODE = new RegExp(String.raw`^(${ID})${OPENER}([^"[\](){}]*)${CLOSER}$`);
const EDGE = new RegExp(String.raw`^(${ID})\s*(?:-->|-\.->|==>)\s*(?:\|([^|]*)\|\s*)?(${ID})$`);
const CLASS = new RegExp(String.raw`^class\s+(${ID}(?:\s*,\s*${ID})*)\s+(${ID})$`);
const IGNORED = /^(?:classDef|style|linkStyle|click)\s|^%%/;

const SHAPES: Record<string, NodeShape> = { "([": "module", "[": "box", "(": "box", "{": "box" };
const CLOSERS: Record<string, string> = { "([": "])", "[": "]", "(": ")", "{": "}" };

export function parseMermaid(source: string): ParsedDiagram {
  const lines = source
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l);
  const header = HEADER.exec(lines[0] ?? "");
  if (!header) throw new DiagramSyntaxError(`expected "graph LR" or "graph TD", found "${lines[0] ?? ""}"`);
  const direction = header[1] === "LR" || header[1] === "RL" ? "LR" : "TD";
  const groups: ParsedDiagram["groups"] = [];
  const nodes = new Map<string, ParsedNode>();
  const edges: ParsedEdge[] = [];
  const open: string[] = [];
  const ensure = (id: string) => {
    if (!nodes.has(id) && !groups.some((g) => g.id === id))
      nodes.set(id, { id, label: id, shape: "box", group: open.at(-1) ?? null, classes: [] });
  };
  for (const line of lines.slice(1)) {
    if (IGNORED.test(line)) continue;
    if (line === "end") {
      if (!open.pop()) throw new DiagramSyntaxError(`"end" without a subgraph`);
      continue;
    }
    const subgraph = SUBGRAPH.exec(line);
    if (subgraph) {
      const id = subgraph[1] as string;
      groups.push({ id, label: unescape(subgraph[2] ?? id), parent: open.at(-1) ?? null });
      open.push(id);
      continue;
    }
    const node = QUOTED_NODE.exec(line) ?? BARE_NODE.exec(line);
    if (node) {
      const [, id = "", opener = "", label = "", closer = ""] = node;
      if (CLOSERS[opener] !== closer) throw new DiagramSyntaxError(`unbalanced brackets in "${line}"`);
      nodes.set(id, {
        id,
        label: unescape(label),
        shape: SHAPES[opener] ?? "box",
        group: open.at(-1) ?? null,
        classes: nodes.get(id)?.classes ?? [],
      });
      continue;
    }
    const edge = EDGE.exec(line);
    if (edge) {
      const [, from = "", label, to = ""] = edge;
      ensure(from);
      ensure(to);
      edges.push({ from, to, label: label?.trim() || null });
      continue;
    }
    const cls = CLASS.exec(line);
    if (cls) {
      for (const id of (cls[1] as string).split(",").map((s) => s.trim())) {
        const target = nodes.get(id);
        if (target) target.classes.push(cls[2] as string);
      }
      continue;
    }
    throw new DiagramSyntaxError(`cannot read "${line}"`);
  }
  if (open.length) throw new DiagramSyntaxError(`subgraph "${open.at(-1)}" is not closed`);
  if (nodes.size === 0) throw new DiagramSyntaxError("the diagram has no nodes");
  for (const n of nodes.values()) if (n.classes.includes("more")) n.shape = "more";
  return { direction, groups, nodes: [...nodes.values()], edges };
}

function unescape(label: string): string {
  return label.replace(/\\(.)/g, "$1").replace(/#quot;/g, '"');
}
