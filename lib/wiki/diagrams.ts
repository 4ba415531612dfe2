/**
 * Mermaid diagrams built from index edges, never written by a model: the module
 * dependency graph (overview, analytical answers), a directory's file imports, and a
 * file's call neighbourhood. Each diagram's nodes carry source locations so the
 * renderer can link them. Pure functions: edges in, DiagramPart out.
 */
import type { DiagramNode, DiagramPart } from "../qa/types.ts";
import { dirOf } from "./slugs.ts";

export interface ModuleEdge {
  from: string;
  to: string;
  count: number;
}

export function escapeLabel(text: string): string {
  return text.replace(/["<>]/g, "'").replace(/[\n\r]/g, " ");
}

/** A mermaid graph of the busiest modules and their import edges; cycle members are outlined. */
export function moduleDiagram(
  modules: { name: string; fanIn: number; fanOut: number }[],
  edges: ModuleEdge[],
  files: string[],
  cycles: string[][],
  maxNodes = 14,
): DiagramPart | null {
  const ranked = [...modules].sort((a, b) => b.fanIn + b.fanOut - (a.fanIn + a.fanOut)).slice(0, maxNodes);
  if (ranked.length === 0) return null;
  const names = new Set(ranked.map((m) => m.name));
  const ids = new Map([...names].map((n, i) => [n, `m${i}`]));
  const inCycle = new Set(cycles.flat());
  const lines = ["graph LR"];
  for (const name of names)
    lines.push(`  ${ids.get(name)}["${escapeLabel(name === "." ? "(root)" : name)}"]`);
  for (const e of edges) {
    if (!names.has(e.from) || !names.has(e.to)) continue;
    lines.push(`  ${ids.get(e.from)} -->|${e.count}| ${ids.get(e.to)}`);
  }
  const cycleNodes = [...names].filter((n) => inCycle.has(n)).map((n) => ids.get(n));
  if (cycleNodes.length) {
    lines.push("  classDef cycle stroke:#b42318,stroke-width:2px");
    lines.push(`  class ${cycleNodes.join(",")} cycle`);
  }
  return {
    kind: "dependencies",
    title: "Module dependencies (imports between folders)",
    mermaid: lines.join("\n"),
    nodes: [...names].map((name) => {
      const first = files.find((f) => dirOf(f) === name) ?? null;
      return {
        id: ids.get(name) as string,
        label: name,
        path: first,
        startLine: first ? 1 : null,
        endLine: null,
      };
    }),
  };
}

/** Aggregated counts of `key` over items, most frequent first. */
function countBy<T>(items: T[], key: (item: T) => string): [string, number][] {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

export interface DiagramSymbol {
  qualifiedId: string;
  qualifiedName: string;
  startLine: number;
  endLine: number;
}

export interface DiagramCall {
  srcId: string;
  srcPath: string;
  dstId: string;
  dstPath: string;
}

/**
 * A file's call neighbourhood: its busiest symbols, the files they call into and the
 * files calling them (aggregated per file so the picture stays small).
 */
export function fileCallDiagram(
  path: string,
  symbols: DiagramSymbol[],
  callsOut: DiagramCall[],
  callsIn: DiagramCall[],
  maxSymbols = 8,
  maxFiles = 6,
): DiagramPart | null {
  const byId = new Map(symbols.map((s) => [s.qualifiedId, s]));
  const degree = new Map<string, number>();
  const bump = (id: string) => degree.set(id, (degree.get(id) ?? 0) + 1);
  for (const c of callsOut) if (byId.has(c.srcId)) bump(c.srcId);
  for (const c of callsIn) if (byId.has(c.dstId)) bump(c.dstId);
  for (const c of callsOut) if (c.dstPath === path && byId.has(c.dstId)) bump(c.dstId);
  const shown = [...degree.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, maxSymbols)
    .map(([id]) => byId.get(id) as DiagramSymbol);
  if (shown.length === 0) return null;
  const symbolIds = new Map(shown.map((s, i) => [s.qualifiedId, `s${i}`]));
  const outFiles = countBy(
    callsOut.filter((c) => c.dstPath !== path && symbolIds.has(c.srcId)),
    (c) => c.dstPath,
  ).slice(0, maxFiles);
  const inFiles = countBy(
    callsIn.filter((c) => c.srcPath !== path && symbolIds.has(c.dstId)),
    (c) => c.srcPath,
  ).slice(0, maxFiles);
  const fileIds = new Map<string, string>();
  for (const [file] of [...outFiles, ...inFiles])
    if (!fileIds.has(file)) fileIds.set(file, `f${fileIds.size}`);

  const lines = ["graph LR", `  subgraph here["${escapeLabel(path)}"]`];
  for (const s of shown) lines.push(`    ${symbolIds.get(s.qualifiedId)}["${escapeLabel(s.qualifiedName)}"]`);
  lines.push("  end");
  for (const [file, id] of fileIds) lines.push(`  ${id}["${escapeLabel(file)}"]`);
  const edges = new Map<string, number>();
  const addEdge = (from: string | undefined, to: string | undefined) => {
    if (!from || !to || from === to) return;
    edges.set(`${from} ${to}`, (edges.get(`${from} ${to}`) ?? 0) + 1);
  };
  for (const c of callsOut) {
    const from = symbolIds.get(c.srcId);
    addEdge(from, c.dstPath === path ? symbolIds.get(c.dstId) : fileIds.get(c.dstPath));
  }
  for (const c of callsIn) {
    if (c.srcPath === path) continue;
    addEdge(fileIds.get(c.srcPath), symbolIds.get(c.dstId));
  }
  for (const [key, count] of edges) {
    const [from, to] = key.split(" ");
    lines.push(count > 1 ? `  ${from} -->|${count}| ${to}` : `  ${from} --> ${to}`);
  }
  const nodes: DiagramNode[] = [
    ...shown.map((s) => ({
      id: symbolIds.get(s.qualifiedId) as string,
      label: s.qualifiedName,
      path,
      startLine: s.startLine,
      endLine: s.endLine,
    })),
    ...[...fileIds].map(([file, id]) => ({ id, label: file, path: file, startLine: null, endLine: null })),
  ];
  return { kind: "call-flow", title: `Calls in and out of ${path}`, mermaid: lines.join("\n"), nodes };
}

/**
 * A directory's files and the imports between them and the modules around them.
 * Capped so a big folder stays readable: the most connected files, the modules most
 * imported to or from, and only the heaviest edges between them (the title says what
 * was left out).
 */
export function directoryImportDiagram(
  dir: string,
  files: string[],
  imports: { srcPath: string; dstPath: string }[],
  maxFiles = 12,
  maxModules = 6,
  maxEdges = 24,
): DiagramPart | null {
  const own = new Set(files);
  const touching = imports.filter((e) => own.has(e.srcPath) || own.has(e.dstPath));
  const degree = new Map<string, number>();
  for (const e of touching) {
    if (own.has(e.srcPath)) degree.set(e.srcPath, (degree.get(e.srcPath) ?? 0) + 1);
    if (own.has(e.dstPath)) degree.set(e.dstPath, (degree.get(e.dstPath) ?? 0) + 1);
  }
  const shown = [...files]
    .sort((a, b) => (degree.get(b) ?? 0) - (degree.get(a) ?? 0) || a.localeCompare(b))
    .slice(0, maxFiles);
  if (shown.length === 0) return null;
  const fileIds = new Map(shown.map((f, i) => [f, `f${i}`]));
  const moduleOf = (path: string) => dirOf(path);
  const outside = (path: string) => !own.has(path);
  const modules = countBy(
    touching.flatMap((e) =>
      [e.srcPath, e.dstPath].filter((p) => outside(p)).map((p) => ({ module: moduleOf(p) })),
    ),
    (m) => m.module,
  ).slice(0, maxModules);
  const moduleIds = new Map(modules.map(([m], i) => [m, `m${i}`]));
  const lines = ["graph LR", `  subgraph here["${escapeLabel(dir)}"]`];
  for (const f of shown) lines.push(`    ${fileIds.get(f)}["${escapeLabel(f.slice(dir.length + 1) || f)}"]`);
  lines.push("  end");
  for (const [m, id] of moduleIds) lines.push(`  ${id}(["${escapeLabel(m === "." ? "(root)" : m)}"])`);
  const edges = new Map<string, number>();
  const idOf = (path: string) => (own.has(path) ? fileIds.get(path) : moduleIds.get(moduleOf(path)));
  for (const e of touching) {
    const from = idOf(e.srcPath);
    const to = idOf(e.dstPath);
    if (!from || !to || from === to) continue;
    edges.set(`${from} ${to}`, (edges.get(`${from} ${to}`) ?? 0) + 1);
  }
  const heaviest = [...edges].sort((a, b) => b[1] - a[1]).slice(0, maxEdges);
  for (const [key, count] of heaviest) {
    const [from, to] = key.split(" ");
    lines.push(count > 1 ? `  ${from} -->|${count}| ${to}` : `  ${from} --> ${to}`);
  }
  const left = [
    files.length > shown.length ? `${shown.length} of ${files.length} files` : "",
    edges.size > heaviest.length ? `${heaviest.length} of ${edges.size} links` : "",
  ].filter(Boolean);
  const firstFileOf = (module: string) =>
    touching.map((e) => (outside(e.dstPath) ? e.dstPath : e.srcPath)).find((p) => moduleOf(p) === module) ??
    null;
  return {
    kind: "dependencies",
    title: left.length ? `Imports of ${dir} (${left.join(", ")})` : `Imports of ${dir}`,
    mermaid: lines.join("\n"),
    nodes: [
      // The folder itself (the subgraph), located at its first file.
      { id: "here", label: dir, path: shown[0] ?? null, startLine: 1, endLine: null },
      ...shown.map((f) => ({
        id: fileIds.get(f) as string,
        label: f,
        path: f,
        startLine: null,
        endLine: null,
      })),
      ...[...moduleIds].map(([m, id]) => ({
        id,
        label: m,
        path: firstFileOf(m),
        startLine: null,
        endLine: null,
      })),
    ],
  };
}
