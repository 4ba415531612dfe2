/**
 * The files of a generation by name, folder and module, read once per generation:
 * what partner files and module paths written in a report (`dayjs/plugin/utc`, a frame
 * in `node_modules/dayjs/plugin/utc.js`) are looked up in.
 */
import "server-only";
import { listFiles } from "../../db/index-reads.ts";
import { generationCache } from "../generation-cache.ts";

export const JS_SOURCE = /\.(?:js|mjs|cjs|jsx|ts|mts|cts|tsx)$/i;
export const DECLARATION = /\.d\.(?:ts|mts|cts)$/i;
/** Folders that hold a package's sources or its declarations, mirrored by each other. */
const SOURCE_ROOTS = new Set(["src", "lib", "source", "types", "typings", "dist", "esm", "cjs", "build"]);

/** The files of a generation by folder and by name. */
export interface PathIndex {
  paths: Set<string>;
  /** the files indexed as code (not text or documentation) */
  code: Set<string>;
  byStem: Map<string, string[]>;
  byDir: Map<string, string[]>;
  /** JavaScript and TypeScript sources (not declarations) by the module they stand for */
  byModule: Map<string, string[]>;
}

export function pathIndexOf(files: Iterable<string | { path: string; kind: string }>): PathIndex {
  const index: PathIndex = {
    paths: new Set(),
    code: new Set(),
    byStem: new Map(),
    byDir: new Map(),
    byModule: new Map(),
  };
  for (const file of files) {
    const path = typeof file === "string" ? file : file.path;
    index.paths.add(path);
    if (typeof file === "string" || file.kind === "code") index.code.add(path);
    push(index.byStem, stemOf(path), path);
    push(index.byDir, dirOf(path), path);
    if (JS_SOURCE.test(path) && !DECLARATION.test(path)) push(index.byModule, modulePath(path), path);
  }
  return index;
}

/** Read once per generation. */
export const pathIndex = generationCache(async (generationId) => pathIndexOf(await listFiles(generationId)));

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function dirOf(path: string): string {
  const at = path.lastIndexOf("/");
  return at < 0 ? "" : path.slice(0, at);
}

export function baseOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** A file's name without its extension (`timezone.d.ts` → timezone, `format-inl.h` → format-inl). */
export function stemOf(path: string): string {
  return baseOf(path)
    .replace(DECLARATION, "")
    .replace(/\.[^.]+$/, "");
}

/**
 * The module a JavaScript or declaration file stands for, as a path without the source
 * root and extension, `index` standing for its folder: `src/plugin/utc/index.js` and
 * `types/plugin/utc.d.ts` are both `plugin/utc`.
 */
export function modulePath(path: string): string {
  const parts = path
    .replace(DECLARATION, "")
    .replace(/\.[^./]+$/, "")
    .split("/");
  if (parts.length > 1 && SOURCE_ROOTS.has(parts[0] as string)) parts.shift();
  if (parts.length > 1 && parts[parts.length - 1] === "index") parts.pop();
  return parts.join("/");
}

/**
 * The JavaScript or TypeScript sources a written module path stands for: an import
 * specifier of the package itself (`dayjs/plugin/utc`) or a built file of it as a stack
 * trace shows it (`dayjs/plugin/utc.js` under node_modules), without the package's
 * name or build folder in front (`src/plugin/utc/index.js`). Empty when none or too
 * many match.
 */
export function filesForModule(index: PathIndex, written: string): string[] {
  const parts = modulePath(written.replace(/^\.?\//, ""))
    .split("/")
    .filter(Boolean);
  for (let drop = 0; drop < Math.min(3, parts.length); drop++) {
    const found = index.byModule.get(parts.slice(drop).join("/")) ?? [];
    if (found.length > 0) return found.length <= 2 ? found : [];
  }
  return [];
}

/** A test file's name with its test marker, and the subject's name it stands for. */
const TEST_NAMES: [RegExp, string][] = [
  [/^test_(.+)$/, "$1"],
  [/^(.+?)[._-](?:test|tests|spec)$/i, "$1"],
  [/^(.+?)(?:Test|Tests|Spec|IT)$/, "$1"],
];

/** Folders that hold a project's tests beside (or mirroring) its sources. */
const TEST_ROOTS = new Set(["test", "tests", "__tests__", "spec", "specs"]);
/** A crate of this many source files or fewer is its root: its integration tests exercise `lib.rs`. */
const SMALL_CRATE = 3;

/**
 * The files a test exercises, by the naming conventions of each language
 * (`logs_test.go` → `logs.go`, `test_config.py` → `config.py`, `utc.test.js` →
 * `utc.js`, `JsonPointerTest.java` → `JsonPointer.java`, `format-test.cc` →
 * `format.h` and `format.cc`): among the files of that name that are not tests, those
 * nearest to the test (at most two). A JavaScript test names a module, found as a
 * module path (`test/plugin/utc.test.js` → `src/plugin/utc/index.js`), and a test
 * exercises sources, never their type declarations; a Rust crate's integration test
 * (`tests/reload.rs`) exercises the crate's file of that name, else the root of a small
 * crate. Empty when the name is no test's.
 */
export function testedFiles(index: PathIndex, test: string, isTest: (path: string) => boolean): string[] {
  if (/\.rs$/.test(test)) return crateTested(index, test);
  const stem = stemOf(test);
  for (const [marker, subject] of TEST_NAMES) {
    if (!marker.test(stem)) continue;
    const name = stem.replace(marker, subject);
    if (JS_SOURCE.test(test)) {
      const modules = moduleTested(index, test, name);
      if (modules.length > 0) return modules;
    }
    const candidates = (index.byStem.get(name) ?? []).filter(
      (p) => p !== test && !isTest(p) && !DECLARATION.test(p),
    );
    if (candidates.length === 0) continue;
    const nearness = (p: string) =>
      sharedPrefix(dirOf(p), dirOf(test)) * 10 + sharedSuffix(dirOf(p), dirOf(test));
    const best = Math.max(...candidates.map(nearness));
    const nearest = candidates.filter((p) => nearness(p) === best);
    return nearest.length <= 2 ? nearest : [];
  }
  return [];
}

/** The JavaScript sources of the module a test is named for, its test folder left out of the path. */
function moduleTested(index: PathIndex, test: string, name: string): string[] {
  const folders = dirOf(test)
    .split("/")
    .filter((f) => f && !TEST_ROOTS.has(f));
  return filesForModule(index, [...folders, name].join("/"));
}

/**
 * What a Rust test exercises: a module's unit tests its module (`src/layer/tests.rs` →
 * `src/layer/mod.rs` or `src/layer.rs`), a crate's integration test the file it is named
 * for (`x/tests/reload.rs`, `x/tests/reload/main.rs` → `x/src/reload.rs`).
 */
function crateTested(index: PathIndex, test: string): string[] {
  if (baseOf(test) === "tests.rs" && baseOf(dirOf(test)) !== "tests") return moduleOfTests(index, test);
  const parts = test.split("/");
  const at = parts.lastIndexOf("tests");
  if (at < 0) return [];
  const crate = parts.slice(0, at).join("/");
  const src = crate ? `${crate}/src/` : "src/";
  const name = at + 2 < parts.length ? (parts[at + 1] as string) : stemOf(test);
  const inCrate = (p: string) => p.startsWith(src) && p.endsWith(".rs");
  const named = [
    ...(index.byStem.get(name) ?? []),
    ...(index.byStem.get("mod") ?? []).filter((p) => p.endsWith(`/${name}/mod.rs`)),
  ].filter(inCrate);
  if (named.length > 0) return named.length <= 2 ? named : [];
  if (!index.paths.has(`${src}lib.rs`)) return [];
  let sources = 0;
  for (const [dir, files] of index.byDir)
    if (`${dir}/`.startsWith(src)) sources += files.filter(inCrate).length;
  return sources <= SMALL_CRATE ? [`${src}lib.rs`] : [];
}

/** The module a Rust `tests.rs` belongs to: its folder's `mod.rs`, the folder's own `x.rs`, or the crate root. */
function moduleOfTests(index: PathIndex, test: string): string[] {
  const dir = dirOf(test);
  const owners = baseOf(dir) === "src" ? [`${dir}/lib.rs`, `${dir}/main.rs`] : [`${dir}/mod.rs`, `${dir}.rs`];
  return owners.filter((p) => index.paths.has(p)).slice(0, 1);
}

function sharedPrefix(a: string, b: string): number {
  const [x, y] = [a.split("/"), b.split("/")];
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n] && x[n] !== "") n++;
  return n;
}

/** Folders two folder paths share from the end (`a/b/x`, `c/b/x` → 2). */
export function sharedSuffix(a: string, b: string): number {
  const [x, y] = [a.split("/").reverse(), b.split("/").reverse()];
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n] && x[n] !== "") n++;
  return n;
}
