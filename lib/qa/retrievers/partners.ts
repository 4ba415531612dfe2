/**
 * Partner files: the files a change to a top-ranked file usually touches as well — its
 * header or implementation (`jv.h`/`jv.c`, `format.h`/`format-inl.h`), the type
 * declarations beside a JavaScript source (`types/plugin/utc.d.ts` for
 * `src/plugin/utc/index.js`), the module that declares it (`mod.rs`), the grammar a
 * parser is generated from, the interface it implements, the wrapper that delegates to
 * it, the files of its own module that declare what it uses (a Go package's
 * `types.go`, a JavaScript module's imported `constant.js`, a C header declaring the
 * functions it defines), and what the repository's history changed together with it. A fix or feature
 * that spans such a pair is localized only when both are ranked, so each partner is
 * brought up right below the file it belongs to, in proportion to how sure the
 * relation is.
 */
import "server-only";
import { fileDegrees, fileRelations, type FileRelation } from "../../db/file-relations.ts";
import { coChangesOf, type CoChangeRow } from "../../db/co-change.ts";
import { symbolSpansInFiles } from "../../db/code-graph.ts";
import {
  baseOf,
  DECLARATION,
  dirOf,
  JS_SOURCE,
  modulePath,
  pathIndex,
  sharedSuffix,
  stemOf,
  type PathIndex,
} from "./file-index.ts";

export interface Partner {
  path: string;
  /** how sure the relation is, 0–1 */
  weight: number;
  why: string;
}

const HEADER = /\.(?:h|hh|hpp|hxx|h\+\+)$/i;
const SOURCE = /\.(?:c|cc|cpp|cxx|c\+\+|m|mm)$/i;
/** Inline implementations of a header: `format-inl.h`, `foo_inl.h`, `foo.inl`, `foo.ipp`, `foo.tcc`. */
const INLINE = /(?:[-_]inl\.(?:h|hh|hpp)|\.(?:inl|ipp|tcc))$/i;
/** Generated file ← the file it is generated from (same folder and stem). */
const GENERATED_FROM: [RegExp, string[]][] = [
  [/\.(?:c|cc|cpp|h|hpp)$/i, [".y", ".yy", ".l", ".ll", ".re", ".rl"]],
  [/\.tab\.(?:c|cc|h|hh)$/i, [".y", ".yy"]],
  [/\.pb\.(?:go|cc|h)$|_pb2\.py$|_pb\.(?:js|ts|rb)$/i, [".proto"]],
];

/** Top folders a build writes its output into. */
const BUILD_OUTPUT =
  /^(?:build|dist|out|lib|es|esm|cjs|umd|single_include|amalgamated|deno_dist|generated)$/i;

/**
 * Whether two paths differ only in their first folder, one of them where a build writes
 * (`include/a/x.h` and `single_include/a/x.h`, `src/index.js` and `build/index.js`).
 * Sibling packages of a workspace laid out alike (`tracing-core/src/lib.rs`,
 * `tracing-error/src/lib.rs`; `rest/internal/x.go`, `zrpc/internal/x.go`) are no copies.
 */
function isMirrored(a: string, b: string): boolean {
  const [x, y] = [a.split("/"), b.split("/")];
  if (x.length !== y.length || x.length < 2 || x[0] === y[0]) return false;
  if (x.slice(1).join("/") !== y.slice(1).join("/")) return false;
  return BUILD_OUTPUT.test(x[0] ?? "") || BUILD_OUTPUT.test(y[0] ?? "");
}

/** Partners a file has by its name and place alone. */
export function pathPartners(path: string, index: PathIndex): Partner[] {
  const out: Partner[] = [];
  const stem = stemOf(path);
  const add = (other: string, weight: number, why: string) => {
    if (other !== path && index.paths.has(other)) out.push({ path: other, weight, why });
  };
  // Header and implementation, near each other or in mirrored folders (include/x.h, src/x.cc).
  if (HEADER.test(path) || SOURCE.test(path) || INLINE.test(path)) {
    const base = stem.replace(/[-_]inl$/i, "");
    const same = [...(index.byStem.get(base) ?? []), ...(index.byStem.get(`${base}-inl`) ?? [])];
    same.push(...(index.byStem.get(`${base}_inl`) ?? []));
    for (const other of new Set(same)) {
      if (other === path) continue;
      const pair =
        (HEADER.test(path) && !INLINE.test(path) && (SOURCE.test(other) || INLINE.test(other))) ||
        ((SOURCE.test(path) || INLINE.test(path)) && HEADER.test(other) && !INLINE.test(other));
      if (!pair) continue;
      // An inline implementation is the header's own body; a C source's header changes
      // with it only when an interface does.
      const inline = INLINE.test(other) || INLINE.test(path);
      const near = dirOf(other) === dirOf(path) || sharedSuffix(dirOf(path), dirOf(other)) > 0;
      add(
        other,
        inline ? 0.9 : near ? 0.6 : 0.45,
        inline ? "inline implementation" : "header and implementation",
      );
    }
  }
  // Type declarations beside a JavaScript source, and the source of a declaration file.
  if (JS_SOURCE.test(path)) {
    const ownModule = modulePath(path);
    const candidates = [
      ...(index.byStem.get(stem) ?? []),
      ...(stem === "index" ? (index.byStem.get(baseOf(dirOf(path))) ?? []) : []),
      ...(index.byStem.get("index") ?? []),
    ];
    for (const other of new Set(candidates)) {
      if (other === path || DECLARATION.test(path) === DECLARATION.test(other)) continue;
      if (!JS_SOURCE.test(other) || modulePath(other) !== ownModule) continue;
      add(other, 0.8, "type declarations");
    }
  }
  // A copy of the file built or generated into a mirrored folder (include/x.hpp and
  // single_include/x.hpp, src/x.ts and deno_dist/x.ts).
  for (const other of index.byStem.get(stem) ?? []) {
    if (other !== path && baseOf(other) === baseOf(path) && isMirrored(path, other))
      add(other, 0.7, "a copy built from it");
  }
  // The Rust module that declares this one (`mod x;` in mod.rs, the parent `x.rs` or lib.rs).
  if (/\.rs$/.test(path) && !/(?:^|\/)(?:mod|lib|main)\.rs$/.test(path)) {
    const dir = dirOf(path);
    add(`${dir}/mod.rs`, 0.4, "declaring module");
    add(`${dir}.rs`, 0.4, "declaring module");
    if (baseOf(dir) === "src") add(`${dir}/lib.rs`, 0.3, "crate root");
  }
  // The file a generated one is made from (parser.c ← parser.y), and back.
  for (const [generated, sources] of GENERATED_FROM) {
    const bare = path.replace(/\.tab(?=\.)/, "").replace(/(?:\.pb|_pb2|_pb)?\.[^./]+$/, "");
    if (generated.test(path)) for (const ext of sources) add(`${bare}${ext}`, 0.8, "generated from it");
    if (sources.some((ext) => path.endsWith(ext))) {
      for (const other of index.byStem.get(stem) ?? [])
        if (generated.test(other) && dirOf(other) === dirOf(path)) add(other, 0.8, "generated from it");
    }
  }
  return out;
}

/** How many of a file's calls into other files go to one file before it counts as a wrapper. */
const CALL_SHARE = 0.25;
const MIN_CALLS = 5;
/** A header included by at most this many files belongs to them. */
const PRIVATE_HEADER_INCLUDERS = 2;
/** Files wrapping one file (or wrapped by it) beyond which it is a hub, not a partner. */
const MAX_WRAPPERS = 2;
/** Implementations of one interface beyond which none of them is a partner. */
const MAX_IMPLEMENTERS = 4;

/** Names every package has (an index, a module root): two of them are no pair. */
const GENERIC_NAMES = /^(?:index|mod|lib|main|__init__|init|util|utils|types|common|config)\.[^.]+$/;

/** Whether two files of one name are one module in two places: nested, or mirrored in sibling packages. */
function isTwinPlace(a: string, b: string): boolean {
  if (GENERIC_NAMES.test(baseOf(a))) return false;
  const [da, db] = [dirOf(a), dirOf(b)];
  if (da === db) return false;
  if (da.startsWith(`${db}/`) || db.startsWith(`${da}/`)) return true;
  const [ra, rb] = [da.split("/"), db.split("/")];
  return ra.length === rb.length && ra.length > 1 && ra.slice(1).join("/") === rb.slice(1).join("/");
}

/** Partners a file has by what its code calls, extends and includes. */
export function relationPartners(
  path: string,
  relations: FileRelation[],
  degrees: Map<string, { callsOut: number; importers: number }>,
  index: PathIndex,
): Partner[] {
  const mine = relations.filter((r) => r.path === path);
  const out: Partner[] = [];
  const calls = new Map<string, { out: number; in: number }>();
  for (const r of mine.filter((x) => x.kind === "calls")) {
    const entry = calls.get(r.other) ?? { out: 0, in: 0 };
    entry[r.direction] += r.count;
    calls.set(r.other, entry);
  }
  // A wrapper and what it wraps: most of one file's calls into other files go to the
  // other. A file most of whose calls go to a hub (a library's core, called by every
  // plugin) is one of many, and no partner of it.
  const own = degrees.get(path)?.callsOut ?? 0;
  const callsTo: Partner[] = [];
  const callsFrom: Partner[] = [];
  const weight = (share: number) => 0.35 + 0.4 * Math.min(1, share);
  for (const [other, c] of calls) {
    if (c.out + c.in < MIN_CALLS) continue;
    const outShare = own ? c.out / own : 0;
    const inShare = c.in / Math.max(1, degrees.get(other)?.callsOut ?? c.in);
    // What many files import is a library of helpers, not the one this file fronts.
    const shared = (degrees.get(other)?.importers ?? 0) > MAX_WRAPPERS;
    if (outShare >= CALL_SHARE && !shared)
      callsTo.push({ path: other, weight: weight(outShare), why: "delegates to it" });
    else if (inShare >= CALL_SHARE) callsFrom.push({ path: other, weight: weight(inShare), why: "wraps it" });
  }
  if (callsTo.length <= MAX_WRAPPERS) out.push(...callsTo);
  if (callsFrom.length <= MAX_WRAPPERS) out.push(...callsFrom);
  // An interface and its implementations change together when the interface does (a
  // method added to both); a fix inside one class seldom does: a weak relation.
  const implementers = mine.filter((r) => r.kind === "inherits" && r.direction === "in");
  for (const r of mine.filter((x) => x.kind === "inherits")) {
    if (r.direction === "out") out.push({ path: r.other, weight: 0.45, why: "extends or implements it" });
    else
      out.push({
        path: r.other,
        weight: implementers.length > MAX_IMPLEMENTERS ? 0.2 : 0.4,
        why: "implements it",
      });
  }
  for (const r of mine.filter((x) => x.kind === "imports")) {
    const importers = degrees.get(r.other)?.importers ?? Number.POSITIVE_INFINITY;
    if (r.direction === "out" && HEADER.test(r.other) && importers <= PRIVATE_HEADER_INCLUDERS) {
      out.push({ path: r.other, weight: 0.6, why: "its private header" });
    }
    // A facade and the package it fronts: the same file name in the folder it imports,
    // below its own (zrpc/client.go and zrpc/internal/client.go) or at the same place
    // in a sibling package (tracing/src/span.rs and tracing-core/src/span.rs).
    const twin = (index.byDir.get(dirOf(r.other)) ?? []).find(
      (f) => f !== path && baseOf(f) === baseOf(path) && isTwinPlace(path, f),
    );
    if (twin) out.push({ path: twin, weight: 0.6, why: "the same module behind a facade" });
  }
  return out;
}

/** Language families whose files of one folder form one module (a Go package, a C library's sources). */
const FAMILIES = [
  /\.(?:c|h|cc|hh|cpp|hpp|cxx|hxx|c\+\+|h\+\+|m|mm)$/i,
  JS_SOURCE,
  /\.go$/,
  /\.rs$/,
  /\.java$/,
];
/**
 * Where a folder is one namespace (a Go or Java package), a file uses its siblings'
 * names unqualified; elsewhere a shared name says little (C sources of one folder are
 * separate units), and only an import does.
 */
const PACKAGE_FOLDER = /\.(?:go|java)$/;
/** A folder of more files than this is a collection, not one module. */
const MAX_MODULE_FILES = 80;
/** Names of another file a file must use (an import counts as this many) before it depends on it. */
const MIN_USES = 2;
const IDENTIFIER = /[A-Za-z_$][\w$]*/g;
const CALLED = /([A-Za-z_]\w*)\s*\(/g;

/** The other files of a file's module: its folder's files in its language family. */
export function moduleFiles(path: string, index: PathIndex): string[] {
  const family = FAMILIES.find((f) => f.test(path));
  const files = index.byDir.get(dirOf(path)) ?? [];
  if (!family || files.length > MAX_MODULE_FILES) return [];
  return files.filter((f) => f !== path && index.code.has(f) && family.test(f) && !DECLARATION.test(f));
}

/** A header named for a source, as its private part (`jv_type_private.h` for `jv.c`). */
function isPrivateHeaderOf(header: string, source: string): boolean {
  const [h, s] = [stemOf(header), stemOf(source)];
  return HEADER.test(header) && (h.startsWith(`${s}_`) || h.startsWith(`${s}-`));
}

/** What a file and the files of its module declare and say, as module partners read them. */
export interface ModuleFacts {
  /** the file's own lines */
  lines: string[];
  /** top-level names each file of the module (and the file itself) declares */
  declared: Map<string, string[]>;
  /** resolved imports from the file into each file of its module */
  imports: Map<string, number>;
  /** the lines of the module's headers named for the file (C and C++) */
  headers: Map<string, string[]>;
}

/**
 * Partners within a file's own module: the files declaring the types, constants and
 * functions it uses (a Go package's `types.go`, a JavaScript module's imported
 * `constant.js`), weighted by their share of what it uses from its module; and a header
 * named for it whose declarations are mostly functions it defines (`jv_type_private.h`
 * declaring two functions of `jv.c`), weighted by that share.
 */
export function modulePartners(path: string, facts: ModuleFacts): Partner[] {
  const own = new Set(facts.declared.get(path) ?? []);
  const words = new Set(facts.lines.join("\n").match(IDENTIFIER) ?? []);
  const uses = new Map<string, number>();
  for (const [other, names] of facts.declared) {
    if (other === path) continue;
    const used = PACKAGE_FOLDER.test(path)
      ? new Set(names.filter((n) => n.length >= 3 && !own.has(n) && words.has(n))).size
      : 0;
    const count = JS_SOURCE.test(path) ? (facts.imports.get(other) ?? 0) : 0;
    const imported = count > 0 ? Math.max(MIN_USES, count) : 0;
    if (used + imported >= MIN_USES) uses.set(other, used + imported);
  }
  const total = [...uses.values()].reduce((a, b) => a + b, 0);
  const out: Partner[] = [...uses].map(([other, n]) => ({
    path: other,
    weight: 0.4 + 0.4 * (n / total),
    why: "declares what it uses",
  }));
  for (const [header, lines] of facts.headers) {
    if (!isPrivateHeaderOf(header, path)) continue;
    const named = new Set([...lines.join("\n").matchAll(CALLED)].map((m) => m[1] as string));
    const mine = [...named].filter((n) => own.has(n)).length;
    if (mine >= MIN_USES)
      out.push({ path: header, weight: 0.5 + 0.4 * (mine / named.size), why: "declares its functions" });
  }
  return out;
}

/** Top-level names of some files, from their symbols (`a/b.go::Route`, not `a/b.go::Route.Method`). */
function topLevelNames(spans: Map<string, { qualifiedId: string }[]>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [file, symbols] of spans) {
    const names = symbols.map((s) =>
      s.qualifiedId.slice(s.qualifiedId.indexOf("::") + 2).replace(/#\d+$/, ""),
    );
    out.set(file, [...new Set(names.filter((n) => n && !n.includes(".")))]);
  }
  return out;
}

/** Reads the module facts of some files: one symbol query, their own text and their module's headers. */
async function readModuleFacts(
  generationId: string,
  files: string[],
  index: PathIndex,
  relations: FileRelation[],
  read: (path: string) => Promise<string[] | null>,
): Promise<Map<string, ModuleFacts>> {
  const modules = new Map(files.map((f) => [f, moduleFiles(f, index)]));
  const spans = await symbolSpansInFiles(generationId, [
    ...new Set([...files, ...[...modules.values()].flat()]),
  ]);
  const declared = topLevelNames(spans);
  const out = new Map<string, ModuleFacts>();
  for (const file of files) {
    const siblings = modules.get(file) ?? [];
    if (siblings.length === 0) continue;
    const inModule = new Set(siblings);
    const imports = new Map<string, number>();
    for (const r of relations)
      if (r.path === file && r.kind === "imports" && r.direction === "out" && inModule.has(r.other))
        imports.set(r.other, (imports.get(r.other) ?? 0) + r.count);
    const privateHeaders = SOURCE.test(file) ? siblings.filter((s) => isPrivateHeaderOf(s, file)) : [];
    const [lines, ...headerLines] = await Promise.all(
      [file, ...privateHeaders].map(async (f) => (await read(f)) ?? []),
    );
    out.set(file, {
      lines: lines ?? [],
      declared: new Map([file, ...siblings].map((f) => [f, declared.get(f) ?? []])),
      imports,
      headers: new Map(privateHeaders.map((h, i) => [h, headerLines[i] ?? []])),
    });
  }
  return out;
}

/** A file changed with this share of another's commits goes with it. */
const CO_CHANGE_SHARE = 0.3;
/**
 * Commits counted as changing the file alone before any are read: a share taken from
 * two commits is chance (two of two is not twenty of twenty), so a short history says
 * less than a long one, and never makes a partner sure.
 */
const PRIOR_COMMITS = 3;

/** Partners from history: files changed in the same commits as this one, often enough. */
export function historyPartners(rows: CoChangeRow[]): Partner[] {
  return rows.flatMap((r) => {
    const share = r.count / (Math.max(r.count, r.changes) + PRIOR_COMMITS);
    return share >= CO_CHANGE_SHARE
      ? [
          {
            path: r.partner,
            weight: Math.min(0.85, 0.3 + share * 0.6),
            why: `changed together in ${r.count} commits`,
          },
        ]
      : [];
  });
}

/** Keeps each partner once, at its strongest relation (several relations make it surer). */
function merge(partners: Partner[]): Partner[] {
  const byPath = new Map<string, Partner>();
  for (const p of partners) {
    const seen = byPath.get(p.path);
    if (!seen) byPath.set(p.path, { ...p });
    else {
      seen.weight = 1 - (1 - seen.weight) * (1 - p.weight);
      if (p.weight > seen.weight) seen.why = p.why;
    }
  }
  return [...byPath.values()].sort((a, b) => b.weight - a.weight);
}

/** The partners of some files, each file's strongest first. */
export async function partnersOf(
  generationId: string,
  repositoryId: string,
  files: string[],
  read: (path: string) => Promise<string[] | null>,
): Promise<Map<string, Partner[]>> {
  const key = (file: string) => `${generationId}\n${file}`;
  const missing = files.filter((f) => !partnerCache.has(key(f)));
  if (missing.length > 0) {
    const loading = readPartners(generationId, repositoryId, missing, read);
    for (const file of missing) {
      const one = loading.then((m) => m.get(file) ?? []);
      one.catch(() => partnerCache.delete(key(file)));
      partnerCache.set(key(file), one);
    }
    while (partnerCache.size > PARTNER_CACHE) partnerCache.delete(partnerCache.keys().next().value as string);
  }
  return new Map(
    await Promise.all(files.map(async (f) => [f, (await partnerCache.get(key(f))) ?? []] as const)),
  );
}

// A file's partners are the same for every question on a generation: the leading files
// of one repository's questions are few, and reading their edges is the cost.
const PARTNER_CACHE = 256;
const partnerCache = new Map<string, Promise<Partner[]>>();

async function readPartners(
  generationId: string,
  repositoryId: string,
  files: string[],
  read: (path: string) => Promise<string[] | null>,
): Promise<Map<string, Partner[]>> {
  const [index, relations, history] = await Promise.all([
    pathIndex(generationId),
    fileRelations(generationId, files),
    coChangesOf(repositoryId, files),
  ]);
  const others = [...new Set(relations.map((r) => r.other))];
  const [degrees, modules] = await Promise.all([
    fileDegrees(generationId, [...files, ...others]),
    readModuleFacts(generationId, files, index, relations, read),
  ]);
  const out = new Map<string, Partner[]>();
  for (const file of files) {
    // Code changed with code: the notes and docs a commit also touched are no partners.
    const changed = historyPartners(history.get(file) ?? []).filter((p) => index.code.has(p.path));
    out.set(
      file,
      merge([
        ...pathPartners(file, index),
        ...relationPartners(file, relations, degrees, index),
        ...(modules.has(file) ? modulePartners(file, modules.get(file) as ModuleFacts) : []),
        ...changed,
      ]),
    );
  }
  return out;
}

/** Partners weaker than this are not brought up. */
const MIN_WEIGHT = 0.4;
/** A partner this sure (a header, the declarations, a file it delegates to) keeps a place near the top. */
const SURE_WEIGHT = 0.6;

/**
 * A file ranking with the partners of its leading files brought up: a partner scores at
 * least its file's score times the relation's weight and `factor` (0.8), so a sure
 * partner ranks right below its file and a weaker one only above files with less
 * evidence than that. Partners that are tests, docs or vendored code (`keep` false) stay
 * where they were. With `reserve`, the surest partner of the first leading file that has
 * a sure one outside the first `reserve` files takes the last of those places: a fix
 * that spans a pair is found only when both are in the few files read first, and a
 * flat ranking of many weak signals would otherwise push the partner just below them.
 */
export function withPartners(
  scored: [string, number][],
  partners: Map<string, Partner[]>,
  options: { leading: number; keep: (path: string) => boolean; factor?: number; reserve?: number },
): [string, number][] {
  const scores = new Map(scored);
  const factor = options.factor ?? 0.8;
  const leading = scored.slice(0, options.leading).map(([file]) => file);
  for (const [file, score] of scored.slice(0, options.leading)) {
    for (const p of partners.get(file) ?? []) {
      if (p.weight < MIN_WEIGHT || !options.keep(p.path)) continue;
      const lifted = score * p.weight * factor;
      if (lifted > (scores.get(p.path) ?? 0)) scores.set(p.path, lifted);
    }
  }
  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1]);
  return options.reserve ? reservePlace(ranked, leading, partners, options.keep, options.reserve) : ranked;
}

/** The ranking with one sure partner of a leading file moved up to place `places` (see withPartners). */
function reservePlace(
  ranked: [string, number][],
  leading: string[],
  partners: Map<string, Partner[]>,
  keep: (path: string) => boolean,
  places: number,
): [string, number][] {
  if (ranked.length <= places) return ranked;
  const first = new Set(ranked.slice(0, places).map(([file]) => file));
  // The place goes to a partner surer than the file it pushes out, when that file is
  // itself a leading file's partner: a sure pair already in the first places stays there.
  const last = (ranked[places - 1] as [string, number])[0];
  const holding = Math.max(
    0,
    ...leading.flatMap((file) =>
      (partners.get(file) ?? []).filter((p) => p.path === last).map((p) => p.weight),
    ),
  );
  for (const file of leading) {
    const sure = (partners.get(file) ?? []).find(
      (p) => p.weight >= SURE_WEIGHT && p.weight > holding && keep(p.path) && !first.has(p.path),
    );
    if (!sure) continue;
    const rest = ranked.filter(([path]) => path !== sure.path);
    const place = rest[places - 1] as [string, number];
    return [...rest.slice(0, places - 1), [sure.path, place[1]], ...rest.slice(places - 1)];
  }
  return ranked;
}

/** How much more evidence than the partner the file it would push out may have. */
const EDGE_EVIDENCE = 1.5;

/**
 * A pair at the edge of the first places: a file ranked there below the leading files,
 * whose sure partner has evidence of its own just below them (within twice as many
 * places), comes in whole — the partner right below its file, in place of the lowest
 * file there that neither pairs with one of the first files nor is a leading one
 * (`rest/server.go` fifth and the `engine.go` it delegates to seventh, a fix spanning
 * both), unless that file has much more evidence than the partner (a class the report
 * names is not pushed out by a subclass that calls into its neighbour). Only one pair.
 */
export function pairAtEdge(
  ranked: [string, number][],
  leading: string[],
  partners: Map<string, Partner[]>,
  keep: (path: string) => boolean,
  places: number,
): [string, number][] {
  const first = ranked.slice(0, places).map(([file]) => file);
  const below = first.filter((f) => !leading.includes(f));
  const rankOf = new Map(ranked.map(([file], i) => [file, i]));
  const scoreOf = (file: string) => (ranked[rankOf.get(file) as number] as [string, number])[1];
  const sure = (file: string) =>
    (partners.get(file) ?? []).filter((p) => p.weight >= SURE_WEIGHT && keep(p.path));
  const paired = new Set(
    first.flatMap((file) =>
      (partners.get(file) ?? []).filter((p) => p.weight >= MIN_WEIGHT).map((p) => p.path),
    ),
  );
  for (const file of below) {
    const partner = sure(file).find((p) => {
      const at = rankOf.get(p.path);
      return at !== undefined && at >= places && at < places * 2;
    });
    if (!partner) continue;
    const victim = [...below]
      .reverse()
      .find((f) => f !== file && !paired.has(f) && !sure(f).some((p) => first.includes(p.path)));
    if (!victim || scoreOf(victim) > scoreOf(partner.path) * EDGE_EVIDENCE) continue;
    const rest = ranked.filter(([f]) => f !== victim && f !== partner.path);
    const at = rest.findIndex(([f]) => f === file) + 1;
    const moved: [string, number] = [partner.path, (rest[at - 1] as [string, number])[1]];
    const out = [...rest.slice(0, at), moved, ...rest.slice(at)];
    out.splice(places, 0, ranked[rankOf.get(victim) as number] as [string, number]);
    return out;
  }
  return ranked;
}
