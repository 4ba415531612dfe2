/**
 * Shapes produced by per-language extraction. Extraction is pure: source text in,
 * symbols and imports out; storage, resolution and generations live elsewhere.
 */

export const LANGUAGES = [
  "python",
  "typescript",
  "tsx",
  "javascript",
  "java",
  "go",
  "rust",
  "c",
  "cpp",
  "csharp",
  "ruby",
  "php",
] as const;
export type CodeLanguage = (typeof LANGUAGES)[number];

export type SymbolKind =
  | "function"
  | "method"
  | "class"
  | "interface"
  | "struct"
  | "enum"
  | "trait"
  | "type"
  | "module";

export interface ExtractedCall {
  /** Callee as written, without arguments: `foo`, `self.save`, `os.path.join`, `Foo::new`, `new Widget`. */
  raw: string;
  /** Last identifier of the callee (`join` for `os.path.join`). */
  name: string;
  /** Receiver text when the call is a member call (`self`, `os.path`, `this.repo`), else null. */
  receiver: string | null;
  line: number;
  /**
   * The receiver's type as the code declares it (a typed parameter, local or field, a
   * constructed value), reduced to the element type: `Dispatch`, `pkg.Engine`. Absent when unknown.
   */
  type?: string;
  /** For a bare call to an overloaded method of the caller's class: the overload (1-based, source order) its argument count fits. */
  overload?: number;
  /**
   * For a call on a local assigned from another call with no declared type (`x := New(); x.Run()`),
   * the `raw` of that call: the receiver has the type it returns. For a field or a top-level name
   * assigned from a call elsewhere in the file (`log = logging.getLogger(…)`), that callee as written.
   */
  from?: string;
}

export interface ExtractedSymbol {
  name: string;
  /** Dotted name inside the file: `Outer.Inner.method`, `Server.start` (Go receiver type), `impl Type` methods as `Type.method`. */
  qualifiedName: string;
  kind: SymbolKind;
  /** 1-based, inclusive; includes decorators / annotations / doc comments that belong to the symbol. */
  startLine: number;
  endLine: number;
  /** Declaration head on one line, whitespace collapsed, without the body (`def f(a, b=1) -> int`). */
  signature: string;
  /** Docstring or leading doc comment, comment markers stripped, capped (see DOCSTRING_MAX). */
  docstring: string;
  /** qualifiedName of the enclosing symbol, or null at top level. */
  parent: string | null;
  /** Public API: exported (JS/TS), no leading underscore (Python), capitalised (Go), `pub` (Rust), not private (Java). */
  exported: boolean;
  decorators: string[];
  /** Base classes / implemented interfaces / embedded types, as written. */
  bases: string[];
  /** Calls made directly in this symbol's own body (not in nested functions/classes). */
  calls: ExtractedCall[];
  /** Exception / error types raised or thrown (`ValueError`, `TypeError`, `IOException`), unique. */
  raises: string[];
  /** State written: `self.x` / `this.x` attributes, module-level names assigned or mutated (`_cache`, `_cache[k] = v`, `registry.append(...)` excluded), unique. */
  mutates: string[];
  /** Literal messages in raise/throw statements and in error/warning log calls (`logger.error("...")`, `console.error`, `log.Printf`-style error helpers, `panic!`, `errors.New`, `fmt.Errorf`), each capped to ERROR_STRING_MAX chars, unique. */
  errorStrings: string[];
}

export interface ExtractedImport {
  /** Module specifier as written: `os.path`, `./util`, `java.util.List`, `fmt`, `crate::db`. */
  module: string;
  /** Imported names (`from x import a, b` → [a, b]; a JS default import is `default`); empty for whole-module imports. */
  names: string[];
  /**
   * Name the whole module is bound to when the statement gives one: `np` (`import numpy as np`),
   * `utils` (`import * as utils`, `const utils = require(…)`), `f` (Go `import f "fmt"`), `p`
   * (Rust `use a::pool as p`). Absent when the binding is implicit (`import os.path`, `import "fmt"`).
   */
  local?: string;
  /**
   * Names bound under another local name, local → imported: `{ _merge: "merge" }` for
   * `from .core import merge as _merge`, `{ def: "default" }` for `import def from "./x"`.
   * An aliased name is bound only under its alias. Absent when nothing is renamed.
   */
  aliases?: Record<string, string>;
  line: number;
}

export interface FileExtraction {
  language: CodeLanguage;
  symbols: ExtractedSymbol[];
  imports: ExtractedImport[];
  /** Top-level (module) variable names assigned in this file. */
  moduleState: string[];
  /** Number of ERROR nodes tree-sitter produced (0 for clean parses). */
  parseErrors: number;
}

export const DOCSTRING_MAX = 400;
export const ERROR_STRING_MAX = 160;
