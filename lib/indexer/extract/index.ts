/**
 * Entry point of code extraction: parses one file with the language's grammar and
 * runs the matching extractor. Pure apart from the cached parsers: source in,
 * FileExtraction out.
 */
import type { Node } from "web-tree-sitter";
import { withTree } from "../parser";
import type { CodeLanguage, FileExtraction } from "../types";
import { countParseErrors, type FileState } from "./common";
import { extractGo } from "./go";
import { extractJava } from "./java";
import { extractPython } from "./python";
import { extractRust } from "./rust";
import { extractTypeScript } from "./typescript";

type Extractor = (root: Node, source: string) => FileState;

const EXTRACTORS: Record<CodeLanguage, Extractor> = {
  python: extractPython,
  typescript: extractTypeScript,
  tsx: extractTypeScript,
  javascript: extractTypeScript,
  java: extractJava,
  go: extractGo,
  rust: extractRust,
};

export async function extractSource(language: CodeLanguage, source: string): Promise<FileExtraction> {
  return withTree(language, source, (tree) => {
    const state = EXTRACTORS[language](tree.rootNode, source);
    return state.finish(language, countParseErrors(tree));
  });
}

export { languageForPath } from "../parser";
