/**
 * Resolver tables filled from the database as resolution asks for them, for builds
 * that re-resolve a few symbols: a lookup of a name or a file that is not loaded yet is
 * recorded and answers "nothing"; the caller loads what was recorded and resolves
 * again, until a pass asks for nothing new. Every key is loaded whole (all symbols of
 * that name, or of that file), so the last pass sees exactly what complete tables
 * would show for every key it looked up, and resolves the same way. Module maps need
 * only paths, and are built from every code file up front.
 */
import type { ResolverSymbolRow } from "../db/index-reads.ts";
import { baseQualifiedId } from "../db/symbol-ids.ts";
import { LANGUAGE_RULES } from "./resolve-languages.ts";
import { returnTypeOf } from "./return-types.ts";
import { type Lookup, type ResolverSymbol, type ResolverTables } from "./resolve.ts";
import {
  buildModuleMaps,
  buildScope,
  type FileScope,
  type ModuleMaps,
  type ResolverFile,
} from "./module-scope.ts";
import type { ExtractedImport, SymbolKind } from "./types.ts";

/** A symbol as the resolver reads it, with the line its structure edges carry. */
export type TableSymbol = ResolverSymbol & { line: number };

export function toTableSymbol(row: ResolverSymbolRow): TableSymbol {
  const returns =
    row.kind === "function" || row.kind === "method"
      ? returnTypeOf(row.language, row.name, row.signature)
      : null;
  return {
    qualifiedId: row.qualifiedId,
    path: row.path,
    name: row.name,
    qualifiedName: row.qualifiedName,
    kind: row.kind as SymbolKind,
    parent: row.parentId,
    language: row.language,
    bases: JSON.parse(row.bases) as string[],
    line: row.startLine,
    ...(returns ? { returns } : {}),
  };
}

/**
 * One order for candidates, whatever order their rows were written in (which rows a
 * generation shares with older ones depends on the build history; resolution must not).
 */
export function byLocation(a: TableSymbol, b: TableSymbol): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  if (a.line !== b.line) return a.line - b.line;
  return a.qualifiedName < b.qualifiedName ? -1 : a.qualifiedName > b.qualifiedName ? 1 : 0;
}

interface LoadedFile {
  qualified: Map<string, ResolverSymbol>;
  byName: Map<string, ResolverSymbol[]>;
  imports: ExtractedImport[];
  scope?: FileScope;
}

export interface TableSource {
  symbolsNamed(names: string[]): Promise<TableSymbol[]>;
  symbolsQualified(qualifiedNames: string[]): Promise<TableSymbol[]>;
  symbolsOfFiles(paths: string[]): Promise<TableSymbol[]>;
  importsOf(paths: string[]): Promise<Map<string, ExtractedImport[]>>;
}

export class LazyResolverTables implements ResolverTables {
  readonly maps: ModuleMaps;
  readonly fileByPath: Map<string, Pick<ResolverFile, "path" | "language">>;
  private readonly names = new Map<string, ResolverSymbol[]>();
  private readonly qualified = new Map<string, ResolverSymbol[]>();
  private readonly missingQualified = new Set<string>();
  private readonly files = new Map<string, LoadedFile>();
  private readonly missingNames = new Set<string>();
  private readonly missingFiles = new Set<string>();

  /** `codeFiles`: every code file of the generation, in path order. */
  constructor(codeFiles: Pick<ResolverFile, "path" | "language">[]) {
    this.maps = buildModuleMaps(codeFiles);
    this.fileByPath = new Map(codeFiles.map((f) => [f.path, f]));
  }

  readonly byName: Lookup<ResolverSymbol[]> = {
    get: (name) => {
      const hit = this.names.get(name);
      if (!hit) this.missingNames.add(name);
      return hit;
    },
  };

  readonly byQualified: Lookup<ResolverSymbol[]> = {
    get: (qualifiedName) => {
      const hit = this.qualified.get(qualifiedName);
      if (!hit) this.missingQualified.add(qualifiedName);
      return hit;
    },
  };

  readonly byFileQualified: Lookup<Map<string, ResolverSymbol>> = {
    get: (path) => this.file(path)?.qualified,
  };

  readonly byFileName: Lookup<Map<string, ResolverSymbol[]>> = {
    get: (path) => this.file(path)?.byName,
  };

  readonly scopes: Lookup<FileScope> = {
    get: (path) => {
      const file = this.file(path);
      const known = this.fileByPath.get(path);
      if (!file || !known) return undefined;
      file.scope ??= buildScope({ ...known, imports: file.imports }, this.maps);
      return file.scope;
    },
  };

  private file(path: string): LoadedFile | undefined {
    const hit = this.files.get(path);
    if (!hit && this.fileByPath.has(path)) this.missingFiles.add(path);
    return hit;
  }

  /** Whether the last pass looked up something not loaded yet. */
  get incomplete(): boolean {
    return this.missingNames.size > 0 || this.missingQualified.size > 0 || this.missingFiles.size > 0;
  }

  /** Loads what the last pass asked for; afterwards those keys answer exactly. */
  async loadMissing(source: TableSource): Promise<void> {
    const names = [...this.missingNames];
    const qualifiedNames = [...this.missingQualified];
    const paths = [...this.missingFiles];
    this.missingNames.clear();
    this.missingQualified.clear();
    this.missingFiles.clear();
    const [named, qualified, ofFiles, imports] = await Promise.all([
      source.symbolsNamed(names),
      source.symbolsQualified(qualifiedNames),
      source.symbolsOfFiles(paths),
      source.importsOf(paths),
    ]);
    for (const name of names) this.names.set(name, []);
    for (const s of [...named].sort(byLocation)) this.names.get(s.name)?.push(s);
    for (const name of qualifiedNames) this.qualified.set(name, []);
    for (const s of [...qualified].sort(byLocation)) {
      if (LANGUAGE_RULES[s.language]) this.qualified.get(s.qualifiedName)?.push(s);
    }
    for (const path of paths) {
      this.files.set(path, { qualified: new Map(), byName: new Map(), imports: imports.get(path) ?? [] });
    }
    for (const s of [...ofFiles].sort(byLocation)) {
      const file = this.files.get(s.path);
      if (!file) continue;
      // Overloads share a qualified name: a call by that name lands on the first (its plain id).
      if (!file.qualified.has(s.qualifiedName) || baseQualifiedId(s.qualifiedId) === s.qualifiedId)
        file.qualified.set(s.qualifiedName, s);
      const list = file.byName.get(s.name);
      if (list) list.push(s);
      else file.byName.set(s.name, [s]);
    }
  }
}
