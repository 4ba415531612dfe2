/**
 * Calls and nested macros written in a Rust macro's arguments. The grammar reads a macro
 * invocation's argument as a token tree, not as expressions, so `itry!(self.push(&dent))`,
 * `assert!(is_valid(x))` or `vec![make(a)]` hold no call nodes. Read back from the
 * tokens: a path (`f`, `DirEntry::from_path`, `self::f`) followed by a parenthesised tree
 * is a call; `.name(` is a method call on the tokens before the dot; `name!(…)` is a
 * nested macro. `$x` (a macro_rules metavariable) and `#x` (a `quote!` interpolation) are
 * no names.
 */
import type { Node } from "web-tree-sitter";
import type { ExtractedCall } from "../../types";
import { lineOf } from "../common";

/** A call read from tokens, with the tree of its arguments. */
export interface TokenCall extends ExtractedCall {
  args: Node;
}

/** A macro invoked inside another macro's arguments. */
export interface TokenMacro {
  name: string;
  tree: Node;
}

const PATH_SEGMENTS = new Set(["identifier", "self", "super", "crate"]);
/** Tokens a receiver chain is made of, read backwards from a method's dot. */
const RECEIVER_TOKENS = new Set(["identifier", "self", "super", "crate", "integer_literal", ".", "::", "?"]);
/** Words followed by a parenthesis that are no call (`if (a)`, `return (x, y)`). */
const KEYWORDS = new Set([
  "if",
  "while",
  "match",
  "return",
  "in",
  "as",
  "for",
  "loop",
  "let",
  "move",
  "else",
]);
const NOT_A_PATH_START = new Set(["$", "#", "::"]);
/** Trees nested deeper than this are not read: generated token soups can be deep. */
const DEPTH_MAX = 32;

/** Calls and nested macros of a token tree, in source order, nested trees included. */
export function tokenTreeCalls(
  tree: Node,
  text: (node: Node) => string,
): { calls: TokenCall[]; macros: TokenMacro[] } {
  const out = { calls: [] as TokenCall[], macros: [] as TokenMacro[] };
  readTree(tree, text, out, 0);
  return out;
}

function readTree(
  tree: Node,
  text: (node: Node) => string,
  out: { calls: TokenCall[]; macros: TokenMacro[] },
  depth: number,
): void {
  if (depth > DEPTH_MAX) return;
  const tokens = tree.children.filter((c): c is Node => c !== null);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Node;
    const before = tokens[i - 1];
    if (token.type === "token_tree") {
      // `#[derive(Debug)]` is an attribute, not a call of `derive`.
      if (!isAttribute(tokens, i)) readTree(token, text, out, depth + 1);
      continue;
    }
    if (!PATH_SEGMENTS.has(token.type)) continue;
    // `$x` and `#x` are placeholders; after `fn` comes a definition; after a bare `::`
    // (`Vec::<T>::new`) the path's head is not known.
    if (before && (NOT_A_PATH_START.has(before.type) || text(before) === "fn")) continue;
    // The longest path starting here: `a::b::c`.
    let end = i;
    while (tokens[end + 1]?.type === "::" && PATH_SEGMENTS.has(tokens[end + 2]?.type ?? "")) end += 2;
    const next = tokens[end + 1];
    const path = tokens
      .slice(i, end + 1)
      .map(text)
      .join("");
    if (next?.type === "!" && tokens[end + 2]?.type === "token_tree") {
      out.macros.push({ name: text(tokens[end] as Node), tree: tokens[end + 2] as Node });
      readTree(tokens[end + 2] as Node, text, out, depth + 1);
      i = end + 2;
      continue;
    }
    const opensCall = next?.type === "token_tree" && next.firstChild?.type === "(";
    if (opensCall && !KEYWORDS.has(path)) out.calls.push(callAt(tokens, i, end, path, next, text));
    i = end;
  }
}

/** Whether the tree at `i` is the bracket of an attribute: `#[…]` or `#![…]`. */
function isAttribute(tokens: Node[], i: number): boolean {
  const before = tokens[i - 1]?.type;
  return before === "#" || (before === "!" && tokens[i - 2]?.type === "#");
}

/** The call of the path `tokens[start..end]`: a method call when a dot comes before it. */
function callAt(
  tokens: Node[],
  start: number,
  end: number,
  path: string,
  args: Node,
  text: (node: Node) => string,
): TokenCall {
  const nameNode = tokens[end] as Node;
  const name = text(nameNode);
  const line = lineOf(nameNode);
  if (tokens[start - 1]?.type === ".") {
    const receiver = receiverBefore(tokens, start - 1, text);
    if (receiver) return { raw: `${receiver}.${path}`, name, receiver, line, args };
  }
  const cut = path.lastIndexOf("::");
  const receiver = cut < 0 ? null : path.slice(0, cut);
  return { raw: path, name, receiver, line, args };
}

/** The receiver chain written before the dot at `dot`: `self.it`, `a.b()`, `v[…]`; "" when none. */
function receiverBefore(tokens: Node[], dot: number, text: (node: Node) => string): string {
  let out = "";
  for (let i = dot - 1; i >= 0; i--) {
    const token = tokens[i] as Node;
    if (token.type === "token_tree") {
      const open = token.firstChild?.type;
      const glued = PATH_SEGMENTS.has(tokens[i - 1]?.type ?? "");
      // A parenthesised tree alone is a grouped expression, not a call's arguments.
      if (open === "(" && !glued) break;
      if (open === "(") out = `()${out}`;
      else if (open === "[") out = `[…]${out}`;
      else break;
      continue;
    }
    if (!RECEIVER_TOKENS.has(token.type)) break;
    // Two names in a row are two expressions (`x y.f()` cannot be, `mut z.f()` is no chain).
    if (PATH_SEGMENTS.has(token.type) && PATH_SEGMENTS.has(tokens[i + 1]?.type ?? "")) break;
    out = `${text(token)}${out}`;
  }
  return out.replace(/^(\.|::)+/, "");
}
