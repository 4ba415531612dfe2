/**
 * Messages held in named constants: `raise MISSING_ADAPTER_ERROR`, `errors.New(msgNoRoute)`,
 * `throw new IllegalStateException(MSG)`, `msg = f"…"; raise ValueError(msg)`. A name used
 * where a message is read is looked up in its own file — a constant, static field, module
 * variable or `#define`, or a local of the same function assigned before the use — and the
 * literal text of its value stands for the name. Lookups find the definition's text first
 * (a regular expression over the source) and then confirm it in the tree, so a file is not
 * walked for them.
 */
import type { Node } from "web-tree-sitter";

/** What a lookup reads of a file's extraction (extraction.ts calls in here, so not its class). */
export interface MessageReader {
  readonly source: string;
  text(node: Node): string;
  messageOf(node: Node): string | null;
}

/** A bare name or one qualified by its holder (`self::MSG`, `Errors.MSG`, `Self::MSG`). */
const NAME_REFERENCE = /^(?:[A-Za-z_$][\w$]*(?:\.|::|->))*([A-Za-z_$][\w$]*)$/;
const REFERENCE_MAX = 120;
/** Characters allowed between a declared name and its `=`: a type (`: &str`, ` string`, `[]`). */
const DECLARED_TYPE_MAX = 40;
/** Assignments of one name read from a file, and definitions of it tried for one use. */
const ASSIGNMENTS_MAX = 20_000;
const DEFINITIONS_MAX = 8;
/** Ancestors climbed from a declared name to the node that holds its `=` and value. */
const DECLARATION_DEPTH = 4;

/** Nodes that open a function body: a local there is not visible to other functions. */
const FUNCTION_TYPES: ReadonlySet<string> = new Set([
  "function_definition",
  "function_declaration",
  "function_item",
  "function_expression",
  "function",
  "generator_function",
  "generator_function_declaration",
  "arrow_function",
  "method_definition",
  "method_declaration",
  "method",
  "singleton_method",
  "constructor_declaration",
  "lambda",
  "lambda_expression",
  "closure_expression",
  "func_literal",
  "local_function_statement",
  "anonymous_function",
  "anonymous_function_creation_expression",
  "accessor_declaration",
  "do_block",
]);

/** Where a name is assigned: per function holding the assignment (-1: none does), in order. */
type Assignments = Map<number, Node[]>;

interface State {
  assignments: Map<string, Assignments>;
  /** the text of each name's `#define`, when the file has one */
  defines: Map<string, string | null>;
  resolving: Set<string>;
}
const states = new WeakMap<MessageReader, State>();
const FILE_LEVEL = -1;

/** Literal text of the constant a name refers to, or null when it names no literal. */
export function constantMessage(node: Node, x: MessageReader): string | null {
  if (node.endIndex - node.startIndex > REFERENCE_MAX) return null;
  const name = NAME_REFERENCE.exec(x.text(node))?.[1];
  if (!name) return null;
  let state = states.get(x);
  if (!state) states.set(x, (state = { assignments: new Map(), defines: new Map(), resolving: new Set() }));
  if (state.resolving.has(name)) return null;
  let assignments = state.assignments.get(name);
  if (!assignments) state.assignments.set(name, (assignments = assignmentsOf(name, node, x)));
  state.resolving.add(name);
  try {
    const text = resolve(assignments, node, x);
    if (text !== null) return text;
    if (!state.defines.has(name)) state.defines.set(name, defineText(name, x));
    return state.defines.get(name) ?? null;
  } finally {
    state.resolving.delete(name);
  }
}

/** Where `name` is followed by an `=` (after a type at most) and the tree agrees it is that name. */
function assignmentsOf(name: string, node: Node, x: MessageReader): Assignments {
  const assigned = new RegExp(
    `(?<![\\w$.])${name.replace(/\$/g, "\\$")}(?![\\w$])[^=;\\n{}()]{0,${DECLARED_TYPE_MAX}}?=(?![=>~])`,
    "g",
  );
  const root = node.tree.rootNode;
  const out: Assignments = new Map();
  let count = 0;
  for (const match of x.source.matchAll(assigned)) {
    if (++count > ASSIGNMENTS_MAX) break;
    const declared = root.descendantForIndex(match.index, match.index + name.length);
    if (!declared || x.text(declared) !== name) continue;
    const home = enclosingFunction(declared)?.startIndex ?? FILE_LEVEL;
    const list = out.get(home);
    if (list) list.push(declared);
    else out.set(home, [declared]);
  }
  return out;
}

function resolve(assignments: Assignments, reference: Node, x: MessageReader): string | null {
  const owner = enclosingFunction(reference)?.startIndex;
  const locals = owner === undefined ? [] : (assignments.get(owner) ?? []);
  // The assignment nearest before the use (`err = "…"; raise ValueError(err)` once per
  // branch), then the file's constants.
  const before = locals.filter((d) => d.startIndex < reference.startIndex).reverse();
  for (const declared of [...before, ...(assignments.get(FILE_LEVEL) ?? [])].slice(0, DEFINITIONS_MAX)) {
    const value = valueOf(declared);
    const text = value ? x.messageOf(value) : null;
    if (text !== null) return text;
  }
  return null;
}

function enclosingFunction(node: Node): Node | null {
  for (let n = node.parent; n; n = n.parent) if (FUNCTION_TYPES.has(n.type)) return n;
  return null;
}

/** The value a declared name is given: the named node after the `=` of its declaration. */
function valueOf(declared: Node): Node | null {
  let holder: Node | null = declared.parent;
  for (let depth = 0; holder && depth < DECLARATION_DEPTH; depth++, holder = holder.parent) {
    const children = holder.children;
    const at = children.findIndex(
      (c) => c && !c.isNamed && (c.type === "=" || c.type === ":=") && c.startIndex >= declared.endIndex,
    );
    if (at >= 0) return unwrap(children.slice(at + 1).find((c) => c?.isNamed) ?? null);
    // C# keeps the `=` and the value in a clause beside the name.
    const clause = holder.namedChildren.find((c) => c?.type === "equals_value_clause");
    if (clause) return unwrap(clause.lastNamedChild);
  }
  return null;
}

/** A one-value list (Go `const a = "…"`, Python `A = ("…")`) stands for its value. */
function unwrap(node: Node | null): Node | null {
  if (node && (node.type === "expression_list" || node.type === "parenthesized_expression"))
    return node.namedChildCount === 1 ? node.firstNamedChild : node;
  return node;
}

/** A C/C++ `#define NAME "…" "…"`: the text of its string literals, when it holds only those. */
function defineText(name: string, x: MessageReader): string | null {
  const define = new RegExp(`^[ \\t]*#[ \\t]*define[ \\t]+${name}[ \\t]+(.+)$`, "m").exec(x.source);
  const body = define?.[1]?.trim();
  if (!body || !/^(?:"(?:[^"\\]|\\.)*"\s*)+$/.test(body)) return null;
  return [...body.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]).join("");
}
