/**
 * Entry point of code extraction: parses one file with the language's grammar and
 * runs the extraction engine with the language's query and spec. Pure apart from
 * the cached parsers and queries: source in, FileExtraction out.
 */
import type { Node } from "web-tree-sitter";
import { checkDeadline, withTree, type Deadline } from "../parser";
import type { CodeLanguage, FileExtraction } from "../types";
import { countParseErrors } from "./common";
import { runEngine, type LanguageSpec } from "./engine";
import { attachEnclosingSymbols, extractFacts, type FileFacts } from "./facts";
import { c, cpp } from "./languages/c";
import { csharp } from "./languages/csharp";
import { go } from "./languages/go";
import { java } from "./languages/java";
import { php } from "./languages/php";
import { python } from "./languages/python";
import { ruby } from "./languages/ruby";
import { rust } from "./languages/rust";
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
  const spec = SPECS[language];
  const { state, parseErrors, errorRows, facts } = await withTree(
    language,
    source,
    (tree) => ({
      state: runEngine(spec, tree.rootNode, source, deadline),
      parseErrors: countParseErrors(tree),
      errorRows: tree.rootNode.hasError ? topLevelErrorRows(tree.rootNode) : [],
      facts: extractFacts(language, tree.rootNode, source),
    }),
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
        (tree) => runEngine(spec, tree.rootNode, repaired, deadline),
        deadline,
      );
      // Blanking keeps offsets and lines, so the second result describes the original text.
      if (second.symbols.length > state.symbols.length)
        return withFacts(second.finish(language, parseErrors), facts);
    }
  }
  return withFacts(state.finish(language, parseErrors), facts);
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
  // Regions are walked once: one that reaches a row an earlier region already blanked
  // stops there (else many errors without a definition between them are quadratic).
  let reached = -1;
  for (const start of [...errorRows].sort((a, b) => a - b)) {
    let row = Math.max(start + 1, reached);
    for (; row < lines.length && !resync.test(lines[row] ?? ""); row++) blanked.add(row);
    reached = Math.max(reached, row);
  }
  return lines.map((line, row) => (blanked.has(row) ? " ".repeat(line.length) : line)).join("\n");
}

export { languageForPath } from "../parser";
