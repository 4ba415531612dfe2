/**
 * What a part depends on ("which files does the worker depend on?", "what does src/app
 * depend on?"): the files outside a file or folder that its code imports or calls, the
 * most used first, each cited by what the part uses of it. Imports alone undercount in
 * languages whose files use their package's or namespace's code without importing it
 * (Java, Go, C#), so resolved calls count too.
 */
import "server-only";
import { edgesOfKind, symbolsByQualifiedIds } from "../../db/code-graph.ts";
import { loadCallsTouching, loadImportEdges, loadWikiFiles, type WikiFileRow } from "../../db/wiki-inputs.ts";
import { inScope } from "../../wiki/structure.ts";
import { namedPlaces } from "./scope.ts";
import {
  code,
  fileAnchors,
  importDiagram,
  importWord,
  joinWords,
  type Analysis,
  type Focus,
} from "./analytical-focus.ts";

/**
 * Whether the question asks what its subject depends on, and not also what depends on it
 * ("which files does the authenticator depend on?", "what does src/app import?").
 */
export function asksOwnDependencies(question: string): boolean {
  return (
    /\b(?:what|which(?: \w+){0,2}?) (?:does|do) (?!(?:other|others|they|most|many|all|we|you) )[^?]{1,80}?\b(?:depend(?:s)? on|import|require|include|rely on|use)\b/i.test(
      question,
    ) &&
    !/\bwhat depends on\b|\b(?:which|what) \w+ (?:depend|rely) on\b|\bdepends? on (?:it|them)\b|\b(?:which|what) \w+ (?:import|include|require)s? (?:it|them)\b|\bimporters?\b|\bdependents\b/i.test(
      question,
    )
  );
}

/**
 * A file the question names by its stem ("the worker", "the authenticator"): the words
 * between "does" and the verb, matched without case or separators against the stems of
 * the files the question keeps; the shallowest of several.
 */
async function fileNamedByStem(f: Focus): Promise<string | null> {
  const m =
    /\b(?:does|do)\s+(?:the|a|an|our|its)?\s*([\w -]{2,40}?)(?:'s)?\s+(?:code\s+|module\s+|file\s+|class\s+)?(?:depend(?:s)? on|import|require|include|rely on|use)\b/i.exec(
      f.question,
    );
  return fileWithStem(f.generationId, m?.[1] ?? "", (p) => f.keep(p) && inScope(p, f.scope));
}

/**
 * The code file whose stem is the word, without case or separators (`connectionpool` →
 * src/urllib3/connectionpool.py, "chat transport" → chat-transport.ts); the shallowest of several.
 */
export async function fileWithStem(
  generationId: string,
  word: string,
  keep: (path: string) => boolean,
): Promise<string | null> {
  const wanted = word.toLowerCase().replace(/[\s_-]+/g, "");
  if (!wanted || wanted.length < 3) return null;
  const files = (await loadWikiFiles(generationId))
    .filter((w) => w.kind === "code" && keep(w.path))
    .map((w) => w.path)
    .filter(
      (p) =>
        (p.split("/").pop() ?? "")
          .replace(/\.\w+$/, "")
          .toLowerCase()
          .replace(/[_-]+/g, "") === wanted,
    );
  return files.sort((a, b) => a.split("/").length - b.split("/").length || a.length - b.length)[0] ?? null;
}

/**
 * "Which files does the worker depend on?": a part named by a file's stem, when the
 * question asks what it depends on and names nothing the index resolves.
 */
export async function withFileByStem(f: Focus): Promise<Focus> {
  if (f.symbols.length + f.files.length + f.folders.length > 0 || !asksOwnDependencies(f.question)) return f;
  const file = await fileNamedByStem(f);
  return file ? { ...f, files: [file] } : f;
}

/**
 * "How coupled are poolmanager and connectionpool?", "is there a cycle between the parser
 * and the lexer?", "how do auth and session depend on each other?": two parts named as a
 * pair by a file's stem or a folder's name, with no noun saying what they are, are the
 * parts the question compares. Only when the question asks about cycles, coupling,
 * layering or dependencies and does not already name two files or folders.
 */
export async function withPairByStem(f: Focus): Promise<Focus> {
  const pairAsks = ["cycles", "coupling", "layering", "dependencies"] as const;
  if (f.files.length + f.folders.length >= 2 || !pairAsks.some((a) => f.asks.includes(a))) return f;
  const named = namedPair(f.question);
  if (!named) return f;
  const { pair, folders } = named;
  const keep = (p: string) => f.keep(p) && inScope(p, f.scope);
  const parts: { path: string; folder: boolean; word: string }[] = [];
  for (const word of pair) {
    // In the question's scope if it has one there, else anywhere (the scope may be one of the two).
    const fileNamed = async () =>
      (await fileWithStem(f.generationId, word, keep)) ?? (await fileWithStem(f.generationId, word, f.keep));
    const folderNamed = async () =>
      (await folderWithName(f.generationId, word, keep)) ??
      (await folderWithName(f.generationId, word, f.keep));
    // "The contrib and util packages": folders first, though a file is called util too.
    const folder = folders ? await folderNamed() : null;
    const file = folder ? null : await includedTwin(f, await fileNamed());
    const path = folder ?? file ?? (folders ? null : await folderNamed());
    if (!path) return f;
    parts.push({ path, folder: path !== file, word });
  }
  if (parts[0]?.path === parts[1]?.path) return f;
  // A class named like one of the parts (`PoolManager` in poolmanager.py) is that part here, not a subject.
  const squashed = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, "");
  const words = new Set(parts.map((p) => squashed(p.word)));
  return {
    ...f,
    files: [...new Set([...parts.filter((p) => !p.folder).map((p) => p.path), ...f.files])],
    folders: [...new Set([...parts.filter((p) => p.folder).map((p) => p.path), ...f.folders])],
    symbols: f.symbols.filter((s) => !words.has(squashed(s.symbol.name))),
    unpaired: { files: f.files, folders: f.folders, symbols: f.symbols },
  };
}

const PART_WORD = String.raw`(?:the\s+)?([A-Za-z_][\w-]{2,40})(?:\.\w{1,4})?(?:\s+(?:module|package|file|folder|crate|namespace|directory|layer)s?)?`;

/**
 * Asked about cycles, a C or C++ module named by its stem is the header of its source
 * (`client.c` → `client.h`): the file others include, through which a cycle runs.
 */
async function includedTwin(f: Focus, file: string | null): Promise<string | null> {
  if (!file || !f.asks.includes("cycles") || !/\.(?:c|cc|cpp|cxx|m)$/.test(file)) return file;
  const stem = file.replace(/\.\w+$/, "");
  const headers = (await loadWikiFiles(f.generationId))
    .map((w) => w.path)
    .filter((p) => p.startsWith(`${stem}.`) && /\.(?:h|hh|hpp|hxx)$/.test(p));
  return headers[0] ?? file;
}

/**
 * The two words a question pairs ("between A and B", "are A and B", "do A and B depend…"),
 * and whether it calls them packages, folders, crates or namespaces.
 */
export function namedPair(question: string): { pair: [string, string]; folders: boolean } | null {
  const patterns = [
    new RegExp(String.raw`\bbetween\s+${PART_WORD}\s+(?:and|&)\s+${PART_WORD}`, "i"),
    new RegExp(
      String.raw`\b(?:are|do|is)\s+${PART_WORD}\s+(?:and|&)\s+${PART_WORD}\s+(?:coupled|tangled|entangled|intertwined|dependent|interdependent|connected|linked|depend|import|use|call|rely|in\s+a\s+cycle)\b`,
      "i",
    ),
    new RegExp(
      String.raw`\bhow\s+(?:tightly\s+|closely\s+|strongly\s+|much\s+)?(?:coupled|tangled|entangled|dependent|interdependent|connected)\s+(?:are|is)\s+${PART_WORD}\s+(?:and|&|with|to)\s+${PART_WORD}`,
      "i",
    ),
  ];
  for (const re of patterns) {
    const m = re.exec(question);
    if (m?.[1] && m[2] && !FILLER.test(m[1]) && !FILLER.test(m[2]))
      return {
        pair: [m[1], m[2]],
        folders: /\s(?:package|folder|crate|namespace|director(?:y|ie))s?\b/i.test(m[0]),
      };
  }
  return null;
}

const FILLER =
  /^(?:it|they|them|this|that|these|those|each|other|others|both|all|any|some|there|files?|modules?|packages?|folders?|classes|functions|parts?)$/i;

/** The shallowest folder called `word` (without case or separators) that holds a file the question keeps. */
async function folderWithName(
  generationId: string,
  word: string,
  keep: (path: string) => boolean,
): Promise<string | null> {
  const wanted = word.toLowerCase().replace(/[\s_-]+/g, "");
  if (wanted.length < 3) return null;
  const folders = new Set<string>();
  for (const w of await loadWikiFiles(generationId)) {
    if (w.kind !== "code" || !keep(w.path)) continue;
    const segments = w.path.split("/").slice(0, -1);
    const at = segments.findIndex((s) => s.toLowerCase().replace(/[_-]+/g, "") === wanted);
    if (at >= 0) folders.add(segments.slice(0, at + 1).join("/"));
  }
  return (
    [...folders].sort((a, b) => a.split("/").length - b.split("/").length || a.length - b.length)[0] ?? null
  );
}

/** Two or more folders named as places ("the core package", "the app package") are the parts the question compares. */
export function withPlaces(f: Focus, places: string[]): Focus {
  if (places.length < 2 || f.folders.length + f.files.length >= 2) return f;
  return { ...f, folders: places };
}

/**
 * The file or folder whose dependencies the question asks for: the one it names, a class
 * it names (its file), any symbol when it asks which files or modules, else the scope.
 */
export function ownPart(f: Focus): string | null {
  if (f.files.length === 1 && f.folders.length === 0) return f.files[0] as string;
  if (f.folders.length === 1 && f.files.length === 0) return f.folders[0] as string;
  const first = f.symbols[0]?.symbol;
  if (first && f.symbols.length === 1) {
    const type = first.kind !== "function" && first.kind !== "method";
    const asksFiles =
      /\b(?:which|what) (?:other )?(?:files|modules|packages|headers|sources|classes)\b/i.test(f.question);
    return type || asksFiles ? first.path : null;
  }
  return f.symbols.length === 0 && f.files.length === 0 && f.folders.length === 0 ? f.scope : null;
}

/**
 * "What do the extensions depend on from the api module?": the part named after "from",
 * whose files alone count as what is depended on (a folder or file the question names).
 */
export async function dependedFrom(f: Focus, part: string): Promise<string | null> {
  const phrase =
    /\b(?:depend(?:s|ing)? on|use|uses|using|import|imports|need|needs|require|requires)\s+from\s+([^?]+)/i.exec(
      f.question,
    )?.[1];
  if (!phrase) return null;
  const words = new Set(phrase.toLowerCase().split(/[^\w/.-]+/));
  const named = [...f.folders, ...f.files].find(
    (p) => !inScope(p, part) && words.has((p.replace(/\/+$/, "").split("/").pop() ?? "").toLowerCase()),
  );
  if (named) return named;
  // "… from the core package": a place the phrase names as one.
  return (await namedPlaces(f.generationId, phrase)).find((p) => !inScope(p, part)) ?? null;
}

/** The files outside `part` (a file or a folder) that its code imports or calls, the most used first. */
export async function dependenciesOf(f: Focus, part: string): Promise<Analysis> {
  const wiki = await loadWikiFiles(f.generationId);
  const lines = new Map(wiki.map((w) => [w.path, Math.max(1, w.lines)]));
  const inside = wiki.map((w) => w.path).filter((p) => inScope(p, part) && f.keep(p));
  // "What do the extensions depend on from the api module?": only that part's files count.
  const from = await dependedFrom(f, part);
  const outside = (p: string) => !inScope(p, part) && f.keep(p) && inScope(p, from);
  const [imports, calls, inherits] = await Promise.all([
    loadImportEdges(f.generationId, { from: inside }),
    loadCallsTouching(f.generationId, inside),
    edgesOfKind(f.generationId, "inherits"),
  ]);
  const used = new Map<
    string,
    { imports: number; calls: number; bases: number; symbols: Map<string, number> }
  >();
  const entry = (p: string) => {
    const e = used.get(p) ?? { imports: 0, calls: 0, bases: 0, symbols: new Map<string, number>() };
    used.set(p, e);
    return e;
  };
  // A class built on one outside (extending or implementing it) depends on it, with or without an import.
  const own = new Set(inside);
  for (const b of inherits) {
    if (!own.has(b.srcPath) || !b.dstPath || !b.dstId || !outside(b.dstPath)) continue;
    const e = entry(b.dstPath);
    e.bases++;
    e.symbols.set(b.dstId, (e.symbols.get(b.dstId) ?? 0) + BASE_WEIGHT);
  }
  const outgoing = imports.filter((e) => inScope(e.srcPath, part) && outside(e.dstPath));
  for (const e of outgoing) entry(e.dstPath).imports++;
  for (const c of calls.filter((c) => inScope(c.srcPath, part) && outside(c.dstPath))) {
    const e = entry(c.dstPath);
    e.calls++;
    e.symbols.set(c.dstId, (e.symbols.get(c.dstId) ?? 0) + 1);
  }
  const ranked = [...used]
    .map(([path, e]) => ({ path, ...e, weight: e.imports + e.calls + BASE_WEIGHT * e.bases }))
    .sort((a, b) => b.weight - a.weight || b.imports - a.imports || a.path.localeCompare(b.path));
  const mostUsed = ranked.slice(0, 5).flatMap((r) => {
    const top = [...r.symbols].sort((a, b) => b[1] - a[1])[0];
    return top ? [top[0]] : [];
  });
  const symbols = await symbolsByQualifiedIds(f.generationId, mostUsed);
  const top = ranked.slice(0, 5);
  const anchor = await fileAnchors(
    f.generationId,
    top.map((r) => r.path),
    lines,
  );
  const word = importWord(f.question);
  const uses = (r: (typeof ranked)[number]) =>
    [
      r.imports ? `${r.imports} ${word.verb}${r.imports === 1 ? "" : "s"}` : null,
      r.calls ? `${r.calls} call${r.calls === 1 ? "" : "s"}` : null,
      r.bases ? `${r.bases} class${r.bases === 1 ? "" : "es"} built on it` : null,
    ]
      .filter(Boolean)
      .join(", ");
  const answer = top.length
    ? `${code(part)} depends on ${ranked.length} file${ranked.length === 1 ? "" : "s"} outside it (${f.leftOut}): ${joinWords(
        top.map((r) => `${code(r.path)} (${uses(r)}; ${anchor(r.path)})`),
      )}${ranked.length > top.length ? ` and ${ranked.length - top.length} more` : ""}.`
    : `${code(part)} depends on no other file of the repository through ${word.verb}s or resolved calls (${f.leftOut}).`;
  const single = inside.length === 1 ? inside : [];
  return {
    answer,
    lines: [
      `What ${part} depends on outside it: ${ranked.length} files`,
      ...ranked.slice(0, 12).map((r) => `- ${r.path}: ${uses(r)} [${r.path}:1-${lines.get(r.path) ?? 1}]`),
    ],
    files: [...single, ...top.map((r) => r.path)],
    symbols,
    diagram: importDiagram(
      `What ${part} depends on`,
      [...inside.slice(0, 4), ...ranked.slice(0, 8).map((r) => r.path)],
      outgoing,
      lines,
      single,
    ),
    report: null,
    ranksFiles: true,
  };
}

/** A class extended or implemented counts as this many calls into its file: the subclass is built on it. */
const BASE_WEIGHT = 3;

/** Languages whose imports name namespaces, not files: no file of theirs imports another. */
const NAMESPACE_IMPORTS = new Set(["csharp"]);

/**
 * The file dependencies of the area's files whose imports name namespaces (C# `using`s),
 * read from their resolved calls into each other: what a cycle check reads instead of
 * imports, which such files never have.
 */
export async function namespaceCallEdges(
  f: Focus,
  wiki: WikiFileRow[],
  inArea: (path: string) => boolean,
): Promise<{ from: string; to: string }[]> {
  const files = wiki
    .filter((w) => NAMESPACE_IMPORTS.has(w.language) && w.kind === "code" && inArea(w.path) && f.keep(w.path))
    .map((w) => w.path);
  if (files.length < 2) return [];
  const inside = new Set(files);
  const calls = await loadCallsTouching(f.generationId, files);
  const seen = new Set<string>();
  return calls.flatMap((c) => {
    const key = `${c.srcPath}\n${c.dstPath}`;
    if (c.srcPath === c.dstPath || !inside.has(c.srcPath) || !inside.has(c.dstPath) || seen.has(key))
      return [];
    seen.add(key);
    return [{ from: c.srcPath, to: c.dstPath }];
  });
}
