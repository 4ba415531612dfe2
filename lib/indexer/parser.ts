/**
 * Loads web-tree-sitter and the WASM grammars shipped by @vscode/tree-sitter-wasm,
 * caching one Parser per language. WASM files are located at runtime from the
 * working directory's node_modules (not via bundler imports) so the same code works
 * under tsx, vitest and a bundled Next.js route handler.
 */
import fs from "node:fs";
import path from "node:path";
import { Edit, Language, Parser, type Tree } from "web-tree-sitter";
import { packageFile } from "../package-files";
import type { CodeLanguage } from "./types";

const GRAMMAR_FILES: Record<CodeLanguage, string> = {
  python: "tree-sitter-python.wasm",
  typescript: "tree-sitter-typescript.wasm",
  tsx: "tree-sitter-tsx.wasm",
  javascript: "tree-sitter-javascript.wasm",
  java: "tree-sitter-java.wasm",
  go: "tree-sitter-go.wasm",
  rust: "tree-sitter-rust.wasm",
  // The C++ grammar parses C as well.
  c: "tree-sitter-cpp.wasm",
  cpp: "tree-sitter-cpp.wasm",
  csharp: "tree-sitter-c-sharp.wasm",
  ruby: "tree-sitter-ruby.wasm",
  php: "tree-sitter-php.wasm",
};

const EXTENSIONS: Record<string, CodeLanguage> = {
  ".py": "python",
  ".pyi": "python",
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "tsx",
  // The javascript grammar parses JSX itself, so .jsx needs no separate grammar.
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascript",
  ".java": "java",
  ".go": "go",
  ".rs": "rust",
  ".c": "c",
  ".h": "c",
  ".cc": "cpp",
  ".cpp": "cpp",
  ".cxx": "cpp",
  ".c++": "cpp",
  ".hh": "cpp",
  ".hpp": "cpp",
  ".hxx": "cpp",
  ".h++": "cpp",
  ".ipp": "cpp",
  ".inl": "cpp",
  ".cs": "csharp",
  ".rb": "ruby",
  ".rake": "ruby",
  ".php": "php",
};

/** C++ in a `.h` header: templates, classes with bodies, namespaces, `std::`, extension-less standard headers. */
const CPP_HEADER =
  /^\s*(?:template\s*<|namespace\s+[\w:]+\s*\{|class\s+\w+[^;]*\{|#\s*include\s*<[a-z_]+>)|\bstd::/m;

/** Language of a file from its extension, or null when we have no grammar for it. */
export function languageForPath(filePath: string): CodeLanguage | null {
  const ext = path.extname(filePath).toLowerCase();
  return EXTENSIONS[ext] ?? null;
}

/** Language of a file from its extension and, for `.h` headers (C or C++), its content. */
export function languageForFile(filePath: string, content: string): CodeLanguage | null {
  const language = languageForPath(filePath);
  return language === "c" && /\.h$/i.test(filePath) && CPP_HEADER.test(content) ? "cpp" : language;
}

export function grammarPath(language: CodeLanguage): string {
  return packageFile("@vscode/tree-sitter-wasm", "package.json", path.join("wasm", GRAMMAR_FILES[language]));
}

let runtimeReady: Promise<void> | null = null;
const parsers = new Map<CodeLanguage, Promise<Parser>>();

function initRuntime(): Promise<void> {
  runtimeReady ??= (async () => {
    const wasmPath = packageFile("web-tree-sitter", "web-tree-sitter.wasm", "web-tree-sitter.wasm");
    // Handing over the bytes keeps emscripten from guessing a path relative to a bundled script.
    const wasmBinary = await fs.promises.readFile(wasmPath);
    await Parser.init({ wasmBinary, locateFile: () => wasmPath });
  })().catch((error: unknown) => {
    runtimeReady = null;
    throw error;
  });
  return runtimeReady;
}

async function createParser(language: CodeLanguage): Promise<Parser> {
  await initRuntime();
  const bytes = await fs.promises.readFile(grammarPath(language));
  const parser = new Parser();
  parser.setLanguage(await Language.load(new Uint8Array(bytes)));
  return parser;
}

/** Cached parser for a language; the grammar is loaded on first use. */
export function getParser(language: CodeLanguage): Promise<Parser> {
  let parser = parsers.get(language);
  if (!parser) {
    parser = createParser(language);
    parsers.set(language, parser);
    parser.catch(() => parsers.delete(language));
  }
  return parser;
}

/**
 * Thrown when a file's parse or extraction runs past its deadline: the file is then
 * indexed as text (lib/indexer/parse-file.ts), not retried.
 */
export class ParseDeadlineError extends Error {
  constructor(readonly seconds: number) {
    super(`parsing took longer than ${seconds} s`);
    this.name = "ParseDeadlineError";
  }
}

/** A point in time (performance.now()) by which a file's parse must end, and how long it was given. */
export interface Deadline {
  at: number;
  seconds: number;
}

/** Throws ParseDeadlineError once the deadline has passed. */
export function checkDeadline(deadline: Deadline | undefined): void {
  if (deadline && performance.now() > deadline.at) throw new ParseDeadlineError(deadline.seconds);
}

/** Tree-sitter's progress callback: true cancels the parse or query under way. */
export function pastDeadline(deadline: Deadline | undefined): (() => boolean) | undefined {
  return deadline ? () => performance.now() > deadline.at : undefined;
}

/**
 * Parses `source` and hands the tree to `consume`, always freeing the tree's WASM
 * memory afterwards. `consume` must not keep nodes beyond its own call. A parse still
 * running at `deadline` is cancelled (ParseDeadlineError).
 */
export async function withTree<T>(
  language: CodeLanguage,
  source: string,
  consume: (tree: Tree) => T,
  deadline?: Deadline,
): Promise<T> {
  const parser = await getParser(language);
  const tree = parser.parse(source, null, { progressCallback: pastDeadline(deadline) });
  if (!tree) {
    // A cancelled parse would otherwise resume, with this file's state, on the next call.
    parser.reset();
    checkDeadline(deadline);
    throw new Error(`tree-sitter returned no tree for ${language} source`);
  }
  try {
    return consume(tree);
  } finally {
    tree.delete();
  }
}

/**
 * Like `withTree`, and `reread(text)` parses a second text of the same lines and line
 * lengths (characters replaced, as when code is blanked) as an edit of the first tree:
 * tree-sitter reuses what did not change, several times faster than a fresh parse.
 * The first tree is edited by it (its positions stay the same); every tree is freed
 * after `consume`.
 */
export async function withRereadableTree<T>(
  language: CodeLanguage,
  source: string,
  consume: (tree: Tree, reread: (text: string) => Tree) => T,
  deadline?: Deadline,
): Promise<T> {
  const parser = await getParser(language);
  const parse = (text: string, old: Tree | null): Tree => {
    const tree = parser.parse(text, old, { progressCallback: pastDeadline(deadline) });
    if (tree) return tree;
    // A cancelled parse would otherwise resume, with this file's state, on the next call.
    parser.reset();
    checkDeadline(deadline);
    throw new Error(`tree-sitter returned no tree for ${language} source`);
  };
  const tree = parse(source, null);
  const trees = [tree];
  try {
    return consume(tree, (text) => {
      for (const edit of lineEdits(source, text)) tree.edit(edit);
      const next = parse(text, tree);
      trees.push(next);
      return next;
    });
  } finally {
    for (const t of trees) t.delete();
  }
}

/** One edit per run of changed lines between two texts of the same line lengths. */
function lineEdits(before: string, after: string): Edit[] {
  const a = before.split("\n");
  const b = after.split("\n");
  const edits: Edit[] = [];
  let offset = 0;
  let run: {
    startIndex: number;
    startRow: number;
    endIndex: number;
    endRow: number;
    endColumn: number;
  } | null = null;
  const close = () => {
    if (!run) return;
    const end = { row: run.endRow, column: run.endColumn };
    edits.push(
      new Edit({
        startIndex: run.startIndex,
        oldEndIndex: run.endIndex,
        newEndIndex: run.endIndex,
        startPosition: { row: run.startRow, column: 0 },
        oldEndPosition: end,
        newEndPosition: end,
      }),
    );
    run = null;
  };
  for (let row = 0; row < a.length; row++) {
    const line = a[row] as string;
    if (line !== b[row]) {
      run ??= { startIndex: offset, startRow: row, endIndex: 0, endRow: 0, endColumn: 0 };
      run.endIndex = offset + line.length;
      run.endRow = row;
      run.endColumn = line.length;
    } else close();
    offset += line.length + 1;
  }
  close();
  return edits;
}
