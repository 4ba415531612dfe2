/**
 * Call, import and inheritance resolution of a building generation, written as edges.
 *
 * A build that starts empty resolves everything: compact tables of every symbol (no
 * calls) and file are held in memory, calls are read a page at a time, and edges are
 * written as they come.
 *
 * An incremental build re-resolves only what can resolve differently — the changed
 * files' own symbols and imports; symbols elsewhere calling or extending a name whose
 * resolution a touched file can move, found through each file's name filter and then
 * checked exactly; and every import when files were added or removed — and replaces
 * exactly those edges; every other edge stays shared with the previous generation. A
 * name can move only when a symbol of that name appears, disappears or changes what
 * the resolver reads of it (qualified name, kind, parent, bases), or when the names a
 * touched file imports (and so re-exports) change: an edit inside function bodies
 * re-resolves nobody else. What Go imports resolve against — go.mod module paths and
 * the package name of each folder — is compared whole: when it changes, every Go file is
 * re-resolved. It loads only the symbols and files those resolutions look
 * up (lib/indexer/resolver-tables.ts), so its cost follows the change, not the
 * repository.
 */
import "server-only";
import {
  codeFiles,
  fileImports,
  goLayout,
  resolverSymbols,
  resolverSymbolsWhere,
  symbolCallsPage,
} from "../db/index-reads.ts";
import { insertEdges, replaceEdges, type EdgeInsert } from "../db/build-writes.ts";
import { baseName, NameProbe } from "./name-filter.ts";
import { completeTables, Resolver } from "./resolve.ts";
import { type ResolverFile } from "./module-scope.ts";
import {
  byLocation,
  LazyResolverTables,
  toTableSymbol,
  type TableSource,
  type TableSymbol,
} from "./resolver-tables.ts";
import type { ExtractedCall, ExtractedImport } from "./types.ts";

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
  /** symbols outside the changed files that were re-resolved */
  reresolvedSymbols: number;
}

/** Edges are written this many at a time, and calls read this many symbols at a time. */
const EDGE_BATCH = 5_000;
const CALLS_PAGE = 2_000;

export async function resolveGeneration(
  generationId: string,
  changes: ResolveChanges | null,
): Promise<ResolveResult> {
  return changes ? resolveChanges(generationId, changes) : resolveAll(generationId);
}

function parseImports(json: string | undefined): ExtractedImport[] {
  return json ? (JSON.parse(json) as ExtractedImport[]) : [];
}

type GoLayout = Awaited<ReturnType<typeof goLayout>>;

/** Code files with their Go package names, then the go.mod files whose module lines root Go imports. */
function withGoLayout<F extends { path: string; language: string }>(
  files: F[],
  layout: GoLayout,
  goMod: (row: Pick<ResolverFile, "path" | "language" | "goModule">) => F,
): (F & Pick<ResolverFile, "goPackage">)[] {
  const packages = new Map(layout.map((r) => [r.path, r.goPackage]));
  return [
    ...files.map((f) => (f.language === "go" ? { ...f, goPackage: packages.get(f.path) } : f)),
    ...layout
      .filter((r) => r.language === "gomod")
      .map((r) => goMod({ path: r.path, language: r.language, goModule: r.goModule })),
  ];
}

/** What Go imports resolve against, as one string: module roots and each folder's package name. */
function goLayoutKey(layout: GoLayout): string {
  const parts = new Set<string>();
  for (const r of layout) {
    const dir = r.path.includes("/") ? r.path.slice(0, r.path.lastIndexOf("/")) : ".";
    if (r.language === "gomod") parts.add(`module ${dir} ${r.goModule ?? ""}`);
    else parts.add(`package ${dir} ${(r.goPackage ?? "").replace(/_test$/, "")}`);
  }
  return [...parts].sort().join("\n");
}

async function resolveAll(generationId: string): Promise<ResolveResult> {
  const rows = await resolverSymbols(generationId);
  const byId = new Map<number, TableSymbol>();
  const symbols: TableSymbol[] = [];
  for (const row of rows) {
    const symbol = toTableSymbol(row);
    byId.set(row.id, symbol);
    symbols.push(symbol);
  }
  rows.length = 0;
  const files = await codeFiles(generationId);
  const imports = await fileImports(
    generationId,
    files.map((f) => f.path),
  );
  const resolverFiles: ResolverFile[] = withGoLayout(
    files.map((f) => ({ path: f.path, language: f.language, imports: parseImports(imports.get(f.path)) })),
    await goLayout(generationId),
    (goMod) => ({ ...goMod, imports: [] }),
  );
  imports.clear();
  const resolver = new Resolver(completeTables(symbols.sort(byLocation), resolverFiles));
  let inserted = 0;
  let pending: EdgeInsert[] = [];
  const write = async (force: boolean) => {
    if (pending.length === 0 || (!force && pending.length < EDGE_BATCH)) return;
    await insertEdges(generationId, pending);
    inserted += pending.length;
    pending = [];
  };
  for (const f of resolverFiles) {
    pending.push(...resolver.importEdges(f));
    await write(false);
  }
  for (let after = 0; ;) {
    const page = await symbolCallsPage(generationId, after, CALLS_PAGE);
    if (page.length === 0) break;
    for (const { id, calls } of page) {
      const symbol = byId.get(id);
      if (!symbol) continue;
      pending.push(...resolver.structureEdges(symbol, symbol.line));
      pending.push(...resolver.callEdges(symbol, JSON.parse(calls) as ExtractedCall[]));
    }
    after = (page.at(-1) as { id: number }).id;
    await write(false);
  }
  await write(true);
  return { insertedEdges: inserted, reresolvedSymbols: 0 };
}

type Source = TableSymbol & { calls: ExtractedCall[] };

/** What the resolver reads of a symbol, as one comparable string (its line aside). */
function resolutionKey(symbol: TableSymbol): string {
  const { line: _line, ...read } = symbol;
  return JSON.stringify(read);
}

/** Local and imported names an import statement binds (what a file re-exports). */
function boundNames(imports: ExtractedImport[]): string[] {
  return imports.flatMap((i) => [
    ...i.names.filter((n) => n !== "*"),
    ...Object.keys(i.aliases ?? {}),
    ...Object.values(i.aliases ?? {}),
  ]);
}

/**
 * Names whose resolution the touched files can have moved: names of symbols that
 * appeared, disappeared or changed what the resolver reads of them, and the names
 * bound by the imports of files whose imports changed (a package re-exports what it
 * imports).
 */
async function movedNames(
  generationId: string,
  previousGenerationId: string,
  touched: string[],
  changedCode: string[],
): Promise<Set<string>> {
  const [before, after, importsBefore, importsAfter] = await Promise.all([
    resolverSymbolsWhere(previousGenerationId, { paths: touched }),
    resolverSymbolsWhere(generationId, { paths: changedCode }),
    fileImports(previousGenerationId, touched),
    fileImports(generationId, changedCode),
  ]);
  const keys = (rows: typeof before) => new Map(rows.map((r) => [resolutionKey(toTableSymbol(r)), r.name]));
  const [old, current] = [keys(before), keys(after)];
  const moved = new Set<string>();
  for (const [key, name] of old) if (!current.has(key)) moved.add(name);
  for (const [key, name] of current) if (!old.has(key)) moved.add(name);
  const withoutLines = (json: string | undefined) =>
    JSON.stringify(parseImports(json).map(({ line: _line, ...imp }) => imp));
  for (const path of touched) {
    const [was, is] = [importsBefore.get(path), importsAfter.get(path)];
    if (withoutLines(was) === withoutLines(is)) continue;
    for (const name of [...boundNames(parseImports(was)), ...boundNames(parseImports(is))]) moved.add(name);
  }
  return moved;
}

function tableSource(generationId: string): TableSource {
  return {
    symbolsNamed: async (names) =>
      names.length ? (await resolverSymbolsWhere(generationId, { names })).map(toTableSymbol) : [],
    symbolsQualified: async (qualifiedNames) =>
      qualifiedNames.length
        ? (await resolverSymbolsWhere(generationId, { qualifiedNames })).map(toTableSymbol)
        : [],
    symbolsOfFiles: async (paths) =>
      paths.length ? (await resolverSymbolsWhere(generationId, { paths })).map(toTableSymbol) : [],
    importsOf: async (paths) => {
      const out = new Map<string, ExtractedImport[]>();
      if (paths.length === 0) return out;
      for (const [path, json] of await fileImports(generationId, paths)) out.set(path, parseImports(json));
      return out;
    },
  };
}

async function resolveChanges(generationId: string, changes: ResolveChanges): Promise<ResolveResult> {
  const [files, layout, layoutBefore] = await Promise.all([
    codeFiles(generationId),
    goLayout(generationId),
    goLayout(changes.previousGenerationId),
  ]);
  const code = new Set(files.map((f) => f.path));
  const touched = new Set([...changes.changedPaths, ...changes.removedPaths]);
  const changedCode = changes.changedPaths.filter((p) => code.has(p));
  // A go.mod or a package clause that changed moves what every Go import binds.
  const goMoved = goLayoutKey(layout) !== goLayoutKey(layoutBefore);
  const goPaths = goMoved ? files.filter((f) => f.language === "go" && !touched.has(f.path)) : [];
  const reresolved = new Set([...touched, ...goPaths.map((f) => f.path)]);
  const ownCode = [...changedCode, ...goPaths.map((f) => f.path)];

  const affected = await movedNames(generationId, changes.previousGenerationId, [...touched], changedCode);
  const probe = new NameProbe(affected);
  const maybe = files.filter((f) => !reresolved.has(f.path) && probe.matches(f.callNames)).map((f) => f.path);
  const withCalls = (row: Awaited<ReturnType<typeof resolverSymbolsWhere>>[number]): Source => ({
    ...toTableSymbol(row),
    calls: JSON.parse(row.calls) as ExtractedCall[],
  });
  const callers = (await resolverSymbolsWhere(generationId, { paths: maybe }))
    .map(withCalls)
    .filter(
      (s) => s.calls.some((c) => affected.has(c.name)) || s.bases.some((b) => affected.has(baseName(b))),
    );
  const own = (await resolverSymbolsWhere(generationId, { paths: ownCode })).map(withCalls);
  const ownImports = await fileImports(generationId, ownCode);
  const ownFiles = files
    .filter((f) => reresolved.has(f.path))
    .map((f) => ({ path: f.path, language: f.language, imports: parseImports(ownImports.get(f.path)) }));

  // Resolve until a pass needs nothing that is not loaded; only the last pass counts.
  const tables = new LazyResolverTables(
    withGoLayout(files, layout, (goMod) => ({ ...goMod, callNames: "" })),
  );
  const source = tableSource(generationId);
  let ownEdges: EdgeInsert[] = [];
  let callerEdges: EdgeInsert[] = [];
  for (;;) {
    const resolver = new Resolver(tables);
    ownEdges = ownFiles.flatMap((f) => resolver.importEdges(f));
    for (const s of own)
      ownEdges.push(...resolver.structureEdges(s, s.line), ...resolver.callEdges(s, s.calls));
    callerEdges = [];
    for (const s of callers) {
      callerEdges.push(...resolver.structureEdges(s, s.line).filter((e) => e.kind === "inherits"));
      callerEdges.push(...resolver.callEdges(s, s.calls));
    }
    if (!tables.incomplete) break;
    await tables.loadMissing(source);
  }

  let inserted = 0;
  inserted += (await replaceEdges(generationId, { kind: "fromPaths", paths: [...reresolved] }, ownEdges))
    .inserted;
  inserted += (
    await replaceEdges(
      generationId,
      { kind: "callsAndBases", sourceIds: callers.map((s) => s.qualifiedId) },
      callerEdges,
    )
  ).inserted;

  // Added or removed files change how module paths resolve: every other file's imports too.
  if (changes.added || changes.removedPaths.length > 0) {
    const others = files.filter((f) => !reresolved.has(f.path));
    const resolver = new Resolver(tables);
    for (let i = 0; i < others.length; i += 500) {
      const batch = others.slice(i, i + 500);
      const imports = await fileImports(
        generationId,
        batch.map((f) => f.path),
      );
      const edges = batch.flatMap((f) =>
        resolver.importEdges({
          path: f.path,
          language: f.language,
          imports: parseImports(imports.get(f.path)),
        }),
      );
      inserted += (
        await replaceEdges(generationId, { kind: "imports", paths: batch.map((f) => f.path) }, edges)
      ).inserted;
    }
  }
  return { insertedEdges: inserted, reresolvedSymbols: callers.length };
}
