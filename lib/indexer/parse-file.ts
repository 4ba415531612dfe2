/**
 * One file from text to the rows it is stored as: tree-sitter extraction (through the
 * extractor's entry, lib/indexer/extract/index.ts), symbols with their qualified ids,
 * chunks with their identifier-split search text, and the name filter the resolver
 * uses to find the file again. Pure and self-contained, so it runs the same in the
 * build's thread and in parse workers (lib/indexer/parse-pool.ts).
 */
// Types only: erased at run time, so workers load no database code.
import type { ChunkInsert, FileInsert, SymbolInsert } from "../db/index-store.ts";
import { numberedIds } from "../db/symbol-ids.ts";
import { indexText } from "../db/tokenize.ts";
import { chunkCode, chunkText, fileLines } from "./chunk.ts";
import { detectEntryPoints } from "./entry-points.ts";
import { extractSource } from "./extract/index.ts";
import { buildNameFilter, referencedNames } from "./name-filter.ts";
import type { CodeLanguage } from "./types.ts";

/** A file as discovery hands it over (lib/indexer/discover.ts). */
export interface SourceFile {
  path: string;
  language: string;
  kind: "code" | "text";
  content: string;
  hash: string;
  size: number;
  lines: number;
  /** modification time vouching for the content on a later build (lib/indexer/discover.ts) */
  mtimeNs: string | null;
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
}

function searchable(path: string, chunks: ReturnType<typeof chunkCode>): ParsedChunk[] {
  return chunks.map((c) => ({
    ...c,
    path,
    searchText: indexText(`${path}\n${c.title}\n${c.text}`),
    tokens: Math.ceil(c.text.length / 3.6),
  }));
}

export async function parseFile(source: SourceFile): Promise<ParsedFile> {
  const file = {
    path: source.path,
    language: source.language,
    kind: source.kind,
    hash: source.hash,
    size: source.size,
    lines: source.lines,
    mtimeNs: source.mtimeNs,
  };
  if (source.kind === "text") {
    // Manifests (package.json, pyproject.toml, setup.cfg) declare the commands a package installs.
    const entryPoints = detectEntryPoints({ ...source, symbols: [] });
    return {
      file: {
        ...file,
        imports: "[]",
        parseErrors: 0,
        facts: entryPoints.length ? JSON.stringify({ entryPoints }) : "{}",
        callNames: "",
      },
      content: source.content,
      symbols: [],
      chunks: searchable(source.path, chunkText(source.path, source.content, source.language)),
    };
  }
  const extraction = await extractSource(source.language as CodeLanguage, source.content);
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
    },
    content: source.content,
    symbols,
    chunks: searchable(
      source.path,
      chunkCode(source.path, fileLines(source.content), kept, (s) => idOf.get(s) as string),
    ),
  };
}
