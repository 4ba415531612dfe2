/**
 * Call, import and inheritance resolution over a whole generation. Raw calls as
 * written (`self.save`, `utils.parse`, `Foo::new`) become edges to qualified symbol
 * ids with a confidence that says how the target was found: same class or file and
 * explicit imports score high, a unique name elsewhere in the repository scores low,
 * ambiguous names are split across their best candidates or dropped. Imports are
 * read as the file binds them: `import numpy as np` binds only `np`, `from .core
 * import merge as _merge` binds only `_merge`, so a call through an alias lands on
 * the aliased symbol with the confidence of any explicit import.
 *
 * The resolver reads its symbols and files through lookup tables (`ResolverTables`):
 * complete ones built from arrays, or ones an incremental build fills from the database
 * as lookups ask for them (lib/indexer/resolver-tables.ts); the rules are the same.
 */
import type { EdgeRecord } from "../db/code-graph.ts";
import type { ResolverSymbolRow } from "../db/index-reads.ts";
import { baseQualifiedId } from "../db/symbol-ids.ts";
import { isTestPath } from "./file-class.ts";
import { dotted, LANGUAGE_RULES, LIBRARY_GLOBALS, STDLIB_METHODS } from "./resolve-languages.ts";
import { BARE_MEMBER_LANGUAGES, membersOf, ownMemberCall, typedReceiverCall } from "./receiver-types.ts";
import { CallResults, returnedReceiverCall, type ReturnLookup } from "./return-types.ts";
import type { ExtractedCall, SymbolKind } from "./types.ts";
import {
  buildModuleMaps,
  buildScope,
  MAX_REEXPORT_HOPS,
  resolveModule,
  submoduleFiles,
  submoduleSpec,
  type FileScope,
  type ImportedName,
  type ModuleMaps,
  type ResolverFile,
} from "./module-scope.ts";

/** A stored symbol as the resolver uses it: kind typed, parent named, bases parsed. */
export type ResolverSymbol = Pick<
  ResolverSymbolRow,
  "qualifiedId" | "path" | "name" | "qualifiedName" | "language"
> & {
  kind: SymbolKind;
  parent: string | null;
  bases: string[];
  /** What the function returns, reduced (lib/indexer/return-types.ts), when its signature says. */
  returns?: string;
};

export type EdgeKind = "calls" | "imports" | "inherits" | "contains";

/** An edge as resolution produces it: the stored edge row, its kind typed. */
export type ResolvedEdge = Omit<EdgeRecord, "kind"> & { kind: EdgeKind };

/** Edges below this confidence are not stored: they would add noise to call-graph walks. */
export const MIN_EDGE_CONFIDENCE = 0.25;

const SELF_RECEIVERS = new Set(["self", "this", "cls", "super()", "super", "Self"]);
const SUPER_RECEIVERS = new Set(["super()", "super"]);

/** Names so generic that a bare-name match elsewhere says nothing (`x.get()` is rarely repo code). */
const GENERIC_METHOD_NAMES = new Set(
  (
    "get set add append extend insert pop remove update clear copy keys values items format join split " +
    "strip replace startswith endswith lower upper read write close open find index count sort sorted " +
    "map filter reduce push shift unshift slice splice forEach then catch finally toString valueOf " +
    "equals hashCode length size isEmpty contains put next has delete apply call bind emit on off " +
    "String Error len print str int float bool list dict tuple isinstance getattr setattr hasattr " +
    "super range enumerate zip min max sum any all iter repr type object new unwrap clone into " +
    "as_ref to_string iter_mut collect Ok Err Some None Box Vec"
  ).split(" "),
);

/**
 * A method on a receiver of unknown type is guessed into the repository only when so
 * few methods of the repository carry its name that the guess means something.
 */
const RARE_METHOD_DEFINITIONS = 3;

/** A keyed table the resolver reads (a Map satisfies it). */
export interface Lookup<V> {
  get(key: string): V | undefined;
}

/** Everything the resolver looks symbols and files up in. */
export interface ResolverTables {
  /** Symbols by name, repository-wide. */
  byName: Lookup<ResolverSymbol[]>;
  /** Symbols by qualified name across files (languages whose types are namespaced or reopened). */
  byQualified: Lookup<ResolverSymbol[]>;
  /** A file's symbols by qualified name. */
  byFileQualified: Lookup<Map<string, ResolverSymbol>>;
  /** A file's symbols by name. */
  byFileName: Lookup<Map<string, ResolverSymbol[]>>;
  /** What each file's imports bind. */
  scopes: Lookup<FileScope>;
  fileByPath: Lookup<Pick<ResolverFile, "path" | "language">>;
  maps: ModuleMaps;
}

/** Tables of every symbol and file given, in the order given. */
export function completeTables(symbols: ResolverSymbol[], files: ResolverFile[]): ResolverTables {
  const byName = new Map<string, ResolverSymbol[]>();
  const byQualified = new Map<string, ResolverSymbol[]>();
  const byFileQualified = new Map<string, Map<string, ResolverSymbol>>();
  const byFileName = new Map<string, Map<string, ResolverSymbol[]>>();
  for (const s of symbols) {
    push(byName, s.name, s);
    if (LANGUAGE_RULES[s.language]) push(byQualified, s.qualifiedName, s);
    let q = byFileQualified.get(s.path);
    if (!q) byFileQualified.set(s.path, (q = new Map()));
    // Overloads share a qualified name: a call by that name lands on the first (its plain id).
    if (!q.has(s.qualifiedName) || baseQualifiedId(s.qualifiedId) === s.qualifiedId)
      q.set(s.qualifiedName, s);
    let n = byFileName.get(s.path);
    if (!n) byFileName.set(s.path, (n = new Map()));
    push(n, s.name, s);
  }
  const maps = buildModuleMaps(files);
  const scopes = new Map<string, FileScope>();
  const fileByPath = new Map<string, ResolverFile>();
  for (const f of files) {
    scopes.set(f.path, buildScope(f, maps));
    if (!fileByPath.has(f.path)) fileByPath.set(f.path, f);
  }
  return { byName, byQualified, byFileQualified, byFileName, scopes, fileByPath, maps };
}

export class Resolver {
  readonly byName: Lookup<ResolverSymbol[]>;
  /** symbols by qualified name across files, for namespaced and reopened types */
  private readonly byQualified: Lookup<ResolverSymbol[]>;
  private readonly byFileQualified: Lookup<Map<string, ResolverSymbol>>;
  readonly byFileName: Lookup<Map<string, ResolverSymbol[]>>;
  private readonly scopes: Lookup<FileScope>;
  private readonly fileByPath: Lookup<Pick<ResolverFile, "path" | "language">>;
  private readonly maps: ModuleMaps;
  private readonly types: ReturnLookup<ResolverSymbol> = {
    typeNamed: (written, fromPath) => this.typeNamed(written, fromPath),
    members: (type, name) => membersOf(type, name, this, () => this.memberOf(type, name)),
    inherited: (type, name) => this.inheritedMember(type, name, new Set()),
    definesType: (name) => (this.byName.get(name) ?? []).some(isType),
    isExternal: (name, fromPath) => {
      const scope = this.scopes.get(fromPath);
      return !!scope?.externalNames.has(name) && !scope.moduleAliases.has(name);
    },
    // A Rust impl's or Go method's type may be defined in another file.
    ownerOf: (method) =>
      this.enclosingClass(method) ??
      (method.parent ? this.typeNamed(method.parent, method.path)?.symbol : null) ??
      null,
  };

  constructor(symbols: ResolverSymbol[], files: ResolverFile[]);
  constructor(tables: ResolverTables);
  constructor(symbolsOrTables: ResolverSymbol[] | ResolverTables, files: ResolverFile[] = []) {
    const tables = Array.isArray(symbolsOrTables) ? completeTables(symbolsOrTables, files) : symbolsOrTables;
    this.byName = tables.byName;
    this.byQualified = tables.byQualified;
    this.byFileQualified = tables.byFileQualified;
    this.byFileName = tables.byFileName;
    this.scopes = tables.scopes;
    this.fileByPath = tables.fileByPath;
    this.maps = tables.maps;
  }

  /** Import edges of a file: one per import statement, resolved to a repository file or external. */
  importEdges(file: Pick<ResolverFile, "path" | "language" | "imports">): ResolvedEdge[] {
    return file.imports.flatMap((imp) => {
      const targets = resolveModule(imp.module, file.path, file.language, this.maps);
      const edge = (target: string | null, names: string[]): ResolvedEdge => ({
        kind: "imports",
        srcId: file.path,
        srcPath: file.path,
        dstId: target,
        dstPath: target,
        raw: names.length ? `${imp.module}:${names.join(",")}` : imp.module,
        confidence: target ? 1 : 0,
        line: imp.line,
      });
      // `from pkg import submodule` (`from . import utils`) imports the submodule's file, not
      // the package's `__init__.py`; the names the package itself defines stay its import.
      const submodules =
        file.language === "python"
          ? imp.names.flatMap((name) =>
              submoduleFiles(imp.module, name, file, this.maps)
                .slice(0, 1)
                .map((p) => ({ name, path: p })),
            )
          : [];
      if (submodules.length === 0) return [edge(targets[0] ?? null, imp.names)];
      const own = imp.names.filter((n) => !submodules.some((s) => s.name === n));
      return [
        ...submodules.map((s) => edge(s.path, [s.name])),
        ...(own.length ? [edge(targets[0] ?? null, own)] : []),
      ];
    });
  }

  /** `contains` edges from a class-like symbol to its members, and `inherits` edges to resolved bases. */
  structureEdges(symbol: ResolverSymbol, line: number): ResolvedEdge[] {
    const edges: ResolvedEdge[] = [];
    if (symbol.parent) {
      const parent = this.byFileQualified.get(symbol.path)?.get(symbol.parent);
      if (parent) {
        edges.push({
          kind: "contains",
          srcId: parent.qualifiedId,
          srcPath: parent.path,
          dstId: symbol.qualifiedId,
          dstPath: symbol.path,
          raw: symbol.name,
          confidence: 1,
          line,
        });
      }
    }
    for (const base of symbol.bases) {
      const target = this.lookupBase(base, symbol.path);
      edges.push({
        kind: "inherits",
        srcId: symbol.qualifiedId,
        srcPath: symbol.path,
        dstId: target?.symbol.qualifiedId ?? null,
        dstPath: target?.symbol.path ?? null,
        raw: base,
        confidence: target?.confidence ?? 0,
        line,
      });
    }
    return edges;
  }

  /** Resolves the calls made by one symbol; unresolvable calls produce no edge. */
  callEdges(symbol: ResolverSymbol, calls: ExtractedCall[]): ResolvedEdge[] {
    const edges: ResolvedEdge[] = [];
    const seen = new Set<string>();
    // Library code never calls into its tests: a call that resolves there is a wrong guess.
    const fromTests = isTestPath(symbol.path);
    const results: CallResults<ResolverSymbol> = new CallResults(calls, (call) =>
      this.resolveCall(symbol, call, results).filter(
        (h) => h.confidence >= MIN_EDGE_CONFIDENCE && (fromTests || !isTestPath(h.symbol.path)),
      ),
    );
    for (const call of calls) {
      for (const hit of this.resolveCall(symbol, call, results)) {
        if (hit.confidence < MIN_EDGE_CONFIDENCE || hit.symbol.qualifiedId === symbol.qualifiedId) continue;
        if (!fromTests && isTestPath(hit.symbol.path)) continue;
        const key = `${hit.symbol.qualifiedId}@${call.line}`;
        if (seen.has(key)) continue;
        seen.add(key);
        edges.push({
          kind: "calls",
          srcId: symbol.qualifiedId,
          srcPath: symbol.path,
          dstId: hit.symbol.qualifiedId,
          dstPath: hit.symbol.path,
          raw: call.raw,
          confidence: round(hit.confidence),
          line: call.line,
        });
      }
    }
    return edges;
  }

  private resolveCall(
    symbol: ResolverSymbol,
    call: ExtractedCall,
    results: CallResults<ResolverSymbol>,
  ): Hit[] {
    const { name } = call;
    const receiver = call.receiver;
    const scope = this.scopes.get(symbol.path);
    const rules = LANGUAGE_RULES[symbol.language];
    if (receiver && (SELF_RECEIVERS.has(receiver) || rules?.selfReceivers?.has(receiver))) {
      const cls = this.enclosingClass(symbol);
      if (cls) {
        const own = this.memberOf(cls, name);
        if (own && !SUPER_RECEIVERS.has(receiver) && !rules?.superReceivers?.has(receiver))
          return [{ symbol: own, confidence: 0.95 }];
        const inherited = this.inheritedMember(cls, name, new Set());
        if (inherited) return [{ symbol: inherited, confidence: 0.85 }];
        if (own) return [{ symbol: own, confidence: 0.6 }];
      }
      return this.methodByName(name, symbol, 0.4);
    }
    if (receiver) {
      // A declared type the repository defines first, then what the receiver's call returns.
      const typed = typedReceiverCall(this.types, symbol, call);
      if (typed?.length) return typed;
      const returned = returnedReceiverCall(this.types, call, results);
      if (returned ?? typed) return (returned ?? typed) as Hit[];
      // `log = logging.getLogger(…)`, `logger := zap.NewExample()`, `console`: a library's object.
      if (this.libraryValue(call, scope, symbol.language)) return [];
      const moduleFiles = this.moduleAt(receiver, symbol.path);
      if (moduleFiles) {
        // A module that lacks the name: no guessing.
        const hit = this.exportedFrom(moduleFiles, name);
        return hit ? [{ symbol: hit, confidence: 0.9 }] : [];
      }
      // A class of a known module: `ds_mod.Dataset.from_dict()`, `models::User::create()`.
      const split = splitLast(receiver);
      if (split) {
        const owner = this.moduleAt(split.head, symbol.path);
        const type = owner ? this.exportedFrom(owner, split.last) : null;
        const member = type && isType(type) ? this.memberOf(type, name) : null;
        if (member) return [{ symbol: member, confidence: 0.9 }];
      }
      // `Foo::new()` / `Foo.create()` on a known class name, or on an imported (possibly renamed) one.
      const typeName = receiver.split(/[.:]+/).pop() ?? receiver;
      const capitalized = /^[A-Z]/.test(typeName);
      let unknownType = false;
      if (capitalized || (typeName === receiver && scope?.importedNames.has(receiver))) {
        const type = this.lookupName(typeName, symbol.path, true);
        if (type) {
          const member = this.memberOf(type.symbol, name);
          if (member) return [{ symbol: member, confidence: Math.min(0.9, type.confidence) }];
        } else
          unknownType =
            capitalized && !/::|\\/.test(call.raw) && !(this.byName.get(typeName) ?? []).some(isType);
      }
      // `fmt::detail::check()`, `\Slim\App::x()`: a name in a namespace or a class.
      const qualified = /::|\\/.test(call.raw) ? this.qualified(`${dotted(receiver)}.${name}`, symbol) : null;
      if (qualified) return [{ symbol: qualified, confidence: 0.9 }];
      // `File.unlink`, `Math.max`, `JSON.parse`: a class the repository nowhere defines is a library's.
      if (unknownType) return [];
      if (GENERIC_METHOD_NAMES.has(name)) return [];
      // `path.normalize()`, `np.array()`: a method of a library, not of the repository.
      const head = receiver.split(/\.|::/)[0] ?? receiver;
      if (scope?.externalNames.has(head) && !scope.moduleAliases.has(head) && !scope.importedNames.has(head))
        return [];
      return this.methodByName(name, symbol, 0.5);
    }
    // A bare call inside a method can be a member of its class (C++, C#, Java, Ruby).
    const cls =
      rules?.implicitSelf || BARE_MEMBER_LANGUAGES.has(symbol.language) ? this.enclosingClass(symbol) : null;
    const member = cls ? ownMemberCall(this.types, cls, call) : null;
    if (member) return member;
    const local = this.lookupName(name, symbol.path, false, symbol.qualifiedName);
    if (!local) return [];
    // Calling a class constructs it: link to the class itself.
    return [local];
  }

  /**
   * Whether a call's receiver is an object of a library: assigned from a call into a module
   * outside the repository (`ExtractedCall.from`), or a global the language's runtime
   * provides (`console`, `$stderr`) that the repository does not define.
   */
  private libraryValue(call: ExtractedCall, scope: FileScope | undefined, language: string): boolean {
    const external = (name: string) =>
      !!scope?.externalNames.has(name) && !scope.moduleAliases.has(name) && !scope.importedNames.has(name);
    if (call.from && external(call.from.split(/\.|::|->/)[0] ?? "")) return true;
    const head = (call.receiver ?? "").split(/\.|::|->/)[0] ?? "";
    return (
      !!LIBRARY_GLOBALS[language]?.has(head) &&
      !scope?.moduleAliases.has(head) &&
      !scope?.importedNames.has(head) &&
      !this.byName.get(head)?.length
    );
  }

  private enclosingClass(symbol: ResolverSymbol): ResolverSymbol | null {
    let parentName = symbol.parent;
    let child = symbol;
    const fileSymbols = this.byFileQualified.get(symbol.path);
    while (parentName) {
      // An out-of-line C++ method or a reopened Ruby class has its class in another file.
      const parent =
        fileSymbols?.get(parentName) ??
        (LANGUAGE_RULES[symbol.language]?.openTypes
          ? this.byQualified.get(parentName)?.find(isType)
          : undefined);
      if (!parent) return null;
      if (parent.kind !== "function" && parent.kind !== "method") return parent;
      // A method of a function is a constructor's (`C.prototype.m = function …`): C is its class.
      if (child.kind === "method" && parent.kind === "function") return parent;
      child = parent;
      parentName = parent.parent;
    }
    return null;
  }

  private memberOf(cls: ResolverSymbol, name: string): ResolverSymbol | null {
    const own = this.byFileQualified.get(cls.path)?.get(`${cls.qualifiedName}.${name}`);
    if (own || !LANGUAGE_RULES[cls.language]?.openTypes) return own ?? null;
    return this.byQualified.get(`${cls.qualifiedName}.${name}`)?.[0] ?? null;
  }

  /**
   * A symbol by qualified name, written in full or under one of the caller's enclosing
   * namespaces. In Ruby a bare top-level function (`mock_app`, a `def` outside any
   * class) counts only in the caller's file or in files it requires: any spec file can
   * define one, and a caller sees only those it loads.
   */
  private qualified(
    name: string,
    caller: { qualifiedName: string; language: string; path?: string },
  ): ResolverSymbol | null {
    const family = LANGUAGE_RULES[caller.language]?.family;
    const parts = caller.qualifiedName.split(".");
    for (let n = parts.length - 1; n >= 0; n--) {
      const key = [...parts.slice(0, n), name].join(".");
      const hits = this.byQualified.get(key)?.filter((s) => LANGUAGE_RULES[s.language]?.family === family);
      const byLoad = LANGUAGE_RULES[caller.language]?.topLevelByLoad && !key.includes(".");
      const from = caller.path;
      const hit =
        byLoad && from !== undefined
          ? hits?.find((s) => isType(s) || s.path === from || this.loads(from, s.path))
          : hits?.[0];
      if (hit) return hit;
    }
    return null;
  }

  /** Whether a file imports (requires, includes) another directly. */
  private loads(fromPath: string, target: string): boolean {
    const scope = this.scopes.get(fromPath);
    if (!scope) return false;
    if (scope.starFiles.includes(target)) return true;
    for (const files of scope.moduleAliases.values()) if (files.includes(target)) return true;
    for (const imported of scope.importedNames.values()) if (imported.files.includes(target)) return true;
    return false;
  }

  private inheritedMember(cls: ResolverSymbol, name: string, visited: Set<string>): ResolverSymbol | null {
    if (visited.has(cls.qualifiedId) || visited.size > 8) return null;
    visited.add(cls.qualifiedId);
    for (const base of cls.bases) {
      const target = this.lookupBase(base, cls.path);
      if (!target) continue;
      const member = this.memberOf(target.symbol, name) ?? this.inheritedMember(target.symbol, name, visited);
      if (member) return member;
    }
    return null;
  }

  private topLevelIn(files: string[], name: string): ResolverSymbol | null {
    for (const file of files) {
      const hit = this.byFileQualified.get(file)?.get(name);
      if (hit) return hit;
      // Namespaced languages qualify top-level names by their namespace (`Slim.Routing.Route`).
      const language = this.fileByPath.get(file)?.language;
      const named = LANGUAGE_RULES[language ?? ""]?.namespaced
        ? this.byFileName.get(file)?.get(name)
        : undefined;
      const top = named?.find((s) => !s.parent);
      if (top) return top;
    }
    return null;
  }

  /**
   * A top-level symbol of a module, or one the module imports by name and so re-exports
   * (`from .merge import merge` in a package `__init__`, `export { parse } from "./config"`
   * in an index file), followed a few hops.
   */
  private exportedFrom(files: string[], name: string, hops = 0): ResolverSymbol | null {
    const own = this.topLevelIn(files, name);
    if (own || hops >= MAX_REEXPORT_HOPS) return own;
    for (const file of files) {
      const via = this.scopes.get(file)?.importedNames.get(name);
      const hit = via ? this.importedSymbol(via, name, hops + 1) : null;
      if (hit) return hit;
    }
    return null;
  }

  /** The symbol an imported local name stands for in the module it came from. */
  private importedSymbol(imported: ImportedName, local: string, hops = 0): ResolverSymbol | null {
    if (imported.original !== "default") return this.exportedFrom(imported.files, imported.original, hops);
    // A JS default export: anonymous ones are extracted as `default`; named ones carry a name
    // extraction does not mark as the default, and importers usually reuse it.
    return this.topLevelIn(imported.files, "default") ?? this.topLevelIn(imported.files, local);
  }

  /**
   * Files of the module a receiver names from `fromPath`: a module alias or name (`utils`,
   * `np`), a submodule reached through one (`np.linalg`, `db::pool`), or a module known by
   * its last segment (`self.utils`). Null when the receiver is not a known module.
   */
  private moduleAt(receiver: string, fromPath: string): string[] | null {
    const scope = this.scopes.get(fromPath);
    const file = this.fileByPath.get(fromPath);
    if (!scope || !file || LANGUAGE_RULES[file.language]?.loadsBindNoName) return null;
    const exact = scope.moduleAliases.get(receiver);
    if (exact) return exact;
    const [head = "", ...rest] = receiver.split(/\.|::/);
    let spec = scope.moduleSpecs.get(head);
    let files = spec !== undefined && rest.length > 0 ? scope.moduleAliases.get(head) : undefined;
    for (const segment of rest) {
      if (!files || spec === undefined) break;
      const sub = submoduleFiles(spec, segment, file, this.maps);
      files = sub.length > 0 ? sub : undefined;
      spec = submoduleSpec(spec, segment, file.language);
    }
    return files ?? scope.moduleAliases.get(receiver.split(".").pop() ?? "") ?? null;
  }

  /**
   * A declared type as written: a nested type through its outer class (`CodeBlock.Builder`,
   * never another class's `Builder`), else as a base class is looked up.
   */
  private typeNamed(written: string, fromPath: string): Hit | null {
    const [head = "", ...nested] = written.split(".");
    const outer = nested.length ? this.lookupName(head, fromPath, true) : null;
    if (!outer) return this.lookupBase(written, fromPath);
    let type: ResolverSymbol | null = outer.symbol;
    for (const name of nested) type = type ? this.memberOf(type, name) : null;
    return type && isType(type) ? { symbol: type, confidence: outer.confidence } : null;
  }

  /** A base class as written: `Base`, `mod.Base` / `alias.Base` through a module, `Base<T>`. */
  private lookupBase(base: string, fromPath: string): Hit | null {
    const written = base.replace(/<.*$/, "").replace(/\(.*$/, "").trim();
    const split = splitLast(written);
    if (split) {
      const files = this.moduleAt(split.head, fromPath);
      const hit = files ? this.exportedFrom(files, split.last) : null;
      if (hit && isType(hit)) return { symbol: hit, confidence: 0.9 };
    }
    return this.lookupName(split?.last ?? written, fromPath, true);
  }

  /** A bare name as seen from `fromPath`: same file, then imports (aliases included), then unique elsewhere. */
  private lookupName(name: string, fromPath: string, typesOnly: boolean, caller?: string): Hit | null {
    const sameFile = this.byFileQualified.get(fromPath)?.get(name);
    if (sameFile && (!typesOnly || isType(sameFile))) return { symbol: sameFile, confidence: 0.95 };
    const scope = this.scopes.get(fromPath);
    const imported = scope?.importedNames.get(name);
    if (imported) {
      const hit = this.importedSymbol(imported, name);
      if (hit) return { symbol: hit, confidence: 0.9 };
      // Defined outside the files we can follow (a star re-export, say): fall back to the unique name.
    }
    const fromLanguage = this.fileByPath.get(fromPath)?.language ?? "";
    const fits = (s: ResolverSymbol | null) => s !== null && (!typesOnly || isType(s));
    // Included files (C), and the caller's or imported namespaces (C++, C#, PHP, Ruby).
    const included = scope?.starFiles.length ? this.topLevelIn(scope.starFiles, name) : null;
    if (fits(included)) return { symbol: included as ResolverSymbol, confidence: 0.9 };
    if (LANGUAGE_RULES[fromLanguage]?.namespaced && scope) {
      for (const prefix of [caller ?? "", ...scope.namespaces.map((n) => `${n}.x`)]) {
        const hit = this.qualified(name, { qualifiedName: prefix, language: fromLanguage, path: fromPath });
        if (fits(hit)) return { symbol: hit as ResolverSymbol, confidence: 0.9 };
      }
    }
    const sameFileNested = this.byFileName
      .get(fromPath)
      ?.get(name)
      ?.filter((s) => !s.parent || isType(s));
    if (sameFileNested && sameFileNested.length === 1 && sameFileNested[0]) {
      return { symbol: sameFileNested[0], confidence: 0.8 };
    }
    // A renamed import is known elsewhere by its original name (`_merge` is `merge` in its module).
    const wanted = imported && imported.original !== "default" ? imported.original : name;
    if (GENERIC_METHOD_NAMES.has(wanted)) return null;
    const byLoad = LANGUAGE_RULES[fromLanguage]?.topLevelByLoad ?? false;
    const candidates = (this.byName.get(wanted) ?? []).filter(
      (s) =>
        (typesOnly ? isType(s) : s.kind !== "method") &&
        !s.parent &&
        (!byLoad || isType(s) || s.path === fromPath || this.loads(fromPath, s.path)),
    );
    if (candidates.length === 0) return null;
    const language = this.fileByPath.get(fromPath)?.language;
    const sameLanguage = candidates.filter((c) => compatibleLanguage(c.language, language));
    if (sameLanguage.length === 0) return null;
    const best = closest(sameLanguage, fromPath);
    const confidence = imported ? 0.75 : sameLanguage.length === 1 ? 0.6 : 0.6 / sameLanguage.length;
    return { symbol: best, confidence };
  }

  /**
   * A method called on a receiver whose type is unknown, guessed by its name: never one
   * the language's standard library defines (`to_s`, `each`, `__str__`, `toString`: the
   * receiver is far more likely a string or a list than a repository class), and only
   * when few methods of the repository have the name.
   */
  private methodByName(name: string, caller: ResolverSymbol, base: number): Hit[] {
    if (STDLIB_METHODS[caller.language]?.has(name)) return [];
    const fromPath = caller.path;
    // A Java `socket.send(…)` is no call of a TypeScript class's `send`: only the caller's language family.
    const candidates = (this.byName.get(name) ?? []).filter(
      (s) => s.kind === "method" && compatibleLanguage(s.language, caller.language),
    );
    if (candidates.length === 0 || candidates.length > RARE_METHOD_DEFINITIONS) return [];
    const sameFile = candidates.filter((c) => c.path === fromPath);
    if (sameFile.length === 1 && sameFile[0]) return [{ symbol: sameFile[0], confidence: base + 0.2 }];
    const confidence = base / candidates.length;
    return candidates.map((symbol) => ({ symbol, confidence }));
  }
}

interface Hit {
  symbol: ResolverSymbol;
  confidence: number;
}

/** `a.b.C` → { head: "a.b", last: "C" }; `db::Pool` → { head: "db", last: "Pool" }; null for one segment. */
function splitLast(path: string): { head: string; last: string } | null {
  const match = /^(.+?)(?:\.|::)([^.:]+)$/.exec(path);
  return match?.[1] && match[2] ? { head: match[1], last: match[2] } : null;
}

function isType(s: ResolverSymbol): boolean {
  return s.kind !== "function" && s.kind !== "method";
}

function compatibleLanguage(a: string, b: string | undefined): boolean {
  if (!b) return true;
  const family = (l: string) =>
    l === "typescript" || l === "tsx" || l === "javascript" ? "js" : (LANGUAGE_RULES[l]?.family ?? l);
  return family(a) === family(b);
}

/** Picks the candidate whose path shares the longest directory prefix with `fromPath`. */
function closest(candidates: ResolverSymbol[], fromPath: string): ResolverSymbol {
  let best = candidates[0] as ResolverSymbol;
  let bestScore = -1;
  const from = fromPath.split("/");
  for (const c of candidates) {
    const parts = c.path.split("/");
    let shared = 0;
    while (shared < parts.length && shared < from.length && parts[shared] === from[shared]) shared++;
    if (shared > bestScore) {
      best = c;
      bestScore = shared;
    }
  }
  return best;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
