/**
 * One file from text to the rows it is stored as: tree-sitter extraction (through the
 * extractor's entry, lib/indexer/extract/index.ts), symbols with their qualified ids,
 * chunks with their identifier-split search text, the counts of the file's words (the
 * whole-file lexical index), and the name filter the resolver uses to find the file again. Pure and self-contained, so it runs the same in the
 * build's thread and in parse workers (lib/indexer/parse-pool.ts).
 */
// Types only: erased at run time, so workers load no database code.
import type { ChunkInsert, FileInsert, SymbolInsert } from "../db/build-writes.ts";
import { numberedIds } from "../db/symbol-ids.ts";
import { fileTermCounts, indexText, type FileTermCounts } from "../db/tokenize.ts";
import { chunkCode, chunkText, fileLines } from "./chunk.ts";
import { detectEntryPoints } from "./entry-points.ts";
import { extractSource } from "./extract/index.ts";
import { buildNameFilter, referencedNames } from "./name-filter.ts";
import { goModulePath } from "./module-scope.ts";
import { getParser, ParseDeadlineError, type Deadline } from "./parser.ts";
import type { CodeLanguage } from "./types.ts";
import type { DiscoveredFile } from "./discover.ts";

/** A file as discovery hands it over (lib/indexer/discover.ts). */
export type SourceFile = DiscoveredFile;

/** Why a code file was not parsed; it is then indexed as text (searchable, no symbols). */
export type UnparsedReason = "timeout" | "memory" | "error";

/**
 * Seconds a file may spend being parsed and extracted: a base plus a rate per MiB, far
 * above what linear extraction needs (about 2 s for a 1 MiB file of 17k functions), so
 * only a pathological input reaches it.
 */
export const PARSE_BUDGET = { baseSeconds: 10, secondsPerMb: 20 };

export function parseBudgetSeconds(bytes: number, budget = PARSE_BUDGET): number {
  return Math.round((budget.baseSeconds + (budget.secondsPerMb * bytes) / (1024 * 1024)) * 10) / 10;
}

/** A symbol row as a parse produces it (the build adds the id of its file row). */
export type ParsedSymbol = Omit<SymbolInsert, "fileId">;

/** A chunk row as a parse produces it. */
export type ParsedChunk = Omit<ChunkInsert, "fileId">;

export interface ParsedFile {
  file: FileInsert;
  content: string;
  symbols: ParsedSymbol[];
  chunks: ParsedChunk[];
  terms: FileTermCounts;
}

function searchable(path: string, chunks: ReturnType<typeof chunkCode>): ParsedChunk[] {
  return chunks.map((c) => ({
    ...c,
    path,
    searchText: indexText(`${path}\n${c.title}\n${c.text}`),
    tokens: Math.ceil(c.text.length / 3.6),
  }));
}

/**
 * A file as text: its chunks, no symbols. What minified code and files whose parse
 * failed become (`unparsed` says why for the latter).
 */
export function textFile(source: SourceFile, unparsed: string | null = null): ParsedFile {
  return textRows(
    source,
    unparsed,
    fileTermCounts(source.path, source.content),
    searchable(source.path, chunkText(source.path, source.content, source.language)),
  );
}

function textRows(
  source: SourceFile,
  unparsed: string | null,
  terms: FileTermCounts,
  chunks: ParsedChunk[],
): ParsedFile {
  return {
    file: { ...fileRow(source, terms), imports: "[]", parseErrors: 0, facts: "{}", callNames: "", unparsed },
    content: source.content,
    symbols: [],
    chunks,
    terms,
  };
}

/**
 * A code file that could not be parsed, as text with the reason; if even its text cannot
 * be chunked, the file is kept (its content readable, its reason reported) without chunks.
 * Never throws: this is what the pool falls back to whatever went wrong with one file.
 */
export function unparsedFile(source: SourceFile, reason: string): ParsedFile {
  const unparsed = reason.slice(0, 500);
  try {
    return textFile(source, unparsed);
  } catch {
    return textRows(source, unparsed, { terms: [], counts: [], length: 0 }, []);
  }
}

function fileRow(source: SourceFile, terms: FileTermCounts) {
  return {
    path: source.path,
    language: source.language,
    kind: source.kind,
    hash: source.hash,
    size: source.size,
    lines: source.lines,
    mtimeNs: source.mtimeNs,
    fileClass: source.fileClass,
    classReason: source.classReason,
    words: terms.length,
  };
}

/**
 * Parses a file, never throwing for its content: a parse that runs past its budget
 * (parseBudgetSeconds) or throws (a grammar or extraction failure, a stack overflow on
 * absurd nesting) leaves the file indexed as text, with the reason recorded.
 */
export async function parseFile(
  source: SourceFile,
  options: { budget?: typeof PARSE_BUDGET } = {},
): Promise<ParsedFile> {
  if (source.kind === "code" && source.fileClass !== "minified") {
    const seconds = parseBudgetSeconds(source.size, options.budget);
    try {
      // Loading a grammar is a one-off cost of the process, not of this file: its budget starts after.
      await getParser(source.language as CodeLanguage);
      return await parseCode(source, { at: performance.now() + seconds * 1000, seconds });
    } catch (error) {
      const [reason, detail]: [UnparsedReason, string] =
        error instanceof ParseDeadlineError
          ? ["timeout", `over ${error.seconds} s`]
          : ["error", error instanceof Error ? error.message : String(error)];
      return unparsedFile(source, `${reason}: ${detail}`);
    }
  }
  // Minified code is searchable text; parsing it would only make a call graph of noise.
  if (source.kind === "code") return textFile(source);
  // Manifests (package.json, pyproject.toml, setup.cfg) declare the commands a package installs.
  const entryPoints = detectEntryPoints({ ...source, symbols: [] });
  const parsed = textFile(source);
  // A go.mod's module path is what the resolver maps the Go imports of its folder under.
  const goModule = source.language === "gomod" ? goModulePath(source.content) : null;
  if (entryPoints.length || goModule)
    parsed.file.facts = JSON.stringify({
      ...(entryPoints.length ? { entryPoints } : {}),
      ...(goModule ? { goModule } : {}),
    });
  return parsed;
}

async function parseCode(source: SourceFile, deadline: Deadline): Promise<ParsedFile> {
  const terms = fileTermCounts(source.path, source.content);
  const file = fileRow(source, terms);
  const extraction = await extractSource(source.language as CodeLanguage, source.content, deadline);
  const kept = extraction.symbols;
  // Overloads and redefinitions share a qualified name: each is a symbol, numbered after the first.
  const ids = numberedIds(
    source.path,
    kept.map((s) => s.qualifiedName),
  );
  const idOf = new Map(kept.map((s, i) => [s, ids[i] as string]));
  const symbols: ParsedSymbol[] = kept.map((s, i) => ({
    path: source.path,
    qualifiedId: ids[i] as string,
    name: s.name,
    qualifiedName: s.qualifiedName,
    kind: s.kind,
    language: source.language,
    startLine: s.startLine,
    endLine: s.endLine,
    signature: s.signature,
    docstring: s.docstring,
    parentId: s.parent,
    exported: s.exported,
    calls: JSON.stringify(s.calls),
    raises: JSON.stringify(s.raises),
    mutates: JSON.stringify(s.mutates),
    errorStrings: JSON.stringify(s.errorStrings),
    decorators: JSON.stringify(s.decorators),
    bases: JSON.stringify(s.bases),
  }));
  return {
    file: {
      ...file,
      imports: JSON.stringify(extraction.imports),
      parseErrors: extraction.parseErrors,
      facts: JSON.stringify({
        ...extraction.facts,
        entryPoints: detectEntryPoints({ ...source, symbols: kept }),
      }),
      callNames: buildNameFilter(kept.flatMap(referencedNames)),
      unparsed: null,
    },
    content: source.content,
    symbols,
    chunks: searchable(
      source.path,
      chunkCode(source.path, fileLines(source.content), kept, (s) => idOf.get(s) as string),
    ),
    terms,
  };
}
