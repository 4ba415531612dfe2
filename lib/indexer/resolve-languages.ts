/**
 * Module and name resolution rules of C, C++, C#, Ruby and PHP, used by `resolve.ts`:
 * which repository files an include/require/use names, and how a bare name is looked
 * up (through included files, namespaces, the class around a call).
 */
import path from "node:path";

export interface LanguageRules {
  /** languages whose symbols this one can call (C calls C++ and back) */
  family: string;
  /** files a module specifier names, from the importing file */
  resolve?(spec: string, fromPath: string, files: FileIndex): string[];
  /** an import without names makes every top-level name of its files visible (C includes) */
  importsAllNames?: boolean;
  /** names live in namespaces: a bare name is looked up under the caller's namespaces and those it imports */
  namespaced?: boolean;
  /** a bare call inside a method may be a member of the method's class (C++, C#, Ruby) */
  implicitSelf?: boolean;
  /** a class can be continued in other files (C++ out-of-line members, C# partial classes, Ruby reopening) */
  openTypes?: boolean;
  /** receivers that are the instance or its class (PHP `$this`, `static`), and its parent class (`parent`) */
  selfReceivers?: ReadonlySet<string>;
  superReceivers?: ReadonlySet<string>;
}

/** Repository files by path and by file name. */
export interface FileIndex {
  all: Set<string>;
  byName: Map<string, string[]>;
}

export function indexFiles(paths: Iterable<string>): FileIndex {
  const index: FileIndex = { all: new Set(), byName: new Map() };
  for (const file of paths) {
    index.all.add(file);
    const name = path.posix.basename(file);
    const list = index.byName.get(name);
    if (list) list.push(file);
    else index.byName.set(name, [file]);
  }
  return index;
}

/** Files whose path ends with `suffix` (whole segments), the ones sharing most folders with `fromPath` first. */
function bySuffix(suffix: string, fromPath: string, files: FileIndex): string[] {
  const found = (files.byName.get(path.posix.basename(suffix)) ?? []).filter(
    (f) => f === suffix || f.endsWith(`/${suffix}`),
  );
  const from = fromPath.split("/");
  const shared = (f: string) => {
    const parts = f.split("/");
    let n = 0;
    while (n < parts.length && n < from.length && parts[n] === from[n]) n++;
    return n;
  };
  return found.sort((a, b) => shared(b) - shared(a) || a.length - b.length);
}

/** A path relative to the importing file's folder, when that file exists. */
function relative(spec: string, fromPath: string, files: FileIndex): string | null {
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(fromPath), spec));
  return !joined.startsWith("..") && files.all.has(joined) ? joined : null;
}

const HEADER = /\.(h|hh|hpp|hxx|h\+\+)$/;
const SOURCE_EXTENSIONS = [".c", ".cc", ".cpp", ".cxx", ".c++"];

/**
 * `#include "jv.h"`: the header (next to the includer, else anywhere its path ends so)
 * and the source files that pair with it (`jv.c` next to it, else the nearest one).
 */
function resolveInclude(spec: string, fromPath: string, files: FileIndex): string[] {
  const written = spec.replace(/^[<"]|[>"]$/g, "");
  const header = relative(written, fromPath, files) ?? bySuffix(written, fromPath, files)[0];
  if (!header) return [];
  if (!HEADER.test(header)) return [header];
  const stem = header.replace(HEADER, "");
  for (const ext of SOURCE_EXTENSIONS) if (files.all.has(stem + ext)) return [header, stem + ext];
  const base = path.posix.basename(stem);
  for (const ext of SOURCE_EXTENSIONS) {
    const source = bySuffix(base + ext, header, files)[0];
    if (source) return [header, source];
  }
  return [header];
}

/** `require_relative "x"` (written `./x`) and `require "sinatra/base"` (found under a load path). */
function resolveRequire(spec: string, fromPath: string, files: FileIndex): string[] {
  const file = spec.endsWith(".rb") ? spec : `${spec}.rb`;
  if (spec.startsWith(".")) {
    const hit = relative(file, fromPath, files);
    return hit ? [hit] : [];
  }
  const hit = bySuffix(file, fromPath, files)[0];
  return hit ? [hit] : [];
}

/** `use Slim\Routing\Route` by its autoload path (`…/Routing/Route.php`); `require __DIR__ . "/x.php"`. */
function resolvePhp(spec: string, fromPath: string, files: FileIndex): string[] {
  if (spec.endsWith(".php")) {
    const hit = relative(spec, fromPath, files) ?? bySuffix(spec.replace(/^\.?\//, ""), fromPath, files)[0];
    return hit ? [hit] : [];
  }
  const parts = spec.replace(/^\\/, "").split("\\");
  for (let i = 0; i < parts.length; i++) {
    const hit = bySuffix(`${parts.slice(i).join("/")}.php`, fromPath, files)[0];
    if (hit) return [hit];
  }
  return [];
}

export const LANGUAGE_RULES: Partial<Record<string, LanguageRules>> = {
  c: { family: "c", resolve: resolveInclude, importsAllNames: true },
  cpp: {
    family: "c",
    resolve: resolveInclude,
    importsAllNames: true,
    namespaced: true,
    implicitSelf: true,
    openTypes: true,
  },
  csharp: { family: "csharp", namespaced: true, implicitSelf: true, openTypes: true },
  ruby: { family: "ruby", resolve: resolveRequire, namespaced: true, implicitSelf: true, openTypes: true },
  php: {
    family: "php",
    resolve: resolvePhp,
    namespaced: true,
    selfReceivers: new Set(["$this", "static", "parent"]),
    superReceivers: new Set(["parent"]),
  },
};

/** `fmt::detail`, `\Slim\App`, `Sinatra::Base` → the dotted form symbols are qualified by. */
export function dotted(path: string): string {
  return path.replace(/^(::|\\)/, "").replace(/::|\\/g, ".");
}
