/**
 * One file from text to the rows it is stored as: tree-sitter extraction (through the
 * extractor's entry, lib/indexer/extract/index.ts), symbols with their qualified ids,
 * chunks with their identifier-split search text, the counts of the file's words (the
 * whole-file lexical index), and the name filter the resolver uses to find the file again. Pure and self-contained, so it runs the same in the
 * build's thread and in parse workers (lib/indexer/parse-pool.ts).
 */
// Types only: erased at run time, so workers load no database code.
import type { ChunkInsert, FileInsert, SymbolInsert } from "../db/index-store.ts";
import { fileTermCounts, indexText, type FileTermCounts } from "../db/tokenize.ts";
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
  terms: FileTermCounts;
}

export function qualifiedIdFor(path: string, qualifiedName: string): string {
  return `${path}::${qualifiedName}`;
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
  const terms = fileTermCounts(source.path, source.content);
  const file = {
    path: source.path,
    language: source.language,
    kind: source.kind,
    hash: source.hash,
    size: source.size,
    lines: source.lines,
    mtimeNs: source.mtimeNs,
    words: terms.length,
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
      terms,
    };
  }
  const extraction = await extractSource(source.language as CodeLanguage, source.content);
  const qid = (name: string) => qualifiedIdFor(source.path, name);
  const seen = new Set<string>();
  const kept = extraction.symbols.filter((s) => {
    // Overloads and redefinitions share a qualified name: keep the first, ids stay unique.
    if (seen.has(s.qualifiedName)) return false;
    seen.add(s.qualifiedName);
    return true;
  });
  const symbols: ParsedSymbol[] = kept.map((s) => ({
    path: source.path,
    qualifiedId: qid(s.qualifiedName),
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
      chunkCode(source.path, fileLines(source.content), kept, (s) => qid(s.qualifiedName)),
    ),
    terms,
  };
}
