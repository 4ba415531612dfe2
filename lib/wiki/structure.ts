/**
 * Structure metrics for analytical questions, computed from a generation's edges for a
 * scope (a folder, a file, or the whole repository): the module graph (folders linked
 * by imports), cycles, fan-in / fan-out extremes, cross-module coupling (afferent and
 * efferent dependencies through imports and calls, instability), the findings of the
 * issues store in scope (high severity first), and a dependency diagram generated
 * from edges — never written freehand by a model.
 */
import "server-only";
import { topSymbolsBy, type SymbolRecord } from "../db/code-graph.ts";
import { crossFileCalls } from "../db/structure-queries.ts";
import { findingCounts, listFindings, type FindingRecord } from "../db/wiki-store.ts";
import {
  classifiedPaths,
  loadCallsTouching,
  loadImportEdges,
  loadPageSymbols,
  loadWikiFiles,
  type ImportRow,
  type WikiFileRow,
} from "../db/wiki-inputs.ts";
import type { FileClass } from "../db/file-shapes.ts";
import type { DiagramPart } from "../diagrams/types.ts";
import {
  directoryImportDiagram,
  escapeLabel,
  fileCallDiagram,
  moduleDiagram,
  type ModuleEdge,
} from "./diagrams.ts";
import { cyclePath, findCycles } from "./graph.ts";
import { dirOf } from "./slugs.ts";

export { escapeLabel, moduleDiagram, type ModuleEdge };
export { findCycles };

export interface ModuleCoupling {
  module: string;
  /** other modules depending on this one (imports or calls into it) */
  afferent: number;
  /** other modules this one depends on */
  efferent: number;
  /** efferent / (afferent + efferent): 0 = only depended on, 1 = only depends */
  instability: number;
  callsIn: number;
  callsOut: number;
}

/** What crosses a scope's boundary (null for the whole repository). */
export interface ScopeBoundary {
  scope: string;
  files: number;
  importsIn: number;
  importsOut: number;
  callsIn: number;
  callsOut: number;
  /** modules outside the scope that depend on it, and that it depends on, busiest first */
  dependents: { module: string; edges: number }[];
  dependencies: { module: string; edges: number }[];
}

export interface StructureReport {
  scope: string | null;
  modules: { name: string; files: number; fanIn: number; fanOut: number }[];
  moduleEdges: ModuleEdge[];
  /** folder-level cycles */
  cycles: string[][];
  /** file-level import cycles: one loop through each strongly connected set of files */
  fileCycles: { loop: string[]; files: number }[];
  topFanOut: SymbolRecord[];
  topFanIn: SymbolRecord[];
  /** files of the scope imported by the most other files, with how many import them and their length */
  topImported: { path: string; importers: number; lines: number }[];
  coupling: ModuleCoupling[];
  boundary: ScopeBoundary | null;
  /** findings of the issues store in scope, high severity first */
  findings: FindingRecord[];
  findingCounts: { category: string; severity: string; count: number }[];
  diagram: DiagramPart | null;
}

/** The module a file belongs to: its directory (root files belong to "."). */
export const moduleOf = dirOf;

export function inScope(path: string | null, scope: string | null): boolean {
  return (
    !scope ||
    (path !== null && (path === scope || path.startsWith(scope.endsWith("/") ? scope : `${scope}/`)))
  );
}

/** Files of the scope by how many other files import them (tests' imports do not count). */
export function mostImported(
  imports: { srcPath: string; dstPath: string }[],
  scopedFiles: string[],
  lines: Map<string, number>,
  limit = 8,
): { path: string; importers: number; lines: number }[] {
  const inScopeFiles = new Set(scopedFiles);
  const importers = new Map<string, Set<string>>();
  for (const e of imports) {
    if (!inScopeFiles.has(e.dstPath) || e.srcPath === e.dstPath || TEST_FILE.test(e.srcPath)) continue;
    const set = importers.get(e.dstPath) ?? new Set<string>();
    set.add(e.srcPath);
    importers.set(e.dstPath, set);
  }
  return [...importers]
    .map(([path, set]) => ({ path, importers: set.size, lines: Math.max(1, lines.get(path) ?? 1) }))
    .sort((a, b) => b.importers - a.importers || a.path.localeCompare(b.path))
    .slice(0, limit);
}

const TEST_FILE =
  /(^|\/)(tests?|testing|__tests__)\/|(^|\/)test_[^/]*$|_test\.\w+$|\.(test|spec)\.[cm]?[jt]sx?$/;

/** Folders linked by the file imports that touch the scope. */
export function moduleGraph(
  codeFiles: string[],
  imports: { srcPath: string; dstPath: string }[],
  scope: string | null,
): { modules: StructureReport["modules"]; moduleEdges: ModuleEdge[]; moduleCycles: string[][] } {
  const moduleFiles = new Map<string, number>();
  for (const f of codeFiles)
    if (inScope(f, scope)) moduleFiles.set(moduleOf(f), (moduleFiles.get(moduleOf(f)) ?? 0) + 1);
  const edgeCounts = new Map<string, ModuleEdge>();
  for (const e of imports) {
    if (!inScope(e.srcPath, scope) && !inScope(e.dstPath, scope)) continue;
    const from = moduleOf(e.srcPath);
    const to = moduleOf(e.dstPath);
    if (from === to) continue;
    const key = `${from}→${to}`;
    const existing = edgeCounts.get(key);
    if (existing) existing.count++;
    else edgeCounts.set(key, { from, to, count: 1 });
  }
  const moduleEdges = [...edgeCounts.values()].sort(
    (a, b) => b.count - a.count || a.from.localeCompare(b.from) || a.to.localeCompare(b.to),
  );
  const names = new Set([...moduleFiles.keys(), ...moduleEdges.flatMap((e) => [e.from, e.to])]);
  // Counted in one pass: a repository has thousands of modules and tens of thousands of edges.
  const fanIn = new Map<string, number>();
  const fanOut = new Map<string, number>();
  for (const e of moduleEdges) {
    fanIn.set(e.to, (fanIn.get(e.to) ?? 0) + 1);
    fanOut.set(e.from, (fanOut.get(e.from) ?? 0) + 1);
  }
  const modules = [...names]
    .map((name) => ({
      name,
      files: moduleFiles.get(name) ?? 0,
      fanIn: fanIn.get(name) ?? 0,
      fanOut: fanOut.get(name) ?? 0,
    }))
    .sort(
      (a, b) =>
        b.fanIn + b.fanOut - (a.fanIn + a.fanOut) || b.files - a.files || a.name.localeCompare(b.name),
    );
  return { modules, moduleEdges, moduleCycles: findCycles([...names], moduleEdges) };
}

/**
 * Coupling per module from import and call edges between different modules: how many
 * modules depend on it (afferent) and on how many it depends (efferent).
 */
export function moduleCoupling(
  edges: { kind: "imports" | "calls"; srcPath: string; dstPath: string }[],
  scope: string | null,
): ModuleCoupling[] {
  const out = new Map<string, { in: Set<string>; out: Set<string>; callsIn: number; callsOut: number }>();
  const entry = (m: string) => {
    let e = out.get(m);
    if (!e) {
      e = { in: new Set(), out: new Set(), callsIn: 0, callsOut: 0 };
      out.set(m, e);
    }
    return e;
  };
  for (const e of edges) {
    const from = moduleOf(e.srcPath);
    const to = moduleOf(e.dstPath);
    if (from === to) continue;
    entry(from).out.add(to);
    entry(to).in.add(from);
    if (e.kind === "calls") {
      entry(from).callsOut++;
      entry(to).callsIn++;
    }
  }
  return [...out]
    .filter(([m]) => !scope || inScope(m, scope) || m === moduleOf(scope))
    .map(([module, e]) => ({
      module,
      afferent: e.in.size,
      efferent: e.out.size,
      instability:
        e.in.size + e.out.size ? Math.round((e.out.size / (e.in.size + e.out.size)) * 100) / 100 : 0,
      callsIn: e.callsIn,
      callsOut: e.callsOut,
    }))
    .sort((a, b) => b.afferent + b.efferent - (a.afferent + a.efferent) || a.module.localeCompare(b.module));
}

/** Imports and calls crossing a scope's boundary, with the modules on the other side. */
export function scopeBoundary(
  scope: string,
  files: number,
  edges: { kind: "imports" | "calls"; srcPath: string; dstPath: string }[],
): ScopeBoundary {
  const boundary: ScopeBoundary = {
    scope,
    files,
    importsIn: 0,
    importsOut: 0,
    callsIn: 0,
    callsOut: 0,
    dependents: [],
    dependencies: [],
  };
  const dependents = new Map<string, number>();
  const dependencies = new Map<string, number>();
  for (const e of edges) {
    const fromInside = inScope(e.srcPath, scope);
    const toInside = inScope(e.dstPath, scope);
    if (fromInside === toInside) continue;
    if (fromInside) {
      if (e.kind === "imports") boundary.importsOut++;
      else boundary.callsOut++;
      dependencies.set(moduleOf(e.dstPath), (dependencies.get(moduleOf(e.dstPath)) ?? 0) + 1);
    } else {
      if (e.kind === "imports") boundary.importsIn++;
      else boundary.callsIn++;
      dependents.set(moduleOf(e.srcPath), (dependents.get(moduleOf(e.srcPath)) ?? 0) + 1);
    }
  }
  const ranked = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([module, edges]) => ({ module, edges }));
  boundary.dependents = ranked(dependents);
  boundary.dependencies = ranked(dependencies);
  return boundary;
}

const THIRD_PARTY_CLASSES: ReadonlySet<string> = new Set(["vendored", "generated", "minified"]);

/**
 * The whole-generation rows a structure analysis reads. A caller analysing many scopes
 * of one active generation (questions) may keep them; by default they are read each time.
 */
export interface StructureReads {
  files(generationId: string): Promise<WikiFileRow[]>;
  imports(generationId: string): Promise<ImportRow[]>;
  classified(generationId: string): Promise<Map<string, FileClass>>;
  crossFileCalls(generationId: string): Promise<{ srcPath: string; dstPath: string }[]>;
}

export const STORED_STRUCTURE_READS: StructureReads = {
  files: (generationId) => loadWikiFiles(generationId),
  imports: (generationId) => loadImportEdges(generationId),
  classified: classifiedPaths,
  crossFileCalls,
};

/**
 * The structure of a scope (null: the whole repository). `keepPath` says which files count:
 * a question that is not about tests, examples or vendored code leaves them out of every
 * figure (their imports and calls too), so they neither top a ranking nor close a cycle.
 */
export async function analyzeStructure(
  generationId: string,
  scope: string | null,
  keepPath: (path: string) => boolean = () => true,
  reads: StructureReads = STORED_STRUCTURE_READS,
): Promise<StructureReport> {
  const [files, allImports, classified] = await Promise.all([
    reads.files(generationId),
    reads.imports(generationId),
    reads.classified(generationId),
  ]);
  // Vendored, generated and minified code as stored (by path, content or the repository's
  // attributes) is not the repository's structure, whatever its path says.
  const keep = (path: string) => keepPath(path) && !THIRD_PARTY_CLASSES.has(classified.get(path) ?? "");
  const codeFiles = files.filter((f) => f.kind === "code" && keep(f.path)).map((f) => f.path);
  const scopedFiles = codeFiles.filter((f) => inScope(f, scope));
  // Imports that only exist for type checking never run: they neither couple nor cycle.
  const typeOnly = new Map(files.map((f) => [f.path, new Set(f.facts.typeOnlyImports)]));
  const imports = allImports.filter(
    (e) => !typeOnly.get(e.srcPath)?.has(e.line) && keep(e.srcPath) && keep(e.dstPath),
  );
  const graph = moduleGraph(codeFiles, imports, scope);

  // A scope's calls with their ends (its diagram may draw them); a whole repository's only
  // between files, as paths: all that coupling counts.
  const scopedCalls = scope
    ? (await loadCallsTouching(generationId, scopedFiles)).filter((c) => keep(c.srcPath) && keep(c.dstPath))
    : null;
  const calls =
    scopedCalls ??
    (await reads.crossFileCalls(generationId)).filter((c) => keep(c.srcPath) && keep(c.dstPath));
  const edges = [
    ...imports.map((e) => ({ kind: "imports" as const, srcPath: e.srcPath, dstPath: e.dstPath })),
    ...calls.map((c) => ({ kind: "calls" as const, srcPath: c.srcPath, dstPath: c.dstPath })),
  ].filter((e) => !scope || inScope(e.srcPath, scope) || inScope(e.dstPath, scope));

  const prefix = scope ?? undefined;
  // Hubs are the repository's own: vendored, generated and documentation code is left out.
  const own = async (metric: "fanIn" | "fanOut") =>
    (await topSymbolsBy(generationId, metric, { prefix, limit: 40 })).filter((r) => !classified.has(r.path));
  const [topFanOut, topFanIn, findings, counts] = await Promise.all([
    own("fanOut"),
    own("fanIn"),
    listFindings(generationId, { scope, limit: 120 }),
    findingCounts(generationId, scope),
  ]);

  return {
    scope,
    modules: graph.modules,
    moduleEdges: graph.moduleEdges,
    cycles: graph.moduleCycles,
    fileCycles: fileImportCycles(imports, scope),
    topFanOut: topFanOut.filter((s) => keep(s.path)).slice(0, 10),
    topFanIn: topFanIn.filter((s) => keep(s.path)).slice(0, 10),
    topImported: mostImported(imports, scopedFiles, new Map(files.map((f) => [f.path, f.lines]))),
    coupling: moduleCoupling(edges, scope).slice(0, 15),
    boundary: scope ? scopeBoundary(scope, scopedFiles.length, edges) : null,
    findings: findings.filter((f) => f.path === null || keep(f.path)).slice(0, 40),
    findingCounts: counts,
    diagram: await scopeDiagram(
      generationId,
      scope,
      codeFiles,
      scopedFiles,
      imports,
      scopedCalls ?? [],
      graph,
    ),
  };
}

/**
 * Import cycles between files inside a scope (the whole repository when null): each as
 * one concrete loop (`a.py`, `b.py`, back to `a.py`) through a strongly connected set,
 * with how many files the set holds. Works on any language's resolved imports (Python
 * modules, JS/TS modules, Go packages, C and C++ `#include`s …).
 */
export function fileImportCycles(
  imports: { srcPath: string; dstPath: string }[],
  scope: string | null,
): { loop: string[]; files: number }[] {
  const edges = imports
    .filter((e) => e.srcPath !== e.dstPath && inScope(e.srcPath, scope) && inScope(e.dstPath, scope))
    .map((e) => ({ from: e.srcPath, to: e.dstPath }));
  const nodes = [...new Set(edges.flatMap((e) => [e.from, e.to]))];
  return findCycles(nodes, edges).map((component) => ({
    loop: cyclePath(component, edges),
    files: component.length,
  }));
}

/**
 * The picture for a scope: a file's call neighbourhood, a single folder's file
 * imports, or the module graph when the scope spans several folders.
 */
async function scopeDiagram(
  generationId: string,
  scope: string | null,
  codeFiles: string[],
  scopedFiles: string[],
  imports: { srcPath: string; dstPath: string }[],
  calls: { srcId: string; srcPath: string; dstId: string; dstPath: string }[],
  graph: ReturnType<typeof moduleGraph>,
): Promise<DiagramPart | null> {
  if (scope && scopedFiles.length === 1 && scopedFiles[0] === scope) {
    const symbols = await loadPageSymbols(generationId, [scope]);
    return fileCallDiagram(
      scope,
      symbols,
      calls.filter((c) => c.srcPath === scope),
      calls.filter((c) => c.dstPath === scope),
    );
  }
  const scopedModules = new Set(scopedFiles.map(moduleOf));
  if (scope && scopedModules.size <= 1) {
    const diagram = directoryImportDiagram(scope, scopedFiles, imports);
    if (diagram) return diagram;
  }
  return moduleDiagram(graph.modules, graph.moduleEdges, scope ? scopedFiles : codeFiles, graph.moduleCycles);
}
