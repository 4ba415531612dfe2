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
  /** a top-level function of another file is visible only to files that load it (Ruby `require`) */
  topLevelByLoad?: boolean;
  /**
   * loading a file binds no name (Ruby `require`, C `#include`): a receiver named like a
   * loaded file (`store.save` after `require "shop/store"`) is a variable, never that module
   */
  loadsBindNoName?: boolean;
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
  c: { family: "c", resolve: resolveInclude, importsAllNames: true, loadsBindNoName: true },
  cpp: {
    family: "c",
    resolve: resolveInclude,
    importsAllNames: true,
    loadsBindNoName: true,
    namespaced: true,
    implicitSelf: true,
    openTypes: true,
  },
  csharp: { family: "csharp", namespaced: true, implicitSelf: true, openTypes: true },
  ruby: {
    family: "ruby",
    resolve: resolveRequire,
    namespaced: true,
    implicitSelf: true,
    openTypes: true,
    topLevelByLoad: true,
    loadsBindNoName: true,
  },
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

const words = (text: string) => new Set(text.split(/\s+/).filter(Boolean));

/**
 * Methods each language's standard library defines on its strings, numbers,
 * collections and base object. A call of one on a receiver of unknown type is never
 * guessed into a same-named method of the repository: `name.to_s` is far more likely a
 * String's than the one class in the repository that defines `to_s`.
 */
const RUBY_METHODS = words(`
  to_s to_str to_a to_ary to_h to_hash to_i to_int to_f to_r to_c to_sym to_proc to_json to_param to_yaml inspect
  each each_with_index each_with_object each_pair each_key each_value each_char each_line each_slice map map!
  flat_map collect select select! filter reject reject! find detect find_all find_index inject reduce sum count
  min max min_by max_by sort sort! sort_by group_by partition zip take drop first last include? member? key?
  has_key? value? has_value? fetch dig store delete delete_if keep_if merge merge! update keys values size length
  empty? any? all? none? nil? is_a? kind_of? instance_of? respond_to? send public_send call to_enum tap then
  dup clone freeze frozen? hash eql? equal? == <=> === =~ join split strip lstrip rstrip chomp chop gsub gsub! sub
  sub! upcase downcase capitalize start_with? end_with? match match? scan format % + - * / << push pop shift
  unshift insert concat compact compact! flatten uniq uniq! reverse slice slice! index rindex clear replace
  transform_values transform_keys read write close open exist? unlink puts print raise new instance_variable_get
  instance_variable_set define_method method methods class extend include
`);

const PYTHON_METHODS = words(`
  __str__ __repr__ __init__ __call__ __enter__ __exit__ __eq__ __hash__ __len__ __iter__ __next__ __getitem__
  __setitem__ __contains__ __bool__ __format__ append extend insert pop remove clear copy count index sort
  reverse get keys values items update setdefault popitem fromkeys add discard union intersection difference
  format join split rsplit splitlines strip lstrip rstrip startswith endswith replace lower upper title find
  rfind encode decode read readline readlines write writelines close open seek flush send throw
`);

const JS_METHODS = words(`
  toString valueOf toJSON toLocaleString hasOwnProperty isPrototypeOf map filter forEach reduce reduceRight find
  findIndex findLast some every includes indexOf lastIndexOf push pop shift unshift slice splice concat join
  reverse sort flat flatMap fill keys values entries at then catch finally call apply bind get set has delete
  add clear split replace replaceAll trim trimStart trimEnd toUpperCase toLowerCase startsWith endsWith match
  matchAll padStart padEnd charAt charCodeAt substring substr test exec emit on off once addEventListener
  removeEventListener next return throw
`);

const JAVA_METHODS = words(`
  toString equals hashCode compareTo getClass clone length size isEmpty get put add addAll remove contains
  containsKey containsValue keySet values entrySet iterator hasNext next stream map filter collect forEach
  orElse isPresent append substring indexOf charAt split trim startsWith endsWith replace format valueOf close
  read write flush run call apply accept test
`);

const GO_METHODS = words(
  `String Error Len Less Swap Read Write Close Unwrap Is As Lock Unlock Done Err Value`,
);

const RUST_METHODS = words(`
  to_string to_owned clone into from as_ref as_mut unwrap expect iter iter_mut into_iter map and_then ok_or
  collect len is_empty push pop insert remove get get_mut contains fmt eq cmp partial_cmp hash next default
`);

const CSHARP_METHODS = words(`
  ToString Equals GetHashCode GetType CompareTo Add Remove Contains ContainsKey TryGetValue Clear Count Select
  Where First FirstOrDefault Any All ToList ToArray ToDictionary Dispose Append Format Split Trim Replace
`);

const PHP_METHODS = words(
  `__toString __construct __invoke __get __set __call getIterator count offsetGet offsetSet offsetExists offsetUnset jsonSerialize`,
);

export const STDLIB_METHODS: Partial<Record<string, ReadonlySet<string>>> = {
  ruby: RUBY_METHODS,
  python: PYTHON_METHODS,
  javascript: JS_METHODS,
  typescript: JS_METHODS,
  tsx: JS_METHODS,
  java: JAVA_METHODS,
  go: GO_METHODS,
  rust: RUST_METHODS,
  csharp: CSHARP_METHODS,
  php: PHP_METHODS,
  c: new Set<string>(),
  cpp: words(
    `size empty begin end push_back pop_back insert erase find count at data c_str str clear reset get swap`,
  ),
};

/** Objects the runtime provides under a global name: a call on one is never a repository method. */
const JS_GLOBALS = words(`console process window document navigator globalThis localStorage sessionStorage`);

export const LIBRARY_GLOBALS: Partial<Record<string, ReadonlySet<string>>> = {
  javascript: JS_GLOBALS,
  typescript: JS_GLOBALS,
  tsx: JS_GLOBALS,
  ruby: words(`$stdout $stderr STDOUT STDERR Rails`),
};
