/**
 * Where an analytical question looks: the scope it names, resolved against the index,
 * and which files count when it names none. A question that is not about tests,
 * examples, documentation, benchmarks, vendored or generated code leaves them out, so
 * they neither top a ranking of "most imported" nor close an import cycle.
 */
import "server-only";
import {
  countFilesUnder,
  filesStartingWith,
  pathsWithDottedSegment,
  pathsWithSegment,
} from "../../db/code-graph.ts";
import { getFile } from "../../db/index-reads.ts";
import type { QuestionTopics } from "../concepts.ts";
import { auxiliaryFactor, isTestPath } from "./shared.ts";
import { pathIndex } from "./file-index.ts";

// Generated code and build output: written by tools, read by nobody asking about structure.
const GENERATED =
  /(^|\/)(?:generated|__generated__|gen|dist|build|out|target|node_modules|third_party|vendor|vendored)\/|_pb2(?:_grpc)?\.py$|\.pb\.(?:go|cc|h)$|\.(?:generated|g|designer)\.\w+$|\.min\.[cm]?js$|(^|\/)(?:bundle|vendor)\.[cm]?js$/i;

/** Whether a file is left out of a structure question with these topics. */
export function excludedByDefault(path: string, topics: QuestionTopics): boolean {
  return auxiliaryFactor(path, topics) < 1 || GENERATED.test(path);
}

/**
 * Parts a question asks to leave out: "leave the bundled decNumber library out", "excluding
 * the examples", "without tools/": each a word a left-out path has as one of its segments.
 */
export function namedExclusions(question: string): string[] {
  const out: string[] = [];
  const patterns = [
    /\b(?:leave|leaving|left|keep|keeping)\s+(?:the\s+)?(?:bundled\s+|vendored\s+|generated\s+|third[- ]party\s+)?([\w./-]+)(?:\s+(?:library|folder|directory|package|code|files?|tree|module))?\s+out\b/gi,
    /\b(?:excluding|exclude|except(?: for)?|ignoring|ignore|without|apart from|other than)\s+(?:the\s+)?(?:bundled\s+|vendored\s+)?([\w./-]+)/gi,
  ];
  for (const pattern of patterns)
    for (const m of question.matchAll(pattern)) {
      const word = (m[1] ?? "").replace(/\/+$/, "");
      if (word.length > 2 && !/^(?:tests?|the|a|an|any|it|them|those|these)$/i.test(word))
        out.push(word.toLowerCase());
    }
  return [...new Set(out)];
}

/** Whether a path lies under a part named by one of the words (a segment equal to it, or a path prefix). */
export function excludedByName(path: string, words: string[]): boolean {
  if (words.length === 0) return false;
  const lower = path.toLowerCase();
  const segments = lower.split("/");
  return words.some((w) =>
    w.includes("/") ? lower.startsWith(`${w}/`) || lower === w : segments.includes(w),
  );
}

/**
 * classifier's scope when files live under it, else a path written in the question
 * (`xarray/plot`, `src/_pytest/config`), else a folder the question names ("the
 * backends package"). Null means the whole repository.
 */
export async function resolveScope(
  generationId: string,
  question: string,
  classified: string | null,
): Promise<string | null> {
  const fromClassifier = await pathScope(generationId, classified);
  if (fromClassifier) return fromClassifier;
  const tokens = question
    .split(/[\s"'`()<>[\]{},;|]+/)
    .map((t) =>
      t
        .replace(/^\.?\//, "")
        .replace(/[.:!?]+$/, "")
        .replace(/\/+$/, ""),
    )
    .filter((t) => t.length > 1 && !t.includes("://"));
  for (const token of tokens.filter((t) => t.includes("/"))) {
    const found = await pathScope(generationId, token);
    if (found) return found;
  }
  const named = [
    ...question.matchAll(
      /\b([\w.-]+)\s+(?:package|module|folder|directory|subpackage|layer|component|namespace|crate|project)s?\b/gi,
    ),
  ]
    .map((m) => m[1] ?? "")
    // Dotted module paths (`xarray.core`, `_pytest.config`) name folders too.
    .concat(
      tokens
        .filter((t) => /^[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+$/.test(t))
        .map((t) => t.replace(/\./g, "/")),
    );
  const tests = /\b(?:tests?|specs?|testing)\b/i.test(question);
  for (const name of [...new Set(named)]) {
    if (STOP_SCOPES.has(name.toLowerCase())) continue;
    // A .NET project folder carries its namespace (`FluentValidation.DependencyInjectionExtensions/`);
    // a test folder of the same name is the place only when the question is about tests.
    const found = [
      await folderNamed(generationId, name),
      /^\w+$/.test(name) ? await folderEndingWith(generationId, [name], 1) : null,
    ].filter((f): f is string => f !== null);
    const folder = found.find((f) => tests || !isTestPath(`${f}/`)) ?? found[0];
    if (folder) return folder;
  }
  // A package or namespace written the language's way, which its folders end with; one
  // segment matching is enough only for a name the question calls a package or namespace.
  const places = new Set(
    [...question.matchAll(/([\w.:\\]+)\s+(?:package|namespace|module|crate|project)s?\b/gi)].map(
      (m) => m[1] ?? "",
    ),
  );
  for (const token of tokens.filter((t) => QUALIFIED_NAME.test(t))) {
    const segments = qualifiedSegments(token);
    const least = places.has(token) || segments.length === 1 ? 1 : 2;
    const folder = await folderEndingWith(generationId, segments, least);
    if (folder) return folder;
    const moduleAt = segments.length >= 2 ? await moduleFile(generationId, segments) : null;
    if (moduleAt) return moduleAt;
  }
  // "in svc", "under backends": a word after a preposition that is exactly a path of the repository.
  for (const m of question.matchAll(/\b(?:in|of|under|inside|within)\s+([\w.-]+)/gi)) {
    const word = m[1] ?? "";
    if (word.length < 2 || STOP_SCOPES.has(word.toLowerCase())) continue;
    const exact = await pathScope(generationId, word);
    if (exact) return exact;
  }
  return null;
}

const STOP_SCOPES = new Set(
  "the a an this that which what our my its each every whole entire main core code module modules package packages folder parts part most more and or of in is are".split(
    " ",
  ),
);

/** A file or a folder of the repository called `name` (a file name, or a folder's last segment); the shallowest wins. */
async function folderNamed(generationId: string, name: string): Promise<string | null> {
  const exact = await pathScope(generationId, name);
  if (exact) return exact;
  if (name.includes("/")) return null;
  const paths = await pathsWithSegment(generationId, name, 50);
  const folders = paths
    .map((p) => {
      const segments = p.split("/");
      const at = segments.indexOf(name);
      return at >= 0 && at < segments.length - 1 ? segments.slice(0, at + 1).join("/") : null;
    })
    .filter((f): f is string => f !== null)
    .sort((a, b) => a.split("/").length - b.split("/").length || a.length - b.length);
  return folders[0] ?? null;
}

/**
 * The folders a question names as places ("does the core package depend on the app
 * package?"), in its order: each word before "package", "folder", "module", "namespace",
 * "crate", "directory" or "project" that is a folder of the repository (a source folder
 * before a test folder of the same name).
 */
export async function namedPlaces(generationId: string, question: string): Promise<string[]> {
  const out: string[] = [];
  for (const m of question.matchAll(
    /\b([\w.:\\-]+)\s+(?:package|folder|module|namespace|crate|directory|project)\b/gi,
  )) {
    const name = m[1] ?? "";
    if (/^(?:the|a|an|this|that|which|what|each|every|its|their|same|other|one|whole|entire)$/i.test(name))
      continue;
    const found = [
      await folderNamed(generationId, name),
      await folderEndingWith(generationId, qualifiedSegments(name), 1),
    ].filter((f): f is string => f !== null);
    const folder = found.find((f) => !isTestPath(`${f}/`)) ?? found[0];
    if (folder && !out.includes(folder)) out.push(folder);
  }
  return out;
}

/** `com.acme.net`, `crate::net`, `Shop\\Net`, `Acme.Shop.Net`: two or more segments of a qualified name. */
const QUALIFIED_NAME = /^\\?[A-Za-z_]\w*(?:(?:\.|::|\\)[A-Za-z_]\w*)+$/;

/** The segments of a qualified name, without the crate or module it is relative to (`crate::`, `self::`). */
export function qualifiedSegments(name: string): string[] {
  const segments = name.split(/\.|::|\\/).filter(Boolean);
  while (segments.length > 1 && /^(?:crate|self|super)$/.test(segments[0] ?? "")) segments.shift();
  return segments;
}

/**
 * The folder a package or namespace names: the one whose path ends with the most of its
 * segments (at least `least`), compared without case and reading a dot inside a folder name as a separator
 * (`src/Acme.Shop/Net` for `Acme.Shop.Net`, `src/main/java/com/acme/net` for
 * `com.acme.net`, `src/Net` for `Shop\\Net` under PSR-4); the shallowest of equals.
 */
async function folderEndingWith(
  generationId: string,
  segments: string[],
  least: number,
): Promise<string | null> {
  const last = segments.at(-1);
  if (!last) return null;
  // Matched without case on both databases.
  const paths = [
    ...(await pathsWithSegment(generationId, last, 200)),
    ...(await pathsWithDottedSegment(generationId, last, 200)),
  ];
  const wanted = segments.map((s) => s.toLowerCase());
  let best: { folder: string; matched: number } | null = null;
  for (const p of paths) {
    const parts = p.split("/");
    for (let at = 0; at < parts.length - 1; at++) {
      const part = parts[at]?.toLowerCase() ?? "";
      if (part !== last.toLowerCase() && !part.endsWith(`.${last.toLowerCase()}`)) continue;
      const folder = parts.slice(0, at + 1).join("/");
      const read = folder.toLowerCase().split(/[/.]/);
      let matched = 0;
      while (matched < wanted.length && read.at(-1 - matched) === wanted.at(-1 - matched)) matched++;
      const better =
        !best ||
        matched > best.matched ||
        (matched === best.matched && folder.split("/").length < best.folder.split("/").length);
      if (better) best = { folder, matched };
    }
  }
  return best && best.matched >= least ? best.folder : null;
}

/**
 * The file a dotted or qualified module name stands for (`urllib3.exceptions` →
 * `src/urllib3/exceptions.py`, `app::net` → `src/app/net.rs`): a file whose path without
 * its extension ends with all the segments; source before tests, the shallowest first.
 */
async function moduleFile(generationId: string, segments: string[]): Promise<string | null> {
  const tail = `/${segments.join("/").toLowerCase()}`;
  const index = await pathIndex(generationId);
  const found = (index.byStem.get(segments.at(-1) as string) ?? [])
    .filter((p) => index.code.has(p) && `/${p.replace(/\.\w+$/, "").toLowerCase()}`.endsWith(tail))
    .sort(
      (a, b) => Number(isTestPath(a)) - Number(isTestPath(b)) || a.split("/").length - b.split("/").length,
    );
  return found[0] ?? null;
}

/** A scope is used as a path filter only when files live under it. */
export async function pathScope(generationId: string, scope: string | null): Promise<string | null> {
  if (!scope) return null;
  const cleaned = scope.replace(/^\.?\//, "").replace(/\/+$/, "");
  if (!cleaned) return null;
  if (await getFile(generationId, cleaned)) return cleaned;
  if ((await countFilesUnder(generationId, `${cleaned}/`)) > 0) return cleaned;
  // A module named without its extension (`app/handlers` for `app/handlers.py`).
  const files = await filesStartingWith(generationId, `${cleaned}.`, 5);
  return files.find((f) => f.replace(/\.\w+$/, "") === cleaned) ?? null;
}
