/**
 * Structure metrics computed from a generation's edges: module dependencies,
 * cycles, fan-in / fan-out extremes, long functions, and the module dependency
 * diagram (always generated from edges, never written freehand by a model).
 */
import "server-only";
import { edgesOfKind, topSymbolsBy, type SymbolRecord } from "../db/code-graph.ts";
import { db } from "../db/client.ts";
import type { DiagramPart } from "../qa/types.ts";

export interface StructureFinding {
  category: "god-function" | "hotspot" | "import-cycle" | "call-cycle" | "long-function" | "coupling";
  severity: "high" | "medium" | "low";
  title: string;
  detail: string;
  path: string | null;
  startLine: number | null;
  endLine: number | null;
  symbolId: string | null;
}

export interface ModuleEdge {
  from: string;
  to: string;
  count: number;
}

export interface StructureReport {
  scope: string | null;
  modules: { name: string; files: number; fanIn: number; fanOut: number }[];
  moduleEdges: ModuleEdge[];
  cycles: string[][];
  topFanOut: SymbolRecord[];
  topFanIn: SymbolRecord[];
  findings: StructureFinding[];
  diagram: DiagramPart | null;
}

export const GOD_FUNCTION_FAN_OUT = 15;
export const HOTSPOT_FAN_IN = 20;
export const LONG_FUNCTION_LINES = 100;

/** The module a file belongs to: its directory (root files belong to "."). */
export function moduleOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "." : path.slice(0, i);
}

function inScope(path: string | null, scope: string | null): boolean {
  return (
    !scope ||
    (path !== null && (path === scope || path.startsWith(scope.endsWith("/") ? scope : `${scope}/`)))
  );
}

/** Strongly connected components with more than one node (Tarjan, iterative-safe for our sizes). */
export function findCycles(nodes: string[], edges: { from: string; to: string }[]): string[][] {
  const adjacency = new Map<string, string[]>();
  for (const n of nodes) adjacency.set(n, []);
  for (const e of edges) if (e.from !== e.to) adjacency.get(e.from)?.push(e.to);
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of adjacency.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, indices.get(w) as number));
      }
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const n of nodes) if (!indices.has(n)) visit(n);
  return out;
}

export async function analyzeStructure(generationId: string, scope: string | null): Promise<StructureReport> {
  const client = await db();
  const files = await client.file.findMany({ where: { generationId, kind: "code" }, select: { path: true } });
  const scopedFiles = files.filter((f) => inScope(f.path, scope));
  const imports = (await edgesOfKind(generationId, "imports")).filter(
    (e) => e.dstPath && e.dstPath !== e.srcPath,
  );

  // Module graph: directories linked by file imports.
  const moduleFiles = new Map<string, number>();
  for (const f of scopedFiles)
    moduleFiles.set(moduleOf(f.path), (moduleFiles.get(moduleOf(f.path)) ?? 0) + 1);
  const edgeCounts = new Map<string, ModuleEdge>();
  for (const e of imports) {
    if (!inScope(e.srcPath, scope) && !inScope(e.dstPath, scope)) continue;
    const from = moduleOf(e.srcPath);
    const to = moduleOf(e.dstPath as string);
    if (from === to) continue;
    const key = `${from}→${to}`;
    const existing = edgeCounts.get(key);
    if (existing) existing.count++;
    else edgeCounts.set(key, { from, to, count: 1 });
  }
  const moduleEdges = [...edgeCounts.values()].sort((a, b) => b.count - a.count);
  const moduleNames = new Set([...moduleFiles.keys(), ...moduleEdges.flatMap((e) => [e.from, e.to])]);
  const modules = [...moduleNames].map((name) => ({
    name,
    files: moduleFiles.get(name) ?? 0,
    fanIn: moduleEdges.filter((e) => e.to === name).length,
    fanOut: moduleEdges.filter((e) => e.from === name).length,
  }));

  const fileCycles = findCycles(
    scopedFiles.map((f) => f.path),
    imports
      .filter((e) => inScope(e.srcPath, scope))
      .map((e) => ({ from: e.srcPath, to: e.dstPath as string })),
  );
  const moduleCycles = findCycles([...moduleNames], moduleEdges);
  const prefix = scope ?? undefined;
  const [topFanOut, topFanIn] = await Promise.all([
    topSymbolsBy(generationId, "fanOut", { prefix, limit: 10 }),
    topSymbolsBy(generationId, "fanIn", { prefix, limit: 10 }),
  ]);
  const longFunctions = await client.$queryRawUnsafe<
    { qualifiedId: string; path: string; startLine: number; endLine: number; qualifiedName: string }[]
  >(
    `SELECT "qualifiedId", path, "startLine", "endLine", "qualifiedName" FROM "Symbol"
      WHERE "generationId" = ? AND kind IN ('function','method') AND ("endLine" - "startLine") > ?
      ${prefix ? `AND path LIKE ? ESCAPE '\\'` : ""}
      ORDER BY ("endLine" - "startLine") DESC LIMIT 10`,
    generationId,
    LONG_FUNCTION_LINES,
    ...(prefix ? [`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`] : []),
  );

  const findings: StructureFinding[] = [];
  for (const s of topFanOut.filter((x) => x.fanOut > GOD_FUNCTION_FAN_OUT)) {
    findings.push({
      category: "god-function",
      severity: s.fanOut > GOD_FUNCTION_FAN_OUT * 2 ? "high" : "medium",
      title: `${s.qualifiedName} calls ${s.fanOut} functions`,
      detail: "High fan-out: one function coordinating many others is hard to change and test.",
      path: s.path,
      startLine: s.startLine,
      endLine: s.endLine,
      symbolId: s.qualifiedId,
    });
  }
  for (const s of topFanIn.filter((x) => x.fanIn > HOTSPOT_FAN_IN)) {
    findings.push({
      category: "hotspot",
      severity: s.fanIn > HOTSPOT_FAN_IN * 2 ? "high" : "medium",
      title: `${s.qualifiedName} is called from ${s.fanIn} places`,
      detail: "High fan-in: a change here ripples widely.",
      path: s.path,
      startLine: s.startLine,
      endLine: s.endLine,
      symbolId: s.qualifiedId,
    });
  }
  for (const cycle of fileCycles.slice(0, 10)) {
    findings.push({
      category: "import-cycle",
      severity: cycle.length > 3 ? "high" : "medium",
      title: `Import cycle between ${cycle.length} files`,
      detail: cycle.join(" → "),
      path: cycle[0] ?? null,
      startLine: null,
      endLine: null,
      symbolId: null,
    });
  }
  for (const f of longFunctions) {
    const lines = Number(f.endLine) - Number(f.startLine) + 1;
    findings.push({
      category: "long-function",
      severity: lines > LONG_FUNCTION_LINES * 2 ? "medium" : "low",
      title: `${f.qualifiedName} is ${lines} lines long`,
      detail: "Very long functions hide several responsibilities.",
      path: f.path,
      startLine: Number(f.startLine),
      endLine: Number(f.endLine),
      symbolId: f.qualifiedId,
    });
  }

  return {
    scope,
    modules: modules.sort((a, b) => b.fanIn + b.fanOut - (a.fanIn + a.fanOut)),
    moduleEdges,
    cycles: [...moduleCycles, ...fileCycles],
    topFanOut,
    topFanIn,
    findings,
    diagram: moduleDiagram(
      modules,
      moduleEdges,
      scopedFiles.map((f) => f.path),
      moduleCycles,
    ),
  };
}

/** A mermaid graph of the busiest modules and their import edges. */
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
      const first = files.find((f) => moduleOf(f) === name) ?? null;
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

export function escapeLabel(text: string): string {
  return text.replace(/["<>]/g, "'").replace(/[\n\r]/g, " ");
}
