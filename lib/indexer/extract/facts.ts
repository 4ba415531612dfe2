/**
 * File-level facts for the wiki and the issues store, read from the same parse tree as
 * the symbols: the file's stated purpose (module docstring or leading comment),
 * swallowed exceptions, TODO/FIXME markers, imports that exist only for type checking,
 * and where module-level state is defined. Kept apart from the per-language symbol
 * extractors: it looks at a handful of node types (found natively with
 * `descendantsOfType`, only when a cheap text test says they can be there), so it adds
 * little to parsing time. The shape of the facts is the store's (lib/db/file-shapes.ts).
 */
import type { Node } from "web-tree-sitter";
import type { CodeLanguage } from "../types";
import { EMPTY_FACTS, type FileFacts, type SwallowedError } from "../../db/file-shapes.ts";
import { cap, cleanDocComments, cleanIndentedText } from "./common";

const DOC_MAX = 600;
const MAX_TODOS = 50;
const MAX_SWALLOWED = 100;
const LICENSE = /\b(copyright|licen[cs]ed?|spdx-license-identifier|all rights reserved)\b/i;
const TODO_HINT = /\b(?:TODO|FIXME|XXX|HACK)\b/;
// A marker counts only in a comment: a comment opener somewhere before it on the line.
const TODO_IN_COMMENT = /(?:#|\/\/|\/\*|^\s*\*|<!--).*?\b(TODO|FIXME|XXX|HACK)\b/;
/** Optional-dependency imports (`try: import x / except ImportError: pass`) are idiomatic, not swallowed errors. */
const IMPORT_ERRORS =
  /^\(?\s*(ImportError|ModuleNotFoundError)(\s*,\s*(ImportError|ModuleNotFoundError))*\s*\)?$/;

export function extractFacts(language: CodeLanguage, root: Node, source: string): FileFacts {
  // A fresh copy: the language readers below fill its arrays in place.
  const facts: FileFacts = structuredClone(EMPTY_FACTS);
  switch (language) {
    case "python":
      pythonFacts(root, source, facts);
      break;
    case "typescript":
    case "tsx":
    case "javascript":
      scriptFacts(root, source, facts);
      break;
    case "java":
      facts.doc = leadingCommentDoc(root, source, ["line_comment", "block_comment"]);
      facts.swallowed = catchBlocks(root, source, ["line_comment", "block_comment"]);
      break;
    case "go":
      goFacts(root, source, facts);
      break;
    case "rust":
      rustFacts(root, source, facts);
      break;
    case "c":
    case "cpp":
    case "csharp":
    case "php":
      facts.doc = leadingCommentDoc(root, source, ["comment"]);
      facts.swallowed = catchBlocks(root, source, ["comment"]);
      break;
    case "ruby":
      facts.doc = leadingCommentDoc(root, source, ["comment"]);
      facts.swallowed = rubyRescues(root, source);
      break;
  }
  facts.swallowed = facts.swallowed.slice(0, MAX_SWALLOWED);
  countTodos(source, facts);
  return facts;
}

// ------------------------------------------------------------------ python

function pythonFacts(root: Node, source: string, facts: FileFacts): void {
  const children = root.namedChildren;
  const first = children.find((c) => c.type !== "comment");
  const literal = first?.type === "expression_statement" ? first.firstNamedChild : null;
  if (literal && literal.type === "string") {
    facts.doc = cap(cleanIndentedText(stringContent(literal, source)), DOC_MAX);
  } else {
    facts.doc = leadingCommentDoc(root, source, ["comment"]);
  }
  for (const child of children) {
    if (child.type === "if_statement" && isTypeCheckingGuard(child, source)) {
      for (const stmt of child.childForFieldName("consequence")?.namedChildren ?? []) {
        if (stmt.type === "import_statement" || stmt.type === "import_from_statement")
          facts.typeOnlyImports.push(stmt.startPosition.row + 1);
      }
    } else if (child.type === "expression_statement") {
      const assignment = child.firstNamedChild;
      if (assignment?.type !== "assignment" && assignment?.type !== "augmented_assignment") continue;
      const left = assignment.childForFieldName("left");
      if (left?.type === "identifier") recordState(facts, text(left, source), left);
    }
  }
  for (const statement of root.descendantsOfType(["import_statement", "import_from_statement"])) {
    if (insideFunction(statement)) facts.localImports.push(statement.startPosition.row + 1);
  }
  if (source.includes("except")) {
    for (const clause of root.descendantsOfType("except_clause")) {
      const swallowed = pythonHandler(clause, source);
      if (swallowed) facts.swallowed.push(swallowed);
    }
  }
}

function insideFunction(node: Node): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (parent.type === "function_definition") return true;
  }
  return false;
}

function isTypeCheckingGuard(node: Node, source: string): boolean {
  const condition = node.childForFieldName("condition");
  return condition !== null && /^(typing\.)?TYPE_CHECKING$/.test(text(condition, source).trim());
}

function pythonHandler(clause: Node, source: string): SwallowedError | null {
  const block = clause.namedChildren.find((c) => c.type === "block");
  if (!block) return null;
  const head = source
    .slice(clause.startIndex, block.startIndex)
    .replace(/#[^\n]*/g, "")
    .replace(/^except\s*\*?/, "")
    .replace(/:\s*$/, "")
    .replace(/\s+as\s+\w+\s*$/, "")
    .trim();
  const caught = head || null;
  const statements = block.namedChildren.filter((c) => c.type !== "comment");
  const doesNothing = statements.every((s) => {
    const t = text(s, source).trim();
    return t === "pass" || t === "...";
  });
  const where = { line: clause.startPosition.row + 1, endLine: block.endPosition.row + 1, caught };
  if (doesNothing) {
    if (caught && IMPORT_ERRORS.test(caught)) return null;
    return { ...where, kind: "except-pass" };
  }
  if (caught === null && block.descendantsOfType("raise_statement").length === 0) {
    return { ...where, kind: "bare-except" };
  }
  return null;
}

function stringContent(node: Node, source: string): string {
  let out = "";
  for (const part of node.namedChildren) {
    if (part.type === "string_content" || part.type === "escape_sequence") out += text(part, source);
  }
  return out;
}

// ------------------------------------------------------ javascript / typescript

function scriptFacts(root: Node, source: string, facts: FileFacts): void {
  facts.doc = leadingCommentDoc(root, source, ["comment"]);
  for (const child of root.namedChildren) {
    if (child.type === "import_statement" && /^import\s+type\b/.test(text(child, source))) {
      facts.typeOnlyImports.push(child.startPosition.row + 1);
      continue;
    }
    const declaration = child.type === "export_statement" ? child.childForFieldName("declaration") : child;
    if (declaration?.type !== "lexical_declaration" && declaration?.type !== "variable_declaration") continue;
    for (const declarator of declaration.namedChildren) {
      const name = declarator.type === "variable_declarator" ? declarator.childForFieldName("name") : null;
      if (name?.type === "identifier") recordState(facts, text(name, source), name);
    }
  }
  if (source.includes("catch")) {
    facts.swallowed.push(...catchBlocks(root, source, ["comment"]));
    facts.swallowed.push(...promiseCatches(source));
    facts.swallowed.sort((a, b) => a.line - b.line);
  }
}

const PROMISE_CATCH =
  /\.catch\(\s*(?:\(\s*[\w$]*\s*\)|[\w$]+|function\s*\(\s*[\w$]*\s*\))\s*(?:=>)?\s*(?:\{\s*\}|undefined|null|void 0)\s*\)/g;

function promiseCatches(source: string): SwallowedError[] {
  const out: SwallowedError[] = [];
  const lineAt = lineLocator(source);
  for (const match of source.matchAll(PROMISE_CATCH)) {
    const line = lineAt(match.index ?? 0);
    out.push({
      line,
      endLine: lineAt((match.index ?? 0) + match[0].length),
      kind: "promise-catch",
      caught: null,
    });
  }
  return out;
}

/** Empty (or comment-only) catch blocks of the brace languages. */
function catchBlocks(root: Node, source: string, commentTypes: string[]): SwallowedError[] {
  if (!source.includes("catch")) return [];
  const out: SwallowedError[] = [];
  for (const clause of root.descendantsOfType("catch_clause")) {
    const body = clause.childForFieldName("body") ?? clause.namedChildren.find((c) => c.type === "block");
    if (!body) continue;
    const inside = body.namedChildren;
    if (inside.some((c) => !commentTypes.includes(c.type))) continue;
    // Java, C#, PHP and C++ name the caught types; a JavaScript catch takes everything.
    const parameter = clause.namedChildren.find((c) => CAUGHT.has(c.type));
    out.push({
      line: clause.startPosition.row + 1,
      endLine: body.endPosition.row + 1,
      kind: inside.length ? "commented-catch" : "empty-catch",
      caught: parameter
        ? collapse(text(parameter, source))
            .replace(/^\((.*)\)$/, "$1")
            .replace(/\s+[\w$&*]+$/, "") || null
        : null,
    });
  }
  return out;
}

const CAUGHT = new Set(["catch_formal_parameter", "catch_declaration", "parameter_list", "type_list"]);

/** Ruby `rescue` clauses with nothing (or only comments) in them, and `x rescue nil`. */
function rubyRescues(root: Node, source: string): SwallowedError[] {
  if (!source.includes("rescue")) return [];
  const out: SwallowedError[] = [];
  for (const clause of root.descendantsOfType(["rescue", "rescue_modifier"])) {
    const modifier = clause.type === "rescue_modifier";
    const handler = clause.childForFieldName(modifier ? "handler" : "body");
    if (!clause.isNamed || (modifier ? handler?.type !== "nil" : handler)) continue;
    const exceptions = clause.childForFieldName("exceptions");
    // `rescue LoadError` around a require is an optional dependency, not a swallowed error.
    if (exceptions && /^LoadError$/.test(text(exceptions, source))) continue;
    out.push({
      line: clause.startPosition.row + 1,
      endLine: clause.endPosition.row + 1,
      kind: clause.namedChildren.some((c) => c.type === "comment") ? "commented-catch" : "empty-catch",
      caught: exceptions ? collapse(text(exceptions, source)) : null,
    });
  }
  return out;
}

// ---------------------------------------------------------------------- go

const GO_BLANK_ERROR = /^[ \t]*_[ \t]*=[ \t]*([A-Za-z_]\w*[eE]rr\w*|err)[ \t]*(?:\/\/.*)?$/gm;
const GO_EMPTY_CHECK = /\bif\s+(?:[^{};]*;\s*)?(\w*[eE]rr\w*|err)\s*!=\s*nil\s*\{\s*\}/g;

function goFacts(root: Node, source: string, facts: FileFacts): void {
  const children = root.namedChildren;
  const packageIndex = children.findIndex((c) => c.type === "package_clause");
  if (packageIndex > 0) facts.doc = commentRunBefore(children, packageIndex, source, ["comment"]);
  const packageName = children[packageIndex]?.namedChildren.find((c) => c.type === "package_identifier");
  if (packageName) facts.goPackage = text(packageName, source);
  for (const child of children) {
    if (child.type !== "var_declaration") continue;
    for (const spec of child.descendantsOfType("var_spec")) {
      for (const name of spec.namedChildren) {
        if (name.type === "identifier") recordState(facts, text(name, source), name);
        else break;
      }
    }
  }
  if (!source.includes("err")) return;
  const lineAt = lineLocator(source);
  for (const match of source.matchAll(GO_BLANK_ERROR)) {
    const line = lineAt(match.index ?? 0);
    facts.swallowed.push({ line, endLine: line, kind: "blank-error", caught: match[1] ?? null });
  }
  for (const match of source.matchAll(GO_EMPTY_CHECK)) {
    facts.swallowed.push({
      line: lineAt(match.index ?? 0),
      endLine: lineAt((match.index ?? 0) + match[0].length),
      kind: "empty-error-check",
      caught: match[1] ?? null,
    });
  }
  facts.swallowed.sort((a, b) => a.line - b.line);
}

// -------------------------------------------------------------------- rust

const RUST_IGNORED_ERR = /\bErr\(\s*_\w*\s*\)\s*=>\s*(?:\{\s*\}|\(\))/g;

function rustFacts(root: Node, source: string, facts: FileFacts): void {
  const inner: string[] = [];
  for (const child of root.namedChildren) {
    if (child.type !== "line_comment" && child.type !== "block_comment") break;
    const t = text(child, source);
    if (!t.startsWith("//!") && !t.startsWith("/*!")) break;
    inner.push(t.replace(/^\/\/!/, "//").replace(/^\/\*!/, "/*"));
  }
  facts.doc = inner.length ? cap(cleanDocComments(inner), DOC_MAX) : "";
  for (const child of root.namedChildren) {
    if (child.type !== "static_item" || !/\bstatic\s+mut\b/.test(text(child, source))) continue;
    const name = child.childForFieldName("name");
    if (name) recordState(facts, text(name, source), name);
  }
  if (!source.includes("Err(")) return;
  const lineAt = lineLocator(source);
  for (const match of source.matchAll(RUST_IGNORED_ERR)) {
    const line = lineAt(match.index ?? 0);
    facts.swallowed.push({ line, endLine: line, kind: "ignored-error", caught: "Err" });
  }
}

// ----------------------------------------------------------------- shared

/** Names the innermost symbol around each swallowed error (symbols from the same parse). */
export function attachEnclosingSymbols(
  facts: FileFacts,
  symbols: { qualifiedName: string; startLine: number; endLine: number }[],
): void {
  for (const s of facts.swallowed) {
    let best: (typeof symbols)[number] | null = null;
    for (const symbol of symbols) {
      if (symbol.startLine > s.line || symbol.endLine < s.line) continue;
      if (!best || symbol.endLine - symbol.startLine < best.endLine - best.startLine) best = symbol;
    }
    s.symbol = best?.qualifiedName ?? null;
  }
}

/**
 * The first comment block at the top of a file that describes it: license headers
 * and tool directives are skipped, and a block glued to the first declaration (no
 * blank line between) documents that declaration, not the file.
 */
function leadingCommentDoc(root: Node, source: string, commentTypes: string[]): string {
  const children = root.children;
  let i = 0;
  while (i < children.length) {
    const node = children[i] as Node;
    if (isDirective(node, source)) {
      i++;
      continue;
    }
    if (!commentTypes.includes(node.type)) return "";
    // A run of comments with no blank line between them.
    let j = i;
    while (
      j + 1 < children.length &&
      commentTypes.includes((children[j + 1] as Node).type) &&
      (children[j + 1] as Node).startPosition.row <= (children[j] as Node).endPosition.row + 1
    ) {
      j++;
    }
    const run = children.slice(i, j + 1).map((c) => text(c, source));
    const next = children[j + 1];
    const joined = run.join("\n");
    const glued = next !== undefined && next.startPosition.row <= (children[j] as Node).endPosition.row + 1;
    const describesNext =
      glued && !isDirective(next, source) && !/import|package|use_declaration/.test(next.type);
    if (!LICENSE.test(joined) && !/^#!/.test(joined) && !describesNext) {
      const doc = cleanDocComments(run.map(toSlashComment));
      if (doc && !/^-\*-|coding[:=]/.test(doc)) return cap(doc, DOC_MAX);
    }
    i = j + 1;
  }
  return "";
}

/** `"use strict"` / `"use client"` and similar prologue strings. */
function isDirective(node: Node, source: string): boolean {
  if (node.type === "php_tag") return true;
  return node.type === "expression_statement" && /^["']use [\w-]+["'];?$/.test(text(node, source).trim());
}

/** `# text` becomes `// text` so one cleaner handles every comment syntax. */
function toSlashComment(comment: string): string {
  return comment.startsWith("#") ? comment.replace(/^#+!?/, "//") : comment;
}

function commentRunBefore(children: Node[], index: number, source: string, types: string[]): string {
  const run: string[] = [];
  let row = (children[index] as Node).startPosition.row;
  for (let i = index - 1; i >= 0; i--) {
    const node = children[i] as Node;
    if (!types.includes(node.type) || node.endPosition.row < row - 1) break;
    run.unshift(text(node, source));
    row = node.startPosition.row;
  }
  const joined = run.join("\n");
  return run.length && !LICENSE.test(joined) ? cap(cleanDocComments(run), DOC_MAX) : "";
}

function countTodos(source: string, facts: FileFacts): void {
  if (!TODO_HINT.test(source)) return;
  const lines = source.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const match = TODO_IN_COMMENT.exec(lines[i] as string);
    if (!match) continue;
    facts.todoCount++;
    if (facts.todos.length < MAX_TODOS) facts.todos.push({ line: i + 1, tag: match[1] as string });
  }
}

function recordState(facts: FileFacts, name: string, node: Node): void {
  if (!(name in facts.state)) facts.state[name] = node.startPosition.row + 1;
}

function text(node: Node, source: string): string {
  return source.slice(node.startIndex, node.endIndex);
}

function collapse(value: string): string {
  return value.replace(/\s+/g, " ").trim();
}

/** 1-based line of a character offset, by binary search over line starts. */
function lineLocator(source: string): (index: number) => number {
  const starts = [0];
  for (let i = source.indexOf("\n"); i >= 0; i = source.indexOf("\n", i + 1)) starts.push(i + 1);
  return (index) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}
