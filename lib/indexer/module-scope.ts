/**
 * What a file's imports bind, for the resolver: module maps (a Python dotted module, a
 * JavaScript/TypeScript path with its extensions and index files, each language's module
 * rules) that turn an import's module into files, and a file's scope — the names its
 * imports bind, under their aliases, and the modules they come from.
 *
 * Go imports resolve against the repository's own modules: each go.mod's `module` line
 * roots the folders below it (a go.mod in a subfolder starts a nested module), so
 * `<module>/<dir>` is `<dir>` under that go.mod's folder whatever the module path looks
 * like (`/v5`, `gopkg.in/x.v3`), and an import binds the `package` clause name of the
 * folder it names, not the last segment of its path. Vendored copies and other modules'
 * paths stay external; only folders no go.mod roots fall back to matching a path suffix.
 */
import path from "node:path";
import { dotted, indexFiles, LANGUAGE_RULES, type FileIndex } from "./resolve-languages.ts";
import type { ExtractedImport } from "./types.ts";

export interface ResolverFile {
  path: string;
  language: string;
  imports: ExtractedImport[];
  /** Go: the name the file's `package` clause declares */
  goPackage?: string;
  /** go.mod (language `gomod`): the module path its `module` line declares */
  goModule?: string;
}

/** A Go module of the repository: the folder of its go.mod and the import path that names it. */
export interface GoModule {
  root: string;
  module: string;
}

export interface ModuleMaps {
  /** Python dotted module (and each dotted suffix) → file path. */
  python: Map<string, string>;
  /** Repository files by path (all languages). */
  files: Set<string>;
  /** Java fully qualified class path suffix (`com/x/Foo`) → file path. */
  javaClass: Map<string, string>;
  /** Go directory → files in it. */
  goDirs: Map<string, string[]>;
  /** Go modules, the longest module path first (a nested module's imports match it before its parent's). */
  goModules: GoModule[];
  /** Go directory → the package name its files declare (a non-test file's, when there is one). */
  goPackages: Map<string, string>;
  /** Rust module path (`db::pool`) → file, over every crate (the shortest path wins). */
  rust: Map<string, string>;
  /** Rust module path → file per crate, by the crate's folder (`tracing-core/`; `` at the top). */
  rustByCrate: Map<string, Map<string, string>>;
  /** Rust crate name as code writes it (`tracing_core`) → its folder. */
  rustCrates: Map<string, string>;
  /** every file by path and name, for the rules of resolve-languages.ts */
  index: FileIndex;
}

/** Module maps of a repository: only paths and languages are read. */
export function buildModuleMaps(
  files: Pick<ResolverFile, "path" | "language" | "goPackage" | "goModule">[],
): ModuleMaps {
  const python = new Map<string, string>();
  const javaClass = new Map<string, string>();
  const goDirs = new Map<string, string[]>();
  const goModules: GoModule[] = [];
  const goPackages = new Map<string, string>();
  const goTestPackages = new Map<string, string>();
  const rust = new Map<string, string>();
  const rustByCrate = new Map<string, Map<string, string>>();
  const rustCrates = new Map<string, string>();
  const all = new Set<string>();
  const setIfShorter = (map: Map<string, string>, key: string, value: string) => {
    const existing = map.get(key);
    if (!existing || value.length < existing.length) map.set(key, value);
  };
  for (const file of files) {
    all.add(file.path);
    if (file.language === "python") {
      let parts = file.path.replace(/\.py$/, "").split("/");
      if (parts[parts.length - 1] === "__init__") parts = parts.slice(0, -1);
      // Every suffix maps too, so `src/pkg/mod.py` answers `pkg.mod` (src layouts).
      for (let i = 0; i < parts.length; i++) setIfShorter(python, parts.slice(i).join("."), file.path);
    } else if (file.language === "java") {
      const noExt = file.path.replace(/\.java$/, "");
      const parts = noExt.split("/");
      for (let i = 0; i < parts.length; i++) setIfShorter(javaClass, parts.slice(i).join("/"), file.path);
    } else if (file.language === "go") {
      const dir = path.posix.dirname(file.path);
      const list = goDirs.get(dir) ?? [];
      list.push(file.path);
      goDirs.set(dir, list);
      // `package chi_test` files beside `package chi` test it from outside: the folder is `chi`.
      if (!file.goPackage) continue;
      if (!file.path.endsWith("_test.go")) {
        if (!goPackages.has(dir)) goPackages.set(dir, file.goPackage);
      } else if (!goTestPackages.has(dir)) goTestPackages.set(dir, file.goPackage.replace(/_test$/, ""));
    } else if (file.language === "gomod" && file.goModule) {
      goModules.push({ root: path.posix.dirname(file.path), module: file.goModule });
    } else if (file.language === "rust") {
      const mod = rustModulePath(file.path).join("::");
      const root = rustCrateRoot(file.path);
      if (!mod) continue;
      setIfShorter(rust, mod, file.path);
      if (root === null) continue;
      const crate = rustByCrate.get(root) ?? new Map<string, string>();
      setIfShorter(crate, mod, file.path);
      rustByCrate.set(root, crate);
      const name = root.replace(/\/$/, "").split("/").pop()?.replace(/-/g, "_");
      if (name) rustCrates.set(name, root);
    }
  }
  for (const [dir, name] of goTestPackages) if (!goPackages.has(dir)) goPackages.set(dir, name);
  goModules.sort((a, b) => b.module.length - a.module.length || (a.root < b.root ? -1 : 1));
  return {
    python,
    files: all,
    javaClass,
    goDirs,
    goModules,
    goPackages,
    rust,
    rustByCrate,
    rustCrates,
    index: indexFiles(all),
  };
}

const JS_EXTENSIONS = [".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"];

/** Maps an import specifier in `fromPath` to repository files (empty for external modules). */
export function resolveModule(spec: string, fromPath: string, language: string, maps: ModuleMaps): string[] {
  const dir = path.posix.dirname(fromPath);
  if (language === "python") {
    if (spec.startsWith(".")) {
      const dots = spec.match(/^\.+/)?.[0].length ?? 1;
      let base = dir;
      for (let i = 1; i < dots; i++) base = path.posix.dirname(base);
      const rest = spec.slice(dots).replace(/\./g, "/");
      const target = [base === "." ? "" : base, rest].filter(Boolean).join("/");
      for (const candidate of [`${target}.py`, `${target}/__init__.py`]) {
        if (maps.files.has(candidate)) return [candidate];
      }
      return [];
    }
    const hit = maps.python.get(spec);
    return hit ? [hit] : [];
  }
  if (language === "typescript" || language === "tsx" || language === "javascript") {
    let base: string | null = null;
    if (spec.startsWith("./") || spec.startsWith("../"))
      base = path.posix.normalize(path.posix.join(dir, spec));
    else if (spec.startsWith("@/") || spec.startsWith("~/")) base = spec.slice(2);
    else if (spec.startsWith("/")) base = spec.slice(1);
    if (base === null || base.startsWith("..")) return [];
    const stripped = base.replace(/\.(js|jsx|mjs|cjs)$/, "");
    const candidates = [
      base,
      ...JS_EXTENSIONS.map((e) => stripped + e),
      ...JS_EXTENSIONS.map((e) => `${base}/index${e}`),
    ];
    for (const c of candidates) if (maps.files.has(c)) return [c];
    return [];
  }
  if (language === "java") {
    const hit = maps.javaClass.get(spec.replace(/\.\*$/, "").split(".").join("/"));
    return hit ? [hit] : [];
  }
  if (language === "go") return goImportFiles(spec, maps);
  if (language === "rust") {
    const hit = rustModuleFile(spec, fromPath, maps, false);
    return hit ? [hit] : [];
  }
  return LANGUAGE_RULES[language]?.resolve?.(spec, fromPath, maps.index) ?? [];
}

export interface ImportedName {
  /** Files of the module the name was imported from. */
  files: string[];
  /** Its name in that module: `merge` for `_merge`, `default` for a JS default import. */
  original: string;
}

export interface FileScope {
  /** Local name → where it was imported from (`from x import name`, `import { a as b }`). */
  importedNames: Map<string, ImportedName>;
  /** Module alias (`np`, `utils`, `db`) → files of that module. */
  moduleAliases: Map<string, string[]>;
  /** Module alias → the module path it stands for (`np` → `numpy`), to reach its submodules. */
  moduleSpecs: Map<string, string>;
  /** files whose top-level names are all visible (C/C++ includes) */
  starFiles: string[];
  /** namespaces whose names are visible unqualified (C# `using`, C++ `using namespace`) */
  namespaces: string[];
  /**
   * Local names bound by imports of code outside the repository (`import path from
   * "node:path"`, `import numpy as np`, `from flask import Flask`): a call on one never
   * resolves into the repository by guessing.
   */
  externalNames: Set<string>;
}

/** Re-exports followed from a module to the file defining a name (`__init__` → submodule → …). */
export const MAX_REEXPORT_HOPS = 3;

export function aliasOf(spec: string, language: string): string {
  if (language === "go") return goDefaultName(spec);
  if (language === "rust") return spec.split("::").pop() ?? spec;
  if (language === "python") return spec.replace(/^\.+/, "").split(".").pop() ?? spec;
  return (spec.split("/").pop() ?? spec).replace(/\.[a-z]+$/, "");
}

/** Module path of `name` inside `module`: `pkg.mod`, `.mod` (from `.`), `crate::db::pool`. */
export function submoduleSpec(module: string, name: string, language: string): string {
  if (language === "rust") return `${module}::${name}`;
  return `${module}${module.endsWith(".") ? "" : "."}${name}`;
}

/**
 * Files of a module imported by name from a package (`from pkg import mod`, `use crate::mod`).
 * Exact matches only: `use crate::db::Pool` must not turn the type `Pool` into a module alias.
 */
export function submoduleFiles(
  module: string,
  name: string,
  file: Pick<ResolverFile, "path" | "language">,
  maps: ModuleMaps,
): string[] {
  if (file.language === "python") {
    return resolveModule(submoduleSpec(module, name, file.language), file.path, file.language, maps);
  }
  if (file.language === "rust") {
    const hit = rustModuleFile(submoduleSpec(module, name, "rust"), file.path, maps, true);
    return hit ? [hit] : [];
  }
  return [];
}

/** The folder of a Rust file's crate (the part before its `src/`), or null outside any `src/`. */
function rustCrateRoot(filePath: string): string | null {
  const m = /^(.*\/)?src\//.exec(filePath);
  return m ? (m[1] ?? "") : null;
}

/** A Rust file's module path in its crate: `src/fmt/mod.rs` → fmt; `src/lib.rs` → none. */
function rustModulePath(filePath: string): string[] {
  const stripped = filePath.replace(/^(.*\/)?src\//, "").replace(/\.rs$/, "");
  const mod = stripped.replace(/\/mod$/, "").replace(/^(lib|main)$/, "");
  return mod ? mod.split("/") : [];
}

/**
 * The file of a Rust module path as the importing file writes it. `crate::`, `self::`
 * and `super::` stay inside the importing file's own crate (a workspace has a `collect.rs`
 * in several crates), a path starting with a crate's name (`tracing_core::dispatch`) goes
 * to that crate, and other paths look in the own crate first, then in every crate. The
 * longest module prefix that is a file wins (`crate::db::Pool` → `db.rs`), unless `exact`.
 * A crate root or parent named alone (`use crate::{span, Event}`, a test module's
 * `use super::*`) is no file: its names come from many, and the crate root re-exports
 * them, so an edge to it would put it in a cycle with every module.
 */
function rustModuleFile(spec: string, fromPath: string, maps: ModuleMaps, exact: boolean): string | null {
  let parts = spec.split("::").filter(Boolean);
  let root = rustCrateRoot(fromPath);
  const relative = parts[0] === "crate" || parts[0] === "self" || parts[0] === "super";
  if (parts[0] === "crate") parts = parts.slice(1);
  else if (parts[0] === "self" || parts[0] === "super") {
    // A file's module is its path; `mod.rs`, `lib.rs` and `main.rs` stand for their folder.
    let base = rustModulePath(fromPath);
    for (; parts[0] === "self" || parts[0] === "super"; parts = parts.slice(1))
      if (parts[0] === "super") base = base.slice(0, -1);
    parts = [...base, ...parts];
  } else if (parts[0] && maps.rustCrates.has(parts[0])) {
    root = maps.rustCrates.get(parts[0]) ?? root;
    parts = parts.slice(1);
  }
  const lookup = (mods: Map<string, string> | undefined) => {
    for (let n = parts.length; n >= (exact ? parts.length : 1); n--) {
      const hit = mods?.get(parts.slice(0, n).join("::"));
      if (hit) return hit;
    }
    return null;
  };
  const own = root === null ? null : lookup(maps.rustByCrate.get(root));
  const found = own || (relative && root !== null) ? own : lookup(maps.rust);
  // A path into the file's own inline module (`self::inner`) is no import of another file.
  return found === fromPath ? null : found;
}

/**
 * [local, imported] for each name an import binds. A renamed name is bound only under
 * its alias (`from x import a as b` binds `b`, not `a`); the others under their own name.
 */
export function nameBindings(imp: ExtractedImport): Array<[local: string, original: string]> {
  const bindings = Object.entries(imp.aliases ?? {});
  const renamed = bindings.map(([, original]) => original);
  for (const name of imp.names) {
    if (name === "*") continue;
    // Each alias accounts for one occurrence: `from x import a, a as b` binds both `a` and `b`.
    const i = renamed.indexOf(name);
    if (i >= 0) renamed.splice(i, 1);
    else bindings.push([name, name]);
  }
  return bindings;
}

/** `_` binds nothing (Go blank imports, Rust `use Trait as _`). */
const UNBOUND = "_";

export function buildScope(file: ResolverFile, maps: ModuleMaps): FileScope {
  const scope: FileScope = {
    importedNames: new Map(),
    moduleAliases: new Map(),
    moduleSpecs: new Map(),
    starFiles: [],
    namespaces: [],
    externalNames: new Set(),
  };
  const rules = LANGUAGE_RULES[file.language];
  const bindModule = (local: string, files: string[], spec: string) => {
    if (local === UNBOUND) return;
    scope.moduleAliases.set(local, files);
    scope.moduleSpecs.set(local, spec);
  };
  for (const imp of file.imports) {
    const targets = resolveModule(imp.module, file.path, file.language, maps);
    const wholeModule = imp.names.length === 0 || imp.names.includes("*");
    if (rules?.importsAllNames && wholeModule) scope.starFiles.push(...targets);
    if (rules?.namespaced && wholeModule && targets.length === 0) scope.namespaces.push(dotted(imp.module));
    if (targets.length > 0 && imp.local !== undefined) {
      // `import numpy as np`, `import * as utils`: the module is bound to that name only.
      bindModule(imp.local, targets, imp.module);
    } else if (targets.length > 0 && (imp.names.length === 0 || imp.names.includes("*"))) {
      // No name given (or imports stored before local names were): the module's own name is the usual one.
      const local = file.language === "go" ? goPackageName(imp.module, targets, maps) : null;
      scope.moduleAliases.set(local ?? aliasOf(imp.module, file.language), targets);
      if (file.language === "python") scope.moduleAliases.set(imp.module, targets);
    }
    if (targets.length === 0 && imp.local !== undefined && imp.local !== UNBOUND)
      scope.externalNames.add(imp.local);
    else if (targets.length === 0 && wholeModule && imp.local === undefined) {
      // `import os.path` binds `os`; `import "fmt"` binds `fmt`.
      scope.externalNames.add(
        file.language === "python"
          ? (imp.module.split(".")[0] ?? imp.module)
          : aliasOf(imp.module, file.language),
      );
    }
    for (const [local, original] of nameBindings(imp)) {
      if (local === UNBOUND) continue;
      // `from pkg import submodule` imports a module, not a symbol; the package itself need
      // not be a file (a namespace package, the Rust crate root).
      const sub = submoduleFiles(imp.module, original, file, maps);
      if (sub.length > 0) bindModule(local, sub, submoduleSpec(imp.module, original, file.language));
      if (targets.length === 0) {
        if (sub.length === 0) scope.externalNames.add(local);
        continue;
      }
      scope.importedNames.set(local, { files: targets, original });
    }
  }
  return scope;
}

/** A go.mod's module path (`module github.com/go-chi/chi/v5`), or null when it declares none. */
export function goModulePath(content: string): string | null {
  const m = /^\s*module\s+(?:"([^"\s]+)"|([^\s/"]\S*))/m.exec(content.replace(/\/\/.*$/gm, ""));
  return m ? (m[1] ?? m[2] ?? null) : null;
}

/**
 * The name a Go import binds when the package's own clause is unknown (code outside the
 * repository): the last path segment, without a major-version suffix (`chi/v5` → chi,
 * `gopkg.in/yaml.v3` → yaml) or a `go-` prefix (`go-sqlite3` → sqlite3).
 */
export function goDefaultName(spec: string): string {
  const parts = spec.split("/");
  let last = parts.pop() ?? spec;
  if (/^v\d+$/.test(last) && parts.length > 0) last = parts.pop() ?? last;
  return last.replace(/\.v\d+$/, "").replace(/^go-/, "");
}

/** The package name an unaliased Go import binds: the `package` clause of the folder it resolved to. */
function goPackageName(spec: string, targets: string[], maps: ModuleMaps): string | null {
  const first = targets[0];
  return first === undefined ? null : (maps.goPackages.get(path.posix.dirname(first)) ?? null);
}

/** The repository module whose go.mod roots `dir` (the deepest one), if any. */
function goModuleOf(dir: string, maps: ModuleMaps): GoModule | null {
  const depth = (root: string) => (root === "." ? 0 : root.length + 1);
  let best: GoModule | null = null;
  for (const mod of maps.goModules) {
    const inside = mod.root === "." || dir === mod.root || dir.startsWith(`${mod.root}/`);
    if (inside && (best === null || depth(mod.root) > depth(best.root))) best = mod;
  }
  return best;
}

/**
 * Files of the Go package an import path names: under the repository module whose path
 * prefixes it, in the folder of the same relative path, when that folder belongs to that
 * module (not to a nested one). Folders no go.mod roots (GOPATH-era layouts, fixtures)
 * still match by path suffix.
 */
function goImportFiles(spec: string, maps: ModuleMaps): string[] {
  for (const mod of maps.goModules) {
    if (spec !== mod.module && !spec.startsWith(`${mod.module}/`)) continue;
    const dir = path.posix.join(mod.root, spec.slice(mod.module.length + 1));
    return goModuleOf(dir, maps) === mod ? (maps.goDirs.get(dir) ?? []) : [];
  }
  for (const [goDir, files] of maps.goDirs) {
    if (goModuleOf(goDir, maps) !== null) continue;
    if (spec === goDir || spec.endsWith(`/${goDir}`)) return files;
  }
  return [];
}
