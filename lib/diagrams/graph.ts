/**
 * The drawing rules every diagram builder follows, on a small graph model: at most
 * about a dozen nodes (the rest are folded into "+ N more in folder/" nodes, their
 * edges summed onto them), edges weighted by how many imports or calls they stand for,
 * and one serialisation to mermaid flowchart source. Builders (lib/wiki/diagrams.ts,
 * the exploratory retriever) decide which nodes matter most by their order.
 */
import type { DiagramNode, DiagramPart, NodeShape } from "./types.ts";

/** A diagram with more nodes than this is hard to read: the least important are grouped. */
export const MAX_DIAGRAM_NODES = 12;
/** Beyond this many arrows the picture turns into a hairball; the lightest are left out. */
export const MAX_DIAGRAM_EDGES = 18;
/** "+ N more" nodes a picture may have: beyond that they crowd out the nodes it is about. */
const MAX_GROUP_NODES = 3;

export interface GraphNode {
  id: string;
  label: string;
  path: string | null;
  startLine: number | null;
  endLine: number | null;
  shape: NodeShape;
  /** the subgraph (group box) it is drawn in, if any */
  group: string | null;
  /** where it is grouped when left out: "+ 3 more files in <folder>/" */
  folder: string | null;
  /** what it is, in the plural, for the group it may be folded into ("files", "folders", "functions") */
  noun: string;
  cycle?: boolean;
}

export interface GraphEdge {
  from: string;
  to: string;
  /** imports or calls the arrow stands for */
  weight: number;
}

export interface DiagramGraph {
  direction: "LR" | "TD";
  groups: { id: string; label: string }[];
  /** most important first: capping keeps the head of the list */
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export interface CappedGraph {
  graph: DiagramGraph;
  /** nodes folded into "+ N more" nodes */
  groupedNodes: number;
  /** the lightest edges left out */
  droppedEdges: number;
}

/** Mermaid label text: quotes and angle brackets would end or inject markup. */
export function escapeLabel(text: string): string {
  return text.replace(/["<>]/g, "'").replace(/[\n\r]/g, " ");
}

/** "+ 9 more files in test/", "+ 3 more folders" (no common folder). */
export function moreLabel(count: number, noun: string, folder: string | null): string {
  if (!folder || folder === ".") return `+ ${count} more ${noun}`;
  return `+ ${count} more ${noun} in ${folder.endsWith("/") || /\.[A-Za-z0-9]+$/.test(folder) ? folder : `${folder}/`}`;
}

function bucketKey(node: GraphNode): string {
  return `${node.group ?? ""}\n${node.folder ?? ""}\n${node.noun}`;
}

/** The plural noun of a group's members ("files"), or "nodes" when they are of several kinds. */
function nounOf(members: GraphNode[]): string {
  const nouns = new Set(members.map((m) => m.noun));
  return nouns.size === 1 ? (members[0] as GraphNode).noun : "nodes";
}

function bucketsOf(nodes: GraphNode[]): GraphNode[][] {
  const buckets = new Map<string, GraphNode[]>();
  for (const node of nodes) buckets.set(bucketKey(node), [...(buckets.get(bucketKey(node)) ?? []), node]);
  return [...buckets.values()];
}

/**
 * Which nodes stay and how the rest are bucketed so the picture has at most `max`
 * nodes: as many of the most important as possible with one bucket per folder; when
 * the rest span more folders than a few "+ N more" nodes can name, the biggest folders
 * keep their bucket and the others share one "+ N more".
 */
function partition(nodes: GraphNode[], max: number): { kept: GraphNode[]; buckets: GraphNode[][] } {
  if (nodes.length <= max) return { kept: nodes, buckets: [] };
  const least = max - MAX_GROUP_NODES;
  for (let keep = max - 1; keep >= least; keep--) {
    const buckets = bucketsOf(nodes.slice(keep));
    if (keep + buckets.length <= max) return { kept: nodes.slice(0, keep), buckets };
  }
  const bySize = bucketsOf(nodes.slice(least)).sort((a, b) => b.length - a.length);
  const own = bySize.slice(0, max - least - 1);
  const merged = bySize.slice(max - least - 1).flat();
  const groups = new Set(merged.map((n) => n.group));
  const shared = merged.map((n) => ({
    ...n,
    folder: null,
    group: groups.size === 1 ? n.group : null,
  }));
  return { kept: nodes.slice(0, least), buckets: [...own, shared] };
}

/**
 * Keeps the most important nodes and folds the rest into one "+ N more in folder/"
 * node per folder (and group box), so the picture has at most `maxNodes` nodes; edges
 * to folded nodes go to their group node with the weights summed. Then keeps the
 * `maxEdges` heaviest edges.
 */
export function capGraph(
  graph: DiagramGraph,
  maxNodes = MAX_DIAGRAM_NODES,
  maxEdges = MAX_DIAGRAM_EDGES,
): CappedGraph {
  const { kept, buckets } = partition(graph.nodes, maxNodes);
  const representative = new Map<string, string>(kept.map((n) => [n.id, n.id]));
  const nodes = [...kept];
  let grouped = 0;
  for (const members of buckets) {
    const first = members[0] as GraphNode;
    if (members.length === 1) {
      const original = graph.nodes.find((n) => n.id === first.id) ?? first;
      nodes.push(original);
      representative.set(first.id, first.id);
      continue;
    }
    const id = `more${nodes.length}`;
    nodes.push({
      id,
      label: moreLabel(members.length, nounOf(members), first.folder),
      path: null,
      startLine: null,
      endLine: null,
      shape: "more",
      group: first.group,
      folder: first.folder,
      noun: nounOf(members),
    });
    for (const m of members) representative.set(m.id, id);
    grouped += members.length;
  }
  const grouping = new Set(nodes.filter((n) => n.shape === "more").map((n) => n.id));
  const weights = new Map<string, GraphEdge>();
  for (const edge of graph.edges) {
    const from = representative.get(edge.from);
    const to = representative.get(edge.to);
    // Between two "+ N more" nodes an arrow says nothing about any code the picture shows.
    if (!from || !to || from === to || (grouping.has(from) && grouping.has(to))) continue;
    const key = `${from}\n${to}`;
    const known = weights.get(key);
    if (known) known.weight += edge.weight;
    else weights.set(key, { from, to, weight: edge.weight });
  }
  const all = [...weights.values()];
  // Over the cap, arrows between drawn nodes go before arrows to "+ N more" nodes, heaviest first.
  const named = (e: GraphEdge) => Number(!grouping.has(e.from)) + Number(!grouping.has(e.to));
  const edges =
    all.length > maxEdges
      ? [...all].sort((a, b) => named(b) - named(a) || b.weight - a.weight).slice(0, maxEdges)
      : all;
  const groups = graph.groups.filter((g) => nodes.some((n) => n.group === g.id));
  return {
    graph: { direction: graph.direction, groups, nodes, edges },
    groupedNodes: grouped,
    droppedEdges: all.length - edges.length,
  };
}

const OPEN: Record<NodeShape, [string, string]> = {
  box: ['["', '"]'],
  module: ['(["', '"])'],
  more: ['["', '"]'],
};

/** The graph as mermaid flowchart source (the subset lib/diagrams/mermaid.ts reads back). */
export function toMermaid(graph: DiagramGraph): string {
  const lines = [`graph ${graph.direction}`];
  const declare = (n: GraphNode, indent: string) => {
    const [open, close] = OPEN[n.shape];
    lines.push(`${indent}${n.id}${open}${escapeLabel(n.label)}${close}`);
  };
  for (const group of graph.groups) {
    lines.push(`  subgraph ${group.id}["${escapeLabel(group.label)}"]`);
    for (const n of graph.nodes) if (n.group === group.id) declare(n, "    ");
    lines.push("  end");
  }
  for (const n of graph.nodes) if (!n.group || !graph.groups.some((g) => g.id === n.group)) declare(n, "  ");
  for (const e of graph.edges)
    lines.push(e.weight > 1 ? `  ${e.from} -->|${e.weight}| ${e.to}` : `  ${e.from} --> ${e.to}`);
  const cycle = graph.nodes.filter((n) => n.cycle).map((n) => n.id);
  const more = graph.nodes.filter((n) => n.shape === "more").map((n) => n.id);
  if (cycle.length)
    lines.push("  classDef cycle stroke:#b42318,stroke-width:2px", `  class ${cycle.join(",")} cycle`);
  if (more.length) lines.push("  classDef more stroke-dasharray:4 3", `  class ${more.join(",")} more`);
  return lines.join("\n");
}

/** A diagram part from a capped graph: its mermaid source and the nodes that link somewhere. */
export function diagramPart(kind: DiagramPart["kind"], title: string, graph: DiagramGraph): DiagramPart {
  const nodes: DiagramNode[] = graph.nodes.map((n) => ({
    id: n.id,
    label: n.label,
    path: n.path,
    startLine: n.startLine,
    endLine: n.endLine,
  }));
  return { kind, title, mermaid: toMermaid(graph), nodes };
}
