/**
 * Text helpers of the extraction engine: signature and doc-comment cleanup, callee
 * splitting, write-target parsing and parse-error counting. Everything here is pure.
 */
import type { Node, Tree } from "web-tree-sitter";
import {
  DOCSTRING_MAX,
  ERROR_STRING_MAX,
  type ExtractedCall,
  type ExtractedSymbol,
  type SymbolKind,
} from "../types";

/** Signatures of data-like declarations (type aliases, Go named types) can be whole bodies; keep them short. */
export const SIGNATURE_MAX = 200;

/** Calls whose callee is this plain (identifiers and separators only) need no structural rendering. */
const SIMPLE_CALLEE = /^[A-Za-z_$#][\w$#]*(?:(?:\.|::)[A-Za-z_$#][\w$#]*)*$/;

export interface SymbolInit {
  name: string;
  qualifiedName: string;
  kind: SymbolKind;
  startLine: number;
  endLine: number;
  signature: string;
  docstring?: string;
  parent: string | null;
  exported: boolean;
  decorators?: string[];
  bases?: string[];
}

export function createSymbol(init: SymbolInit): ExtractedSymbol {
  return {
    name: init.name,
    qualifiedName: init.qualifiedName,
    kind: init.kind,
    startLine: init.startLine,
    endLine: Math.max(init.endLine, init.startLine),
    signature: init.signature,
    docstring: init.docstring ?? "",
    parent: init.parent,
    exported: init.exported,
    decorators: init.decorators ?? [],
    bases: init.bases ?? [],
    calls: [],
    raises: [],
    mutates: [],
    errorStrings: [],
  };
}

/** 1-based line of a node's first character. */
export function lineOf(node: Node): number {
  return node.startPosition.row + 1;
}

/** 1-based last line of a node; a node ending at column 0 really ended on the previous line. */
export function endLineOf(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row : end.row + 1;
}

export function pushUnique<T>(list: T[], value: T): void {
  if (!list.includes(value)) list.push(value);
}

export function cap(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * One-line form of a declaration head: trailing commas before a closing bracket on
 * the next line are dropped (multi-line parameter lists), whitespace is collapsed
 * and no space is left just inside parentheses or square brackets.
 */
export function collapseWhitespace(text: string): string {
  return text
    .replace(/,\s*\n\s*([)\]}>])/g, "$1")
    .replace(/\s+/g, " ")
    .replace(/([([]) /g, "$1")
    .replace(/ ([)\]])/g, "$1")
    .trim();
}

/** Source between two offsets as a signature; `trailing` strips leftovers like `{` or `:`. */
export function signatureBetween(source: string, start: number, end: number, trailing?: RegExp): string {
  let sig = collapseWhitespace(source.slice(start, end));
  if (trailing) sig = sig.replace(trailing, "").trimEnd();
  return sig;
}

/** Text without template/generic arguments: `detail::buffer<int>::grow` → `detail::buffer::grow`. */
export function stripTemplates(text: string): string {
  let out = text;
  for (let before = ""; before !== out;) [before, out] = [out, out.replace(/<[^<>]*>/g, "")];
  return out;
}

/** Last identifier in callee-ish text: `os.path.join` → `join`, `foo()` → `foo`. */
export function lastIdentifier(text: string): string {
  const match = /([A-Za-z_$#][\w$#]*)[^A-Za-z_$#\w]*$/.exec(text);
  return match?.[1] ?? text;
}

/** Splits plain callee text at its last `.` or `::` into receiver and name. */
export function splitSimpleCallee(raw: string): { name: string; receiver: string | null } {
  const dot = raw.lastIndexOf(".");
  const colons = raw.lastIndexOf("::");
  if (dot < 0 && colons < 0) return { name: raw, receiver: null };
  if (dot > colons) return { name: raw.slice(dot + 1), receiver: raw.slice(0, dot) };
  return { name: raw.slice(colons + 2), receiver: raw.slice(0, colons) };
}

/** Longer callee text is never plain: generated chains are written back structurally, and capped. */
const SIMPLE_CALLEE_MAX = 256;

export function isSimpleCallee(text: string): boolean {
  return text.length <= SIMPLE_CALLEE_MAX && SIMPLE_CALLEE.test(text);
}

/** Text of an expression we do not render structurally: kept when short, elided when long. */
export function shortText(text: string): string {
  // Too long to collapse to 40 characters unless nearly all of it is whitespace: not
  // worth reading (a callee can be a whole minified module).
  if (text.length > 400) return "…";
  const flat = collapseWhitespace(text);
  return flat.length <= 40 ? flat : "…";
}

export function makeCall(raw: string, name: string, receiver: string | null, line: number): ExtractedCall {
  return { raw, name, receiver, line };
}

/** Adds a message literal to a symbol's error strings, capped and deduplicated. */
export function addErrorString(symbol: ExtractedSymbol, message: string | null): void {
  if (message === null) return;
  const text = message.trim();
  if (text) pushUnique(symbol.errorStrings, cap(text, ERROR_STRING_MAX));
}

/** The base class's constructor called from a constructor (`super(…)`, `super().__init__(…)`, `parent::__construct(…)`). */
const SUPER_CALL = /^(?:super|super\(\)\.__init__|parent::__construct)$/;

/**
 * A constructor of an error type handing its message to the base class (`super(\`Request
 * failed with ${reason}\`)`): what it hands on is what every error of the type says.
 */
export function isErrorSuperCall(
  call: Pick<ExtractedCall, "raw">,
  owner: Pick<ExtractedSymbol, "parent">,
  symbols: ExtractedSymbol[],
): boolean {
  if (!SUPER_CALL.test(call.raw) || owner.parent === null) return false;
  const type = symbols.find((s) => s.qualifiedName === owner.parent && s.kind === "class");
  return !!type && [type.name, ...type.bases].some((n) => /(?:Error|Exception)$/.test(lastIdentifier(n)));
}

/** Words that make a function one that reports or builds an error (`_reportError`, `fail_with`, `raiseInvalid`). */
const ERROR_WORDS = new Set([
  "error",
  "err",
  "exception",
  "failure",
  "fail",
  "fatal",
  "panic",
  "die",
  "abort",
  "bail",
  "throw",
  "raise",
  "reject",
  "invalid",
  "illegal",
  "unexpected",
]);
/** First words of names that ask about or handle an error rather than report one. */
const NOT_REPORTING = new Set([
  "is",
  "has",
  "get",
  "set",
  "should",
  "can",
  "on",
  "handle",
  "clear",
  "reset",
  "to",
  "with",
  "catch",
  "ignore",
  "expect",
  "assert",
]);

/**
 * Whether a call's name says it reports an error, so its literal argument is an error
 * message, in any language's naming (`_reportError("Unexpected end-of-input")`,
 * `fail_with("…")`, `throwInvalid(…)`, `luaL_error(L, "…")`); predicates and handlers
 * (`isError`, `handleError`, `onError`) are not.
 */
export function isErrorReportingName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_$]+/)
    .map((w) => w.toLowerCase())
    .filter(Boolean);
  if (words.length === 0 || NOT_REPORTING.has(words[0] as string)) return false;
  return words.some((w) => ERROR_WORDS.has(w));
}

/**
 * Parses an assignment target as written (`self.x[k]`, `this.#y`, `s.m[k]`, `_cache`)
 * into its root name and the member accessed right on the root. Returns null for
 * targets rooted in a call or an expression, which mutate nothing we can name.
 */
export function parseWriteTarget(
  text: string,
): { root: string; member: string | null; bare: boolean } | null {
  const match = /^\**\s*\(?\s*\**([A-Za-z_$][\w$]*)\s*(?:\.\s*([A-Za-z_$#][\w$#]*))?/.exec(text);
  if (!match?.[1]) return null;
  const rest = text.slice(match[0].length).trimStart();
  if (rest.startsWith("(")) return null;
  const member = match[2] ?? null;
  if (member === null && rest.startsWith(".")) return null;
  return { root: match[1], member, bare: member === null && rest === "" };
}

/** Inner docstring of Python-style text: indentation of continuation lines removed (like inspect.cleandoc). */
export function cleanIndentedText(raw: string): string {
  const lines = raw.replace(/\r\n?/g, "\n").split("\n");
  let indent = Infinity;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const stripped = line.trimStart();
    if (stripped) indent = Math.min(indent, line.length - stripped.length);
  }
  const out = lines.map((line, i) =>
    i === 0 ? line.trim() : line.slice(Number.isFinite(indent) ? indent : 0),
  );
  return out
    .join("\n")
    .replace(/[ \t]+$/gm, "")
    .trim();
}

/** Comment lines that configure tools rather than describe code. */
const DIRECTIVE_COMMENT =
  /^(frozen_string_literal:|eslint|@ts-|prettier-ignore|istanbul|c8 |go:|nolint|#region|#endregion|region\b|endregion\b|noinspection|NOSONAR|rustfmt::|clippy::)/;

/** Strips comment markers from a run of comments and returns the doc text. */
export function cleanDocComments(comments: string[]): string {
  const lines: string[] = [];
  for (const comment of comments) {
    if (comment.startsWith("/*")) {
      const body = comment.replace(/^\/\*+!?/, "").replace(/\*+\/$/, "");
      for (const line of body.split(/\r?\n/)) lines.push(line.replace(/^\s*\*( ?)/, "").trimEnd());
    } else {
      // `//`, `///`, `//!` and `#` comments (Ruby, PHP).
      const line = comment.replace(/^\/\/[/!]?( ?)|^#+( ?)/, "").trimEnd();
      if (!DIRECTIVE_COMMENT.test(line.trim())) lines.push(line);
    }
  }
  return cap(cleanIndentedText(lines.join("\n")), DOCSTRING_MAX);
}

/** True when only whitespace precedes `index` on its line (a comment that owns its line). */
function startsOwnLine(source: string, index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const ch = source.charCodeAt(i);
    if (ch === 10) return true;
    if (ch !== 32 && ch !== 9 && ch !== 13) return false;
  }
  return true;
}

export interface LeadingTrivia {
  /** 0-based row where the symbol's leading comments/attributes begin (the node's own row if none). */
  startRow: number;
  docstring: string;
  /** Attribute-like siblings (Rust `#[...]`) met while walking up, in source order. */
  attributes: Node[];
}

export interface LeadingOptions {
  /** Comment node types of the grammar. */
  commentTypes: ReadonlySet<string>;
  /** Sibling types that belong to the next item (Rust attributes); they are skipped over and collected. */
  attributeTypes?: ReadonlySet<string>;
  /** Comments that never document the next item (Rust `//!`). */
  rejectComment?: (text: string) => boolean;
}

/**
 * Collects the comment block directly above `node` (no blank line between, each
 * comment on its own line) plus attribute siblings, walking previous siblings.
 */
export function leadingTrivia(node: Node, source: string, options: LeadingOptions): LeadingTrivia {
  const comments: string[] = [];
  const attributes: Node[] = [];
  let startRow = node.startPosition.row;
  let sibling = node.previousNamedSibling;
  while (sibling) {
    const type = sibling.type;
    const isComment = options.commentTypes.has(type);
    const isAttribute = !isComment && (options.attributeTypes?.has(type) ?? false);
    if (!isComment && !isAttribute) break;
    if (endLineOf(sibling) - 1 < startRow - 1) break;
    const text = source.slice(sibling.startIndex, sibling.endIndex);
    if (isComment) {
      if (options.rejectComment?.(text) || !startsOwnLine(source, sibling.startIndex)) break;
      comments.unshift(text);
    } else {
      attributes.unshift(sibling);
    }
    startRow = sibling.startPosition.row;
    sibling = sibling.previousNamedSibling;
  }
  return { startRow, docstring: comments.length ? cleanDocComments(comments) : "", attributes };
}

/**
 * Counts ERROR and MISSING nodes. Only called when the root reports an error, so
 * clean files never pay for it; the walk enters only subtrees that report one (a
 * leaf error token may not, so ERROR children are always entered), which on a large
 * file is a few paths instead of every node.
 */
export function countParseErrors(tree: Tree): number {
  if (!tree.rootNode.hasError) return 0;
  let count = 0;
  const stack = [tree.rootNode];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.isMissing || node.type === "ERROR") count++;
    for (const child of node.children)
      if (child && (child.hasError || child.isMissing || child.type === "ERROR")) stack.push(child);
  }
  return count;
}

/** Python-style names: public unless they start with `_`, dunders excepted. */
export function isPublicName(name: string): boolean {
  return !name.startsWith("_") || (name.length > 4 && name.startsWith("__") && name.endsWith("__"));
}

/** Splits `A<B, C>, D` at separators outside brackets; pieces are trimmed, empty ones dropped. */
export function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "(" || ch === "[" || ch === "{" || ch === "<") depth++;
    else if ((ch === ")" || ch === "]" || ch === "}" || ch === ">") && text[i - 1] !== "=") depth--;
    else if (depth === 0 && text.startsWith(separator, i)) {
      parts.push(text.slice(start, i));
      start = i + separator.length;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}
