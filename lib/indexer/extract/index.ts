/**
 * Entry point of code extraction: parses one file with the language's grammar and
 * runs the extraction engine with the language's query and spec. Pure apart from
 * the cached parsers and queries: source in, FileExtraction out.
 */
import type { Node, Tree } from "web-tree-sitter";
import { checkDeadline, withRereadableTree, withTree, type Deadline } from "../parser";
import type { CodeLanguage, FileExtraction } from "../types";
import { countParseErrors } from "./common";
import { runEngine } from "./engine";
import { type LanguageSpec } from "./extraction";
import type { FileFacts } from "../../db/file-shapes.ts";
import { annotateReceiverTypes } from "./declared-types";
import { attachEnclosingSymbols, extractFacts } from "./facts";
import { c, cpp } from "./languages/c";
import { blankDeclarationMacros, firstPreprocessorBranches } from "./languages/c-macros";
import { csharp } from "./languages/csharp";
import { go } from "./languages/go";
import { java } from "./languages/java";
import { php } from "./languages/php";
import { python } from "./languages/python";
import { ruby } from "./languages/ruby";
import { rust } from "./languages/rust";
import { unwrapItemMacros } from "./languages/rust-macros";
import { javascript, tsx, typescript } from "./languages/typescript";

const SPECS: Record<CodeLanguage, LanguageSpec> = {
  python,
  typescript,
  tsx,
  javascript,
  java,
  go,
  rust,
  c,
  cpp,
  csharp,
  ruby,
  php,
};

/**
 * Top-level definition starts where a fresh parse can resume. Only Python needs
 * this: with indentation for blocks, one syntax error can swallow the rest of the
 * file, while the brace languages recover on their own.
 */
const RESYNC_LINES: Partial<Record<CodeLanguage, RegExp>> = {
  python: /^(?:async[ \t]+def|def|class|@)[ \t(]?/,
};

/**
 * The text the grammar parses, when it differs from the file: declaration macros a C or
 * C++ grammar cannot expand, and the wrappers of Rust items written inside a macro call,
 * blanked with offsets kept (names and spans still come from the file's own text).
 */
const PARSED_TEXT: Partial<Record<CodeLanguage, (source: string) => string>> = {
  c: blankDeclarationMacros,
  cpp: blankDeclarationMacros,
  rust: unwrapItemMacros,
};

/**
 * A second reading of a file that does not parse: one branch of each preprocessor
 * conditional (`#if X` around an `else if` breaks a C# method). Kept when it parses
 * with fewer errors.
 */
const REPARSE: Partial<Record<CodeLanguage, (parsed: string) => string>> = {
  c: firstPreprocessorBranches,
  cpp: firstPreprocessorBranches,
  csharp: firstPreprocessorBranches,
};

/** A file's extraction plus its file-level facts (purpose, swallowed errors, TODOs …). */
export type SourceExtraction = FileExtraction & { facts: FileFacts };

/**
 * Extracts one file. Past `deadline` (a parse, query or fold still running) it throws
 * ParseDeadlineError: the caller indexes the file as text instead.
 */
export async function extractSource(
  language: CodeLanguage,
  source: string,
  deadline?: Deadline,
): Promise<SourceExtraction> {
  const parsed = PARSED_TEXT[language]?.(source) ?? source;
  const reparse = REPARSE[language];
  const { state, parseErrors, errorRows, facts } = await withRereadableTree(
    language,
    parsed,
    (tree, reread) => {
      const first: Reading = {
        state: readSymbols(language, tree.rootNode, source, deadline),
        parseErrors: countParseErrors(tree),
        errorRows: tree.rootNode.hasError ? topLevelErrorRows(tree.rootNode) : [],
        facts: extractFacts(language, tree.rootNode, source),
      };
      if (!reparse || first.parseErrors === 0) return first;
      const text = reparse(parsed);
      return text === parsed
        ? first
        : betterReading(language, source, parsed, first, reread(text), text, deadline);
    },
    deadline,
  );
  checkDeadline(deadline);
  const resync = RESYNC_LINES[language];
  if (resync && errorRows.length > 0) {
    const repaired = blankBrokenRegions(source, errorRows, resync);
    if (repaired !== source) {
      const second = await withTree(
        language,
        repaired,
        (tree) => readSymbols(language, tree.rootNode, repaired, deadline),
        deadline,
      );
      // Blanking keeps offsets and lines, so the second result describes the original text.
      if (second.symbols.length > state.symbols.length)
        return withFacts(second.finish(language, parseErrors), facts);
    }
  }
  return withFacts(state.finish(language, parseErrors), facts);
}

/** The engine's symbols and imports, their calls typed by the receivers' declared types. */
function readSymbols(language: CodeLanguage, root: Node, source: string, deadline: Deadline | undefined) {
  const state = runEngine(SPECS[language], root, source, deadline);
  annotateReceiverTypes(language, root, state.symbols);
  return state;
}

interface Reading {
  state: ReturnType<typeof runEngine>;
  parseErrors: number;
  errorRows: number[];
  facts: FileFacts;
}

/**
 * The first reading, or the second (`text`, parsed as `tree`) when that parses with
 * fewer errors; the definitions the first reading found in branches the second left
 * unread (a Windows variant, an `#else` typedef) are kept from it.
 */
function betterReading(
  language: CodeLanguage,
  source: string,
  parsed: string,
  first: Reading,
  tree: Tree,
  text: string,
  deadline: Deadline | undefined,
): Reading {
  const parseErrors = countParseErrors(tree);
  // The engine runs on the second tree only when it parses better.
  if (parseErrors >= first.parseErrors) return first;
  const state = readSymbols(language, tree.rootNode, source, deadline);
  const read = text.split("\n");
  const firstLines = parsed.split("\n");
  for (const symbol of first.state.symbols) {
    // A definition in an unread branch: its first line had code, and none of its lines is read.
    let inside = !!firstLines[symbol.startLine - 1]?.trim();
    for (let line = symbol.startLine; inside && line <= symbol.endLine; line++)
      inside = !read[line - 1]?.trim();
    if (inside) state.symbols.push(symbol);
  }
  // Stable: symbols of one reading keep their order, parents before their members.
  state.symbols.sort((a, b) => a.startLine - b.startLine);
  return { state, parseErrors, errorRows: [], facts: first.facts };
}

function withFacts(extraction: FileExtraction, facts: FileFacts): SourceExtraction {
  attachEnclosingSymbols(facts, extraction.symbols);
  return { ...extraction, facts };
}

/** 0-based first rows of ERROR nodes directly under the root. */
function topLevelErrorRows(root: Node): number[] {
  const rows: number[] = [];
  for (const child of root.children) {
    if (child.type === "ERROR") rows.push(child.startPosition.row);
  }
  return rows;
}

/**
 * Replaces each broken region (from an error's first line up to the next
 * top-level definition) with spaces, keeping every newline so positions match.
 */
function blankBrokenRegions(source: string, errorRows: number[], resync: RegExp): string {
  const lines = source.split("\n");
  const blanked = new Set(errorRows);
  for (const start of errorRows) {
    for (let row = start + 1; row < lines.length && !resync.test(lines[row] ?? ""); row++) blanked.add(row);
  }
  return lines.map((line, row) => (blanked.has(row) ? " ".repeat(line.length) : line)).join("\n");
}

export { languageForPath } from "../parser";
