/**
 * Diagrams built from index edges, never written by a model: the module dependency
 * graph (overview, analytical answers), a directory's file imports, and a file's call
 * neighbourhood. Each builder orders its nodes by importance and leaves the drawing
 * rules to lib/diagrams/graph.ts (at most about a dozen nodes, the rest grouped by
 * folder, edges weighted). Each node carries its source location so the drawing can
 * link it. Pure functions: edges in, DiagramPart out.
 */
import {
  capGraph,
  diagramPart,
  type DiagramGraph,
  type GraphEdge,
  type GraphNode,
} from "../diagrams/graph.ts";
import type { DiagramPart } from "../diagrams/types.ts";
import type { CallRow } from "../db/wiki-inputs.ts";
import { dirOf } from "./slugs.ts";

export { escapeLabel } from "../diagrams/graph.ts";

export interface ModuleEdge {
  from: string;
  to: string;
  count: number;
}

/** The top-level folder a folder or file is grouped under when left out ("." for the root). */
function topFolder(path: string): string {
  const slash = path.indexOf("/");
  return slash < 0 ? "." : path.slice(0, slash);
}

function node(id: string, label: string, fields: Partial<GraphNode> & Pick<GraphNode, "noun">): GraphNode {
  return {
    id,
    label,
    path: null,
    startLine: null,
    endLine: null,
    shape: "box",
    group: null,
    folder: null,
    ...fields,
  };
}

/** Aggregated counts of `key` over items, most frequent first. */
function countBy<T>(items: T[], key: (item: T) => string): [string, number][] {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** Edges between node ids, one per pair with the number of underlying edges as its weight. */
function weighted(pairs: [string | undefined, string | undefined][]): GraphEdge[] {
  const edges = new Map<string, GraphEdge>();
  for (const [from, to] of pairs) {
    if (!from || !to || from === to) continue;
    const key = `${from}\n${to}`;
    const known = edges.get(key);
    if (known) known.weight++;
    else edges.set(key, { from, to, weight: 1 });
  }
  return [...edges.values()];
}

/** What a title adds about the arrows left out (grouped nodes say so themselves: "+ 9 more in test/"). */
function leftOut(dropped: number): string {
  return dropped ? ` (the ${dropped} lightest link${dropped === 1 ? "" : "s"} not drawn)` : "";
}

/** The busiest modules and their import edges; cycle members are outlined. */
export function moduleDiagram(
  modules: { name: string; fanIn: number; fanOut: number }[],
  edges: ModuleEdge[],
  files: string[],
  cycles: string[][],
): DiagramPart | null {
  const ranked = [...modules].sort((a, b) => b.fanIn + b.fanOut - (a.fanIn + a.fanOut));
  if (ranked.length === 0) return null;
  const ids = new Map(ranked.map((m, i) => [m.name, `m${i}`]));
  const inCycle = new Set(cycles.flat());
  const firstFile = (module: string) => files.find((f) => dirOf(f) === module) ?? null;
  const graph: DiagramGraph = {
    direction: "LR",
    groups: [],
    nodes: ranked.map((m) => {
      const first = firstFile(m.name);
      return node(ids.get(m.name) as string, m.name === "." ? "(root)" : m.name, {
        path: first,
        startLine: first ? 1 : null,
        folder: m.name === "." ? null : topFolder(m.name),
        noun: "folders",
        cycle: inCycle.has(m.name),
      });
    }),
    edges: edges
      .filter((e) => ids.has(e.from) && ids.has(e.to) && e.from !== e.to)
      .map((e) => ({ from: ids.get(e.from) as string, to: ids.get(e.to) as string, weight: e.count })),
  };
  const capped = capGraph(graph);
  return diagramPart(
    "dependencies",
    `Module dependencies: imports between folders${leftOut(capped.droppedEdges)}`,
    capped.graph,
  );
}

/** Symbols of a file drawn before the files around it. */
const FILE_SYMBOLS = 5;

export interface DiagramSymbol {
  qualifiedId: string;
  qualifiedName: string;
  startLine: number;
  endLine: number;
}

/** A resolved call between two symbols, as the wiki's inputs read it. */
export type DiagramCall = CallRow;

/**
 * A file's call neighbourhood: its busiest symbols, the files they call into and the
 * files calling them (aggregated per file so the picture stays small).
 */
export function fileCallDiagram(
  path: string,
  symbols: DiagramSymbol[],
  callsOut: DiagramCall[],
  callsIn: DiagramCall[],
): DiagramPart | null {
  const byId = new Map(symbols.map((s) => [s.qualifiedId, s]));
  const degree = new Map<string, number>();
  const bump = (id: string) => degree.set(id, (degree.get(id) ?? 0) + 1);
  for (const c of callsOut) if (byId.has(c.srcId)) bump(c.srcId);
  for (const c of callsIn) if (byId.has(c.dstId)) bump(c.dstId);
  for (const c of callsOut) if (c.dstPath === path && byId.has(c.dstId)) bump(c.dstId);
  const shown = [...degree.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([id]) => byId.get(id) as DiagramSymbol);
  if (shown.length === 0) return null;
  const symbolIds = new Map(shown.map((s, i) => [s.qualifiedId, `s${i}`]));
  const outFiles = countBy(
    callsOut.filter((c) => c.dstPath !== path && symbolIds.has(c.srcId)),
    (c) => c.dstPath,
  );
  const inFiles = countBy(
    callsIn.filter((c) => c.srcPath !== path && symbolIds.has(c.dstId)),
    (c) => c.srcPath,
  );
  // Files by how many calls they exchange with this one, busiest first.
  const traffic = new Map<string, number>();
  for (const [file, n] of [...outFiles, ...inFiles]) traffic.set(file, (traffic.get(file) ?? 0) + n);
  const files = [...traffic].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([f]) => f);
  const fileIds = new Map(files.map((f, i) => [f, `f${i}`]));
  // Symbols and files alternate in importance: the busiest of each stay when capped.
  const symbolNodes = shown.map((s) =>
    node(symbolIds.get(s.qualifiedId) as string, s.qualifiedName, {
      path,
      startLine: s.startLine,
      endLine: s.endLine,
      group: "here",
      noun: "symbols",
    }),
  );
  const fileNodes = files.map((f) =>
    node(fileIds.get(f) as string, f, { path: f, shape: "module", folder: dirOf(f), noun: "files" }),
  );
  // The busiest few symbols, then the files they talk to, then the rest: capping keeps the head.
  const ordered = [...symbolNodes.slice(0, FILE_SYMBOLS), ...fileNodes, ...symbolNodes.slice(FILE_SYMBOLS)];
  const edges = weighted([
    ...callsOut.map((c): [string | undefined, string | undefined] => [
      symbolIds.get(c.srcId),
      c.dstPath === path ? symbolIds.get(c.dstId) : fileIds.get(c.dstPath),
    ]),
    ...callsIn
      .filter((c) => c.srcPath !== path)
      .map((c): [string | undefined, string | undefined] => [fileIds.get(c.srcPath), symbolIds.get(c.dstId)]),
  ]);
  const capped = capGraph({ direction: "LR", groups: [{ id: "here", label: path }], nodes: ordered, edges });
  return diagramPart("call-flow", `Calls in and out of ${path}${leftOut(capped.droppedEdges)}`, capped.graph);
}

/**
 * A directory's files and the imports between them and the modules around them: the
 * most connected files and the modules most imported to or from, the rest grouped.
 */
export function directoryImportDiagram(
  dir: string,
  files: string[],
  imports: { srcPath: string; dstPath: string }[],
): DiagramPart | null {
  const own = new Set(files);
  const touching = imports.filter((e) => own.has(e.srcPath) || own.has(e.dstPath));
  const degree = new Map<string, number>();
  for (const e of touching) {
    if (own.has(e.srcPath)) degree.set(e.srcPath, (degree.get(e.srcPath) ?? 0) + 1);
    if (own.has(e.dstPath)) degree.set(e.dstPath, (degree.get(e.dstPath) ?? 0) + 1);
  }
  const shown = [...files].sort((a, b) => (degree.get(b) ?? 0) - (degree.get(a) ?? 0) || a.localeCompare(b));
  if (shown.length === 0) return null;
  const fileIds = new Map(shown.map((f, i) => [f, `f${i}`]));
  const outside = (path: string) => !own.has(path);
  const modules = countBy(
    touching.flatMap((e) => [e.srcPath, e.dstPath].filter(outside).map((p) => ({ module: dirOf(p) }))),
    (m) => m.module,
  );
  const moduleIds = new Map(modules.map(([m], i) => [m, `m${i}`]));
  const firstFileOf = (module: string) =>
    touching.map((e) => (outside(e.dstPath) ? e.dstPath : e.srcPath)).find((p) => dirOf(p) === module) ??
    null;
  const fileNodes = shown.map((f) =>
    node(fileIds.get(f) as string, f.slice(dir.length + 1) || f, {
      path: f,
      group: "here",
      folder: dirOf(f),
      noun: "files",
    }),
  );
  const moduleNodes = modules.map(([m]) =>
    node(moduleIds.get(m) as string, m === "." ? "(root)" : m, {
      path: firstFileOf(m),
      shape: "module",
      folder: m === "." ? null : topFolder(m),
      noun: "folders",
    }),
  );
  // Two of the folder's own files for each module around it, so both sides stay visible when capped.
  const ordered: GraphNode[] = [];
  for (let i = 0; ordered.length < fileNodes.length + moduleNodes.length; i++) {
    ordered.push(...fileNodes.slice(2 * i, 2 * i + 2));
    const m = moduleNodes[i];
    if (m) ordered.push(m);
  }
  const idOf = (path: string) => (own.has(path) ? fileIds.get(path) : moduleIds.get(dirOf(path)));
  const edges = weighted(touching.map((e) => [idOf(e.srcPath), idOf(e.dstPath)]));
  const capped = capGraph({ direction: "LR", groups: [{ id: "here", label: dir }], nodes: ordered, edges });
  return diagramPart("dependencies", `Imports of ${dir}${leftOut(capped.droppedEdges)}`, capped.graph);
}
