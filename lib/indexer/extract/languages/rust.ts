/**
 * Rust: visibility (`pub`, or reached through a trait), `impl Trait for Type` as a
 * base of Type, flattened `use` trees, errors from `Err(…)` values, error macros (`panic!`,
 * `bail!` …) and `.expect("…")`, and the calls and messages written in macro arguments
 * (`rust-token-calls.ts`).
 */
import type { Node } from "web-tree-sitter";
import type { ExtractedSymbol } from "../../types";
import {
  addErrorString,
  cap,
  lastIdentifier,
  lineOf,
  parseWriteTarget,
  pushUnique,
  SIGNATURE_MAX,
  signatureBetween,
  splitTopLevel,
} from "../common";
import type { Extraction, LanguageSpec } from "../extraction";
import { tokenTreeCalls } from "./rust-token-calls";

const ERROR_MACROS = new Set([
  "panic",
  "anyhow",
  "bail",
  "ensure",
  "format_err",
  "eprintln",
  "eprint",
  "error",
  "warn",
  "unreachable",
  "unimplemented",
  "todo",
  "eyre",
]);
/** Macros that build a message: in a `fmt` impl, what they write is what the error says. */
const FORMAT_MACROS = new Set(["write", "writeln", "format", "format_args"]);
/**
 * A formatter helper's parameter (`f: &mut fmt::Formatter`): a `debug` or `display` function
 * an impl's `fmt` hands its formatter to writes the error's text as `fmt` itself would.
 */
const FORMATTER_PARAM = /&\s*mut\s+(?:[\w]+::)*Formatter\b/;
/** Macros whose value is a message built from a format string. */
const MESSAGE_BUILDERS = new Set(["format", "format_args", "concat", "anyhow", "eyre", "format_err"]);
/** Macros that log or print (`log`, `tracing`, std): the calls in their arguments only feed the line. */
const LOGGERS = new Set("trace debug info warn error event log println print eprintln eprint dbg".split(" "));
/** Code generators: their arguments are code written for another place, not calls made here. */
const GENERATORS = new Set(["quote", "quote_spanned", "parse_quote", "parse_quote_spanned"]);
/** Methods whose first argument is the error of a Result/Option conversion. */
const ERROR_ADAPTERS = new Set(["ok_or", "ok_or_else", "map_err"]);
const ERROR_PATHS = new Set(["scoped_identifier", "scoped_type_identifier", "identifier", "type_identifier"]);
/** Enum constructors are not calls worth resolving. */
const SKIPPED_CALLS = new Set(["Ok", "Err", "Some"]);

interface RustState {
  staticMuts: Set<string>;
  traitImpls: Array<{ type: string; trait: string }>;
}

const state = (x: Extraction) => (x.data.rust ??= { staticMuts: new Set(), traitImpls: [] }) as RustState;

function isPub(node: Node, x: Extraction): boolean {
  const visibility = node.namedChildren.find((c) => c.type === "visibility_modifier");
  return visibility !== undefined && x.text(visibility) === "pub";
}

export const rust: LanguageSpec = {
  query: "rust.scm",
  comments: new Set(["line_comment", "block_comment"]),
  attributes: new Set(["attribute_item"]),
  // `//!` and `/*!` document the enclosing module, not the next item.
  rejectComment: (text) => text.startsWith("//!") || text.startsWith("/*!"),
  signatureTrailing: /;$/,
  members: { field_expression: ["value", "field", "."] },
  splitRendered: true,
  render: {
    identifier: "$",
    field_identifier: "$",
    type_identifier: "$",
    self: "$",
    crate: "$",
    super: "$",
    scoped_identifier: "@path::$name",
    generic_type: "@type",
    generic_function: "@function",
    field_expression: "@value.$field",
    call_expression: "@function()",
    try_expression: "@0?",
    await_expression: "@0.await",
    index_expression: "@0[…]",
  },
  strings: new Set(["string_literal", "raw_string_literal"]),
  stringText: (node, x) => {
    const text = x.text(node);
    const inner = text.replace(/^b?r?#*"/, "").replace(/"#*$/, "");
    // A backslash at a line's end continues the string after the next line's indentation.
    return node.type === "raw_string_literal" ? inner : inner.replace(/\\\r?\n\s*/g, "");
  },
  stateInNamespaces: true,
  // `format!("no entry {}", key)` as a message: its format string.
  message: (node, x) =>
    node.type === "macro_invocation" && MESSAGE_BUILDERS.has(macroName(node, x))
      ? firstLiteral(node.namedChildren.find((c) => c.type === "token_tree") ?? node, x)
      : undefined,

  exported(def, x) {
    if (def.scope.kind === "function") return false;
    const inType = def.scope.kind === "type" && (def.kind === "function" || def.kind === "method");
    return isPub(def.match.node, x) || (inType && def.scope.data.membersPublic === true);
  },

  define(def, x) {
    const node = def.match.node;
    const body = def.match.parts.body?.[0];
    if (def.kind !== "function" && def.kind !== "method") {
      def.parent = def.scope.kind === "function" ? def.scope.parent : null;
      def.region = null;
    }
    if (node.type === "function_signature_item") def.region = null;
    if (node.type === "macro_definition") {
      // A macro's rules are no body to search; `#[macro_export]` makes it public API.
      def.region = null;
      def.signature = `macro_rules! ${def.name}`;
      def.exported = def.decorators.some((d) => /^macro_export\b/.test(d));
      return;
    }
    if (def.kind === "trait") {
      const bounds = def.match.parts.bases?.[0];
      def.bases = bounds ? splitTopLevel(x.text(bounds).replace(/^:\s*/, ""), "+") : [];
      def.region = body ? { start: body.startIndex, end: body.endIndex } : null;
      def.inner = { symbol: null, data: { membersPublic: def.exported } };
    } else if (def.region === null && node.type !== "function_signature_item") {
      // Braced bodies are left out; tuple structs and aliases read best in full.
      const braced = body && (body.type === "field_declaration_list" || body.type === "enum_variant_list");
      if (!braced)
        def.signature = cap(signatureBetween(x.source, node.startIndex, node.endIndex, /;$/), SIGNATURE_MAX);
    }
  },

  namespace(m, scope, x) {
    const name = m.parts.name?.[0];
    if (m.node.type === "mod_item") return { symbol: null, parent: null };
    const trait = m.node.childForFieldName("trait");
    // `&mut fmt::Wrapper<T>` → `Wrapper`
    const bare = (name ? x.text(name) : "")
      .replace(/<.*$/s, "")
      .replace(/^(&\s*('\w+\s+)?(mut\s+)?|dyn\s+|\*\s*(const|mut)\s+)+/, "")
      .trim();
    const prefix = scope.kind === "function" ? null : scope.prefix;
    const type = prefix ? `${prefix}.${lastIdentifier(bare)}` : lastIdentifier(bare);
    if (trait)
      state(x).traitImpls.push({ type, trait: signatureBetween(x.source, trait.startIndex, trait.endIndex) });
    return {
      kind: "type",
      symbol: null,
      parent: type,
      prefix: type,
      data: { membersPublic: trait !== null },
    };
  },

  call(m, scope, x) {
    const owner = scope.symbol;
    const fn = m.parts.callee?.[0];
    if (!owner || !fn || fn.type === "closure_expression") return true;
    const call = x.describe(fn, lineOf(m.node));
    const first = m.parts.arguments?.[0]?.namedChildren[0];
    if (first && call.name === "Err" && call.receiver === null) errValue(first, owner, x);
    else if (first && call.receiver !== null && ERROR_ADAPTERS.has(call.name)) {
      errValue(
        first.type === "closure_expression" ? (first.childForFieldName("body") ?? first) : first,
        owner,
        x,
      );
    } else if (first && call.name === "expect" && call.receiver !== null)
      addErrorString(owner, x.messageOf(first));
    if (call.receiver !== null || !SKIPPED_CALLS.has(call.name)) owner.calls.push(call);
    return true;
  },

  write(target, scope, x) {
    const owner = scope.symbol;
    const parsed = owner ? parseWriteTarget(x.text(target)) : null;
    if (!owner || !parsed) return;
    if (parsed.root !== "self") x.deferWrite(owner, parsed.root, parsed.bare);
    else if (parsed.member) pushUnique(owner.mutates, `self.${parsed.member}`);
  },

  roles: {
    macro(m, scope, x) {
      const owner = scope.symbol;
      const macro = m.parts.callee?.[0];
      const tokens = m.node.namedChildren.find((c) => c.type === "token_tree");
      if (!owner || !macro || !tokens) return;
      readMacro(lastIdentifier(x.text(macro)), tokens, owner, x);
    },
    staticMut(m, _scope, x) {
      state(x).staticMuts.add(x.text(m.node));
    },
    use(m, _scope, x) {
      const groups = new Map<string, UseGroup>();
      flattenUse(m.node, "", null, groups, x);
      const line = lineOf(m.node.parent ?? m.node);
      for (const [module, group] of groups) x.addImport(module, group.names, line, group);
    },
  },

  moduleLevel: (name, _bare, x) => state(x).staticMuts.has(name),

  finish(x) {
    // `impl Trait for Type` says what Type implements; record it on Type when it is defined here.
    for (const { type, trait } of state(x).traitImpls) {
      const target = x.symbols.find(
        (s: ExtractedSymbol) => s.qualifiedName === type && s.kind !== "method" && s.kind !== "function",
      );
      if (target) pushUnique(target.bases, trait);
    }
  },
};

/**
 * A macro call in `owner`'s body: the calls written in its arguments, and the message it
 * reports when it is an error macro, a `write!`/`format!` in a `fmt` impl or a helper given its
 * formatter, or an `.expect("…")`
 * among its arguments. Macros nested in the arguments are read the same way.
 */
function readMacro(name: string, tokens: Node, owner: ExtractedSymbol, x: Extraction): void {
  if (GENERATORS.has(name)) return;
  const inFmt = owner.name === "fmt" || FORMATTER_PARAM.test(owner.signature);
  const read = tokenTreeCalls(tokens, (node) => x.text(node));
  for (const found of [{ name, tree: tokens }, ...read.macros]) {
    if (found.name === "panic") pushUnique(owner.raises, "panic");
    if (ERROR_MACROS.has(found.name)) addErrorString(owner, firstLiteral(found.tree, x));
    else if (inFmt && FORMAT_MACROS.has(found.name))
      addErrorString(owner, wording(firstLiteral(found.tree, x)));
  }
  // What a log or print line calls is computed for the line, not the program's flow.
  if (LOGGERS.has(name)) return;
  for (const { args, ...call } of read.calls) {
    if (call.name === "expect" && call.receiver !== null) addErrorString(owner, firstLiteral(args, x));
    if (call.receiver !== null || !SKIPPED_CALLS.has(call.name)) owner.calls.push(call);
  }
}

function macroName(node: Node, x: Extraction): string {
  const macro = node.childForFieldName("macro");
  return macro ? lastIdentifier(x.text(macro)) : "";
}

/** A format string that says something (`"\n\nCaused by:"`), not only where values go (`"{}"`, `"\n\n"`). */
function wording(literal: string | null): string | null {
  return literal !== null && /\p{L}{2}/u.test(literal.replace(/\\[a-z]/g, " ")) ? literal : null;
}

/** The first string literal written directly in a token tree: a format string or a message. */
function firstLiteral(tree: Node, x: Extraction): string | null {
  const literal = tree.namedChildren.find(
    (c) => c.type === "string_literal" || c.type === "raw_string_literal",
  );
  return literal ? x.messageOf(literal) : null;
}

/** The error carried by `Err(…)`: an enum variant or error type, or a message literal. */
function errValue(value: Node, owner: ExtractedSymbol, x: Extraction): void {
  let target: Node | null = value;
  if (value.type === "call_expression") {
    target = value.childForFieldName("function");
    // `Err(Error::new("empty input"))`: the message the error is built with.
    addErrorString(owner, x.firstMessage(value.childForFieldName("arguments")));
  } else if (value.type === "struct_expression") target = value.childForFieldName("name");
  else if (value.type === "macro_invocation") {
    // `Err(format!("bad range {}", r))`
    addErrorString(owner, x.messageOf(value));
    return;
  }
  if (!target) return;
  if (target.type === "string_literal" || target.type === "raw_string_literal") {
    addErrorString(owner, x.messageOf(target));
    return;
  }
  if (!ERROR_PATHS.has(target.type)) return;
  let name = x.text(target).replace(/\s+/g, "");
  // `MyError::new(..)` names the type, not a variant.
  if (name.endsWith("::new")) name = name.slice(0, -5);
  if (/^[A-Z]/.test(lastIdentifier(name))) pushUnique(owner.raises, name);
}

/** Names used from one module path, and what `as` renamed. */
interface UseGroup {
  names: string[];
  /** [local, imported] for `b as c` */
  renamed: Array<[string, string]>;
  /** `use a::b as m` with `b` a module path of its own (`use serde_json as json`, `use a::{self as m}`) */
  local: string | null;
}

function addUse(
  groups: Map<string, UseGroup>,
  module: string,
  name: string | null,
  alias: string | null,
): void {
  const group = groups.get(module) ?? { names: [], renamed: [], local: null };
  if (name !== null && !group.names.includes(name)) group.names.push(name);
  if (alias !== null && name !== null) group.renamed.push([alias, name]);
  else if (alias !== null) group.local = alias;
  groups.set(module, group);
}

/**
 * Flattens a use tree into one import per module path: `use a::{b, c::d as e}` →
 * a [b], a::c [d] with alias e → d. `alias` is the `as` name of the path being flattened.
 */
function flattenUse(
  node: Node,
  prefix: string,
  alias: string | null,
  groups: Map<string, UseGroup>,
  x: Extraction,
): void {
  const join = (part: string) => (prefix ? `${prefix}::${part}` : part);
  switch (node.type) {
    case "use_list":
      for (const child of node.namedChildren) flattenUse(child, prefix, null, groups, x);
      return;
    case "scoped_use_list": {
      const path = node.childForFieldName("path");
      const list = node.childForFieldName("list");
      if (list) flattenUse(list, path ? join(x.text(path).replace(/\s+/g, "")) : prefix, null, groups, x);
      return;
    }
    case "use_as_clause": {
      const path = node.childForFieldName("path");
      const as = node.childForFieldName("alias");
      if (path) flattenUse(path, prefix, as ? x.text(as) : null, groups, x);
      return;
    }
    case "use_wildcard": {
      const path = node.namedChildren.find((c) => c.type !== "comment");
      addUse(groups, path ? join(x.text(path).replace(/\s+/g, "")) : prefix, "*", null);
      return;
    }
    case "self":
      if (prefix) addUse(groups, prefix, null, alias);
      return;
    default: {
      const full = join(x.text(node).replace(/\s+/g, ""));
      const cut = full.lastIndexOf("::");
      if (cut < 0) addUse(groups, full, null, alias);
      else addUse(groups, full.slice(0, cut), full.slice(cut + 2), alias);
    }
  }
}
