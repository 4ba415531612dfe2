/**
 * Call, import and inheritance resolution of a building generation, written as edges.
 * A build that starts empty resolves everything. An incremental build re-resolves only
 * what can resolve differently — the changed files' own symbols and imports, symbols
 * elsewhere calling or extending a name that a changed or removed file defines (before
 * or after the change), and every import when files were added or removed — and
 * replaces exactly those edges; every other edge stays shared with the previous
 * generation.
 */
import "server-only";
import {
  insertEdges,
  loadResolverRows,
  replaceEdges,
  symbolNamesInPaths,
  type EdgeInsert,
} from "../db/index-store.ts";
import { baseName } from "./name-filter.ts";
import { Resolver, type ResolverFile, type ResolverSymbol } from "./resolve.ts";
import type { ExtractedCall, SymbolKind } from "./types.ts";

export interface ResolveChanges {
  /** the generation the build started from */
  previousGenerationId: string;
  changedPaths: string[];
  removedPaths: string[];
  /** whether any file is new in this build */
  added: boolean;
}

export interface ResolveResult {
  /** edges this build wrote (new rows) */
  insertedEdges: number;
}

type LoadedSymbol = ResolverSymbol & { calls: ExtractedCall[]; line: number };

async function loadResolver(generationId: string) {
  const rows = await loadResolverRows(generationId);
  const symbols: LoadedSymbol[] = rows.symbols.map((s) => ({
    qualifiedId: s.qualifiedId,
    path: s.path,
    name: s.name,
    qualifiedName: s.qualifiedName,
    kind: s.kind as SymbolKind,
    parent: s.parentId,
    language: s.language,
    bases: JSON.parse(s.bases) as string[],
    calls: JSON.parse(s.calls) as ExtractedCall[],
    line: s.startLine,
  }));
  const files: ResolverFile[] = rows.files
    .filter((f) => f.kind === "code")
    .map((f) => ({ path: f.path, language: f.language, imports: JSON.parse(f.imports) }));
  return { resolver: new Resolver(symbols, files), symbols, files };
}

export async function resolveGeneration(
  generationId: string,
  changes: ResolveChanges | null,
): Promise<ResolveResult> {
  const { resolver, symbols, files } = await loadResolver(generationId);
  if (!changes) {
    const edges: EdgeInsert[] = [];
    for (const f of files) edges.push(...resolver.importEdges(f));
    for (const s of symbols) {
      edges.push(...resolver.structureEdges(s, s.line));
      edges.push(...resolver.callEdges(s, s.calls));
    }
    await insertEdges(generationId, edges);
    return { insertedEdges: edges.length };
  }
  const touched = new Set([...changes.changedPaths, ...changes.removedPaths]);
  const affectedNames = await symbolNamesInPaths(changes.previousGenerationId, [...touched]);
  for (const s of symbols) if (touched.has(s.path)) affectedNames.add(s.name);
  let inserted = 0;

  // The changed files' own edges (none left for removed files).
  const own: EdgeInsert[] = [];
  for (const f of files) if (touched.has(f.path)) own.push(...resolver.importEdges(f));
  for (const s of symbols) {
    if (!touched.has(s.path)) continue;
    own.push(...resolver.structureEdges(s, s.line));
    own.push(...resolver.callEdges(s, s.calls));
  }
  inserted += (await replaceEdges(generationId, { kind: "fromPaths", paths: [...touched] }, own)).inserted;

  // Symbols elsewhere that call or extend an affected name: their calls and bases.
  const callers = symbols.filter(
    (s) =>
      !touched.has(s.path) &&
      (s.calls.some((c) => affectedNames.has(c.name)) || s.bases.some((b) => affectedNames.has(baseName(b)))),
  );
  const theirs: EdgeInsert[] = [];
  for (const s of callers) {
    theirs.push(...resolver.structureEdges(s, s.line).filter((e) => e.kind === "inherits"));
    theirs.push(...resolver.callEdges(s, s.calls));
  }
  inserted += (
    await replaceEdges(
      generationId,
      { kind: "callsAndBases", sourceIds: callers.map((s) => s.qualifiedId) },
      theirs,
    )
  ).inserted;

  // Added or removed files change how module paths resolve: every other file's imports too.
  if (changes.added || changes.removedPaths.length > 0) {
    const others = files.filter((f) => !touched.has(f.path));
    inserted += (
      await replaceEdges(
        generationId,
        { kind: "imports", paths: others.map((f) => f.path) },
        others.flatMap((f) => resolver.importEdges(f)),
      )
    ).inserted;
  }
  return { insertedEdges: inserted };
}
