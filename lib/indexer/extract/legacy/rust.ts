/**
 * Rust extraction: fns, structs, enums, traits (with their methods), impl-block
 * methods qualified `Type.method` (also for `impl Trait for Type`), type aliases,
 * statics/consts as module state and flattened `use` trees. Errors come from
 * `Err(...)` variants, `panic!`/`anyhow!`/`bail!`-style macros and `.expect("...")`.
 */
import type { Node } from "web-tree-sitter";
import type { ExtractedSymbol, SymbolKind } from "../../types";
import {
  addErrorString,
  cap,
  createSymbol,
  endLineOf,
  FileState,
  isSimpleCallee,
  lastIdentifier,
  leadingTrivia,
  lineOf,
  makeCall,
  parseWriteTarget,
  pushUnique,
  shortText,
  SIGNATURE_MAX,
  signatureBetween,
  splitSimpleCallee,
  splitTopLevel,
} from "./common";

const LEAVES = new Set([
  "identifier",
  "field_identifier",
  "type_identifier",
  "primitive_type",
  "scoped_type_identifier",
  "generic_type",
  "reference_type",
  "pointer_type",
  "array_type",
  "tuple_type",
  "function_type",
  "abstract_type",
  "dynamic_type",
  "type_arguments",
  "type_parameters",
  "lifetime",
  "string_literal",
  "raw_string_literal",
  "char_literal",
  "integer_literal",
  "float_literal",
  "boolean_literal",
  "line_comment",
  "block_comment",
  "attribute_item",
  "inner_attribute_item",
  "self",
  "crate",
  "super",
  "metavariable",
  "macro_definition",
  "token_tree",
  "visibility_modifier",
  "mutable_specifier",
]);

const COMMENT_TYPES = new Set(["line_comment", "block_comment"]);
const ATTRIBUTE_TYPES = new Set(["attribute_item"]);
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
]);
/** Methods whose first argument is the error of a Result/Option conversion. */
const ERROR_ADAPTERS = new Set(["ok_or", "ok_or_else", "map_err"]);
const ERROR_PATHS = new Set(["scoped_identifier", "scoped_type_identifier", "identifier", "type_identifier"]);
/** Enum constructors are not calls worth resolving. */
const SKIPPED_CALLS = new Set(["Ok", "Err", "Some"]);

type Container = "file" | "mod" | "impl" | "trait" | "function";

interface Scope {
  container: Container;
  owner: ExtractedSymbol | null;
  parent: string | null;
  prefix: string | null;
  /** Methods of a trait impl, or of a public trait, are reachable without their own `pub`. */
  membersPublic: boolean;
}

interface RustState {
  file: FileState;
  staticMuts: Set<string>;
  traitImpls: Array<{ type: string; trait: string }>;
}

export function extractRust(root: Node, source: string): FileState {
  const file = new FileState(source);
  const state: RustState = { file, staticMuts: new Set(), traitImpls: [] };
  const scope: Scope = { container: "file", owner: null, parent: null, prefix: null, membersPublic: false };
  for (const child of root.namedChildren) visit(child, scope, state);
  file.resolveDeferredWrites((name) => state.staticMuts.has(name));
  // `impl Trait for Type` says what Type implements; record it on Type when it is defined here.
  for (const { type, trait } of state.traitImpls) {
    const target = file.symbols.find(
      (s) => s.qualifiedName === type && s.kind !== "method" && s.kind !== "function",
    );
    if (target) pushUnique(target.bases, trait);
  }
  return file;
}

function qualify(prefix: string | null, name: string): string {
  return prefix ? `${prefix}.${name}` : name;
}

function visit(node: Node, scope: Scope, state: RustState): void {
  const type = node.type;
  if (LEAVES.has(type)) return;
  switch (type) {
    case "function_item":
    case "function_signature_item":
      declareFunction(node, scope, state);
      return;
    case "struct_item":
    case "union_item":
    case "enum_item":
    case "type_item":
      declareType(node, scope, state);
      return;
    case "trait_item":
      declareTrait(node, scope, state);
      return;
    case "impl_item":
      onImpl(node, scope, state);
      return;
    case "mod_item": {
      const nameNode = node.childForFieldName("name");
      const body = node.childForFieldName("body");
      if (!nameNode || !body) return;
      const prefix = qualify(scope.prefix, state.file.text(nameNode));
      const inner: Scope = { container: "mod", owner: null, parent: null, prefix, membersPublic: false };
      for (const child of body.namedChildren) visit(child, inner, state);
      return;
    }
    case "static_item":
    case "const_item":
      onStatic(node, scope, state);
      return;
    case "use_declaration":
      onUse(node, state);
      return;
    case "extern_crate_declaration": {
      const nameNode = node.childForFieldName("name");
      const alias = node.childForFieldName("alias");
      if (nameNode) {
        state.file.addImport(state.file.text(nameNode), [], lineOf(node), {
          local: alias ? state.file.text(alias) : null,
        });
      }
      return;
    }
    case "call_expression":
      onCall(node, scope, state);
      break;
    case "macro_invocation":
      onMacro(node, scope, state);
      return;
    case "assignment_expression":
    case "compound_assignment_expr": {
      const left = node.childForFieldName("left");
      if (left) onWrite(left, scope, state);
      break;
    }
  }
  for (const child of node.namedChildren) visit(child, scope, state);
}

function placement(node: Node, state: RustState) {
  const trivia = leadingTrivia(node, state.file.source, {
    commentTypes: COMMENT_TYPES,
    attributeTypes: ATTRIBUTE_TYPES,
    // `//!` and `/*!` document the enclosing module, not the next item.
    rejectComment: (text) => text.startsWith("//!") || text.startsWith("/*!"),
  });
  const decorators = trivia.attributes.map((attr) =>
    signatureBetween(state.file.source, attr.startIndex, attr.endIndex).replace(/^#\[\s*|\s*\]$/g, ""),
  );
  return {
    startLine: trivia.startRow + 1,
    endLine: endLineOf(node),
    docstring: trivia.docstring,
    decorators,
  };
}

function isPub(node: Node, state: RustState): boolean {
  const visibility = node.namedChildren.find((c) => c.type === "visibility_modifier");
  return visibility !== undefined && state.file.text(visibility) === "pub";
}

function declareFunction(node: Node, scope: Scope, state: RustState): void {
  const file = state.file;
  const nameNode = node.childForFieldName("name");
  const body = node.childForFieldName("body");
  const name = nameNode ? file.text(nameNode) : "<anonymous>";
  const qualifiedName = qualify(scope.prefix, name);
  const inType = scope.container === "impl" || scope.container === "trait";
  const symbol = createSymbol({
    name,
    qualifiedName,
    kind: inType ? "method" : "function",
    ...placement(node, state),
    signature: signatureBetween(file.source, node.startIndex, body?.startIndex ?? node.endIndex, /;$/),
    parent: scope.parent,
    exported: scope.container !== "function" && (isPub(node, state) || (inType && scope.membersPublic)),
  });
  file.symbols.push(symbol);
  if (!body) return;
  const inner: Scope = {
    container: "function",
    owner: symbol,
    parent: qualifiedName,
    prefix: qualifiedName,
    membersPublic: false,
  };
  visit(body, inner, state);
}

function declareType(node: Node, scope: Scope, state: RustState): void {
  const file = state.file;
  const nameNode = node.childForFieldName("name");
  const body = node.childForFieldName("body");
  const name = nameNode ? file.text(nameNode) : "<anonymous>";
  const kind: SymbolKind = node.type === "enum_item" ? "enum" : node.type === "type_item" ? "type" : "struct";
  // Braced bodies are left out; tuple structs and aliases read best in full.
  const bracedBody = body && (body.type === "field_declaration_list" || body.type === "enum_variant_list");
  const signature = bracedBody
    ? signatureBetween(file.source, node.startIndex, body.startIndex)
    : cap(signatureBetween(file.source, node.startIndex, node.endIndex, /;$/), SIGNATURE_MAX);
  file.symbols.push(
    createSymbol({
      name,
      qualifiedName: qualify(scope.prefix, name),
      kind,
      ...placement(node, state),
      signature,
      parent: scope.container === "function" ? scope.parent : null,
      exported: scope.container !== "function" && isPub(node, state),
    }),
  );
}

function declareTrait(node: Node, scope: Scope, state: RustState): void {
  const file = state.file;
  const nameNode = node.childForFieldName("name");
  const body = node.childForFieldName("body");
  const bounds = node.childForFieldName("bounds");
  const name = nameNode ? file.text(nameNode) : "<anonymous>";
  const qualifiedName = qualify(scope.prefix, name);
  const exported = scope.container !== "function" && isPub(node, state);
  const bases = bounds ? splitTopLevel(file.text(bounds).replace(/^:\s*/, ""), "+") : [];
  file.symbols.push(
    createSymbol({
      name,
      qualifiedName,
      kind: "trait",
      ...placement(node, state),
      signature: signatureBetween(file.source, node.startIndex, body?.startIndex ?? node.endIndex),
      parent: scope.container === "function" ? scope.parent : null,
      exported,
      bases,
    }),
  );
  const inner: Scope = {
    container: "trait",
    owner: null,
    parent: qualifiedName,
    prefix: qualifiedName,
    membersPublic: exported,
  };
  for (const child of body?.namedChildren ?? []) visit(child, inner, state);
}

/** Bare type name of an impl target: `&mut fmt::Wrapper<T>` → `Wrapper`. */
function typeName(text: string): string {
  const withoutGenerics = text.replace(/<.*$/s, "");
  const cleaned = withoutGenerics
    .replace(/^(&\s*('\w+\s+)?(mut\s+)?|dyn\s+|\*\s*(const|mut)\s+)+/, "")
    .trim();
  return lastIdentifier(cleaned);
}

function onImpl(node: Node, scope: Scope, state: RustState): void {
  const file = state.file;
  const typeNode = node.childForFieldName("type");
  const traitNode = node.childForFieldName("trait");
  const body = node.childForFieldName("body");
  if (!typeNode || !body) return;
  const typeQualified = qualify(
    scope.container === "function" ? null : scope.prefix,
    typeName(file.text(typeNode)),
  );
  if (traitNode) {
    state.traitImpls.push({
      type: typeQualified,
      trait: signatureBetween(file.source, traitNode.startIndex, traitNode.endIndex),
    });
  }
  const inner: Scope = {
    container: "impl",
    owner: null,
    parent: typeQualified,
    prefix: typeQualified,
    membersPublic: traitNode !== null,
  };
  for (const child of body.namedChildren) visit(child, inner, state);
}

function onStatic(node: Node, scope: Scope, state: RustState): void {
  const nameNode = node.childForFieldName("name");
  if (!nameNode) return;
  const name = state.file.text(nameNode);
  if (scope.container === "file" || scope.container === "mod") state.file.moduleState.add(name);
  if (node.type === "static_item" && node.namedChildren.some((c) => c.type === "mutable_specifier")) {
    state.staticMuts.add(name);
  }
  const value = node.childForFieldName("value");
  if (value) visit(value, scope, state);
}

/** Names used from one module path, and what `as` renamed. */
interface UseGroup {
  names: string[];
  /** [local, imported] for `b as c`. */
  renamed: Array<[string, string]>;
  /** `use a::b as m` with `b` a module path of its own (`use serde_json as json`, `use a::{self as m}`). */
  local: string | null;
}

/**
 * Flattens a use tree into one import per module path: `use a::{b, c::d as e}` →
 * a [b], a::c [d] with alias e → d.
 */
function onUse(node: Node, state: RustState): void {
  const argument = node.childForFieldName("argument");
  if (!argument) return;
  const groups = new Map<string, UseGroup>();
  flattenUse(argument, "", null, groups, state.file);
  const line = lineOf(node);
  for (const [module, group] of groups) {
    state.file.addImport(module, group.names, line, { local: group.local, renamed: group.renamed });
  }
}

function joinPath(prefix: string, part: string): string {
  return prefix ? `${prefix}::${part}` : part;
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

/** `alias` is the `as` name of the path being flattened (`_` when it binds no name, as for traits). */
function flattenUse(
  node: Node,
  prefix: string,
  alias: string | null,
  groups: Map<string, UseGroup>,
  file: FileState,
): void {
  switch (node.type) {
    case "use_list":
      for (const child of node.namedChildren) flattenUse(child, prefix, null, groups, file);
      return;
    case "scoped_use_list": {
      const path = node.childForFieldName("path");
      const list = node.childForFieldName("list");
      const inner = path ? joinPath(prefix, file.text(path).replace(/\s+/g, "")) : prefix;
      if (list) flattenUse(list, inner, null, groups, file);
      return;
    }
    case "use_as_clause": {
      const path = node.childForFieldName("path");
      const as = node.childForFieldName("alias");
      if (path) flattenUse(path, prefix, as ? file.text(as) : null, groups, file);
      return;
    }
    case "use_wildcard": {
      const path = node.namedChildren.find((c) => c.type !== "comment");
      addUse(groups, path ? joinPath(prefix, file.text(path).replace(/\s+/g, "")) : prefix, "*", null);
      return;
    }
    case "self":
      if (prefix) addUse(groups, prefix, null, alias);
      return;
    default: {
      const full = joinPath(prefix, file.text(node).replace(/\s+/g, ""));
      const cut = full.lastIndexOf("::");
      if (cut < 0) addUse(groups, full, null, alias);
      else addUse(groups, full.slice(0, cut), full.slice(cut + 2), alias);
    }
  }
}

function renderCallee(node: Node, file: FileState): string {
  switch (node.type) {
    case "identifier":
    case "field_identifier":
    case "type_identifier":
    case "self":
    case "crate":
    case "super":
      return file.text(node);
    case "scoped_identifier": {
      const path = node.childForFieldName("path");
      const name = node.childForFieldName("name");
      return `${path ? renderCallee(path, file) : ""}::${name ? file.text(name) : ""}`;
    }
    case "generic_type": {
      const type = node.childForFieldName("type");
      return type ? renderCallee(type, file) : file.text(node);
    }
    case "generic_function": {
      const fn = node.childForFieldName("function");
      return fn ? renderCallee(fn, file) : file.text(node);
    }
    case "field_expression": {
      const value = node.childForFieldName("value");
      const field = node.childForFieldName("field");
      return `${value ? renderCallee(value, file) : ""}.${field ? file.text(field) : ""}`;
    }
    case "call_expression": {
      const fn = node.childForFieldName("function");
      return `${fn ? renderCallee(fn, file) : ""}()`;
    }
    case "try_expression": {
      const inner = node.firstNamedChild;
      return `${inner ? renderCallee(inner, file) : ""}?`;
    }
    case "await_expression": {
      const inner = node.firstNamedChild;
      return `${inner ? renderCallee(inner, file) : ""}.await`;
    }
    case "index_expression": {
      const inner = node.firstNamedChild;
      return `${inner ? renderCallee(inner, file) : ""}[…]`;
    }
    default:
      return shortText(file.text(node));
  }
}

/** Splits a rendered callee at its last `.` or `::` outside brackets. */
function splitRendered(raw: string): { name: string; receiver: string | null } {
  const match = /(\.|::)([A-Za-z_]\w*)$/.exec(raw);
  if (!match?.[2]) return { name: lastIdentifier(raw), receiver: null };
  return { name: match[2], receiver: raw.slice(0, raw.length - match[0].length) };
}

function onCall(node: Node, scope: Scope, state: RustState): void {
  const owner = scope.owner;
  const fn = node.childForFieldName("function");
  if (!owner || !fn || fn.type === "closure_expression") return;
  const file = state.file;
  const text = file.text(fn);
  const raw = isSimpleCallee(text) ? text : renderCallee(fn, file);
  const { name, receiver } = isSimpleCallee(text) ? splitSimpleCallee(text) : splitRendered(raw);
  const args = node.childForFieldName("arguments")?.namedChildren ?? [];
  if (name === "Err" && receiver === null) {
    const first = args[0];
    if (first) onErrValue(first, owner, file);
  } else if (receiver !== null && ERROR_ADAPTERS.has(name)) {
    const first = args[0];
    if (first) onErrValue(closureResult(first), owner, file);
  } else if (name === "expect" && receiver !== null) {
    const first = args[0];
    if (first) addErrorString(owner, messageOf(first, file));
  }
  if (receiver === null && SKIPPED_CALLS.has(name)) return;
  const line = fn.type === "field_expression" ? lineOf(fn.childForFieldName("field") ?? node) : lineOf(node);
  owner.calls.push(makeCall(raw, name, receiver, line));
}

/** `|e| Error::Io(e)` → its result expression; anything else is returned unchanged. */
function closureResult(node: Node): Node {
  if (node.type !== "closure_expression") return node;
  return node.childForFieldName("body") ?? node;
}

/** The error carried by `Err(...)`: an enum variant or error type, or a message literal. */
function onErrValue(value: Node, owner: ExtractedSymbol, file: FileState): void {
  let target: Node | null = value;
  if (value.type === "call_expression") target = value.childForFieldName("function");
  else if (value.type === "struct_expression") target = value.childForFieldName("name");
  if (!target) return;
  if (target.type === "string_literal" || target.type === "raw_string_literal") {
    addErrorString(owner, messageOf(target, file));
    return;
  }
  if (!ERROR_PATHS.has(target.type)) return;
  let name = file.text(target).replace(/\s+/g, "");
  // `MyError::new(..)` names the type, not a variant.
  if (name.endsWith("::new")) name = name.slice(0, -5);
  if (/^[A-Z]/.test(lastIdentifier(name))) pushUnique(owner.raises, name);
}

function onMacro(node: Node, scope: Scope, state: RustState): void {
  const owner = scope.owner;
  const macro = node.childForFieldName("macro");
  if (!owner || !macro) return;
  const name = lastIdentifier(state.file.text(macro));
  if (!ERROR_MACROS.has(name)) return;
  if (name === "panic") pushUnique(owner.raises, "panic");
  const tokens = node.namedChildren.find((c) => c.type === "token_tree");
  const literal = tokens?.namedChildren.find(
    (c) => c.type === "string_literal" || c.type === "raw_string_literal",
  );
  if (literal) addErrorString(owner, messageOf(literal, state.file));
}

/** `self.x…` writes are recorded at once; other roots may be `static mut` items. */
function onWrite(target: Node, scope: Scope, state: RustState): void {
  const owner = scope.owner;
  if (!owner) return;
  const parsed = parseWriteTarget(state.file.text(target));
  if (!parsed) return;
  if (parsed.root === "self") {
    if (parsed.member) pushUnique(owner.mutates, `self.${parsed.member}`);
  } else {
    state.file.deferWrite(owner, parsed.root, parsed.bare);
  }
}

function messageOf(node: Node, file: FileState): string | null {
  if (node.type !== "string_literal" && node.type !== "raw_string_literal") return null;
  return file
    .text(node)
    .replace(/^b?r?#*"/, "")
    .replace(/"#*$/, "");
}
