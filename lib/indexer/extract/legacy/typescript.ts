/**
 * TypeScript, TSX and JavaScript extraction (the three grammars share node types).
 * Symbols: function declarations, functions/arrows/classes bound to variables,
 * classes and their methods/arrow fields, interfaces, type aliases and enums, plus
 * CommonJS `exports.x = function`. Export status comes from `export` wrappers,
 * `export { a }` lists, `export default a` and `module.exports`.
 */
import type { Node } from "web-tree-sitter";
import type { ExtractedSymbol, SymbolKind } from "../../types";
import {
  addErrorString,
  cap,
  createSymbol,
  endLineOf,
  FileState,
  firstLiteral,
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
  "property_identifier",
  "private_property_identifier",
  "shorthand_property_identifier",
  "shorthand_property_identifier_pattern",
  "type_identifier",
  "predefined_type",
  "type_annotation",
  "type_arguments",
  "type_parameters",
  "number",
  "string",
  "string_fragment",
  "escape_sequence",
  "regex",
  "comment",
  "true",
  "false",
  "null",
  "undefined",
  "this",
  "super",
  "statement_identifier",
  "hash_bang_line",
  "jsx_text",
  "html_comment",
  "meta_property",
  "interface_body",
  "object_type",
  "empty_statement",
  "debugger_statement",
  "break_statement",
  "continue_statement",
]);

const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function", "generator_function"]);
const CLASS_DECLARATIONS = new Set(["class_declaration", "abstract_class_declaration"]);
const COMMENT_TYPES = new Set(["comment"]);
const LOG_METHODS = new Set(["error", "warn", "warning", "fatal"]);
const LOG_RECEIVER = /^_*(console|log|logger|LOG|LOGGER|Log|Logger)$/;
/** Fields of parameters/patterns that hold types or default values, not bound names. */
const PATTERN_SKIP_FIELDS = new Set(["type_annotation", "type", "key", "right", "value", "value_type"]);

interface Frame {
  symbol: ExtractedSymbol;
  locals: Set<string>;
  writes: Array<{ name: string; bare: boolean }>;
}

interface Scope {
  kind: "module" | "namespace" | "class" | "function";
  /** Symbol receiving calls and writes (null at module level). */
  owner: ExtractedSymbol | null;
  /** qualifiedName of the enclosing symbol, for `parent`. */
  parent: string | null;
  /** Prefix for names defined here: enclosing symbol or namespace path. */
  prefix: string | null;
  frame: Frame | null;
}

interface Declared {
  /** Node whose range and leading comments belong to the symbol (an `export` wrapper, say). */
  outer: Node;
  exported: boolean;
  decorators: string[];
}

/** Per-file state beyond FileState: binding kinds and export bookkeeping resolved at the end. */
class TsState extends FileState {
  readonly moduleBindings = new Map<string, string>();
  readonly exportNames = new Set<string>();
  /** Class members and whether they are private; their export status follows their class. */
  readonly members = new Map<ExtractedSymbol, boolean>();
  /** Members of top-level object literals, by the variable holding the object (`api` for `api.get`). */
  readonly objectMembers = new Map<ExtractedSymbol, string>();
  /** require() calls already recorded with their destructured names. */
  readonly handledRequires = new Set<number>();
}

export function extractTypeScript(root: Node, source: string): FileState {
  const state = new TsState(source);
  const scope: Scope = { kind: "module", owner: null, parent: null, prefix: null, frame: null };
  visitChildren(root, scope, state);
  finishExports(state);
  state.resolveDeferredWrites((name, bare) => {
    const kind = state.moduleBindings.get(name);
    // Reassigning needs a let/var binding; writing through one (`cache[k] = v`) works on a const too.
    return kind === "let" || kind === "var" || (!bare && kind === "const");
  });
  return state;
}

function visitChildren(node: Node, scope: Scope, state: TsState): void {
  for (const child of node.namedChildren) visit(child, scope, state);
}

function visit(node: Node, scope: Scope, state: TsState): void {
  const type = node.type;
  if (LEAVES.has(type)) return;
  switch (type) {
    case "function_declaration":
    case "generator_function_declaration":
      declareFunction(node, scope, state, { outer: node, exported: false, decorators: [] });
      return;
    case "class_declaration":
    case "abstract_class_declaration":
      declareClass(node, null, scope, state, { outer: node, exported: false, decorators: [] });
      return;
    case "interface_declaration":
    case "type_alias_declaration":
    case "enum_declaration":
      declareType(node, scope, state, { outer: node, exported: false, decorators: [] });
      return;
    case "lexical_declaration":
    case "variable_declaration":
      declareVariables(node, scope, state, { outer: node, exported: false, decorators: [] });
      return;
    case "export_statement":
      onExport(node, scope, state);
      return;
    case "import_statement":
      onImport(node, state);
      return;
    case "internal_module":
    case "module":
      onNamespace(node, scope, state);
      return;
    case "call_expression":
      onCall(node, scope, state);
      break;
    case "new_expression":
      onNew(node, scope, state);
      break;
    case "throw_statement":
      onThrow(node, scope, state);
      break;
    case "assignment_expression":
      if (onAssignment(node, scope, state)) return;
      break;
    case "augmented_assignment_expression": {
      const left = node.childForFieldName("left");
      if (left) onWrite(left, scope, state);
      break;
    }
    case "update_expression": {
      const argument = node.childForFieldName("argument");
      if (argument) onWrite(argument, scope, state);
      break;
    }
    case "jsx_opening_element":
    case "jsx_self_closing_element":
      onJsx(node, scope, state);
      break;
    case "arrow_function":
    case "function_expression":
    case "function":
    case "generator_function":
    case "catch_clause":
      // Callback parameters shadow outer names for the rest of the enclosing function.
      if (scope.frame) bindParameters(node, scope.frame.locals, state);
      break;
    case "for_in_statement": {
      const left = node.childForFieldName("left");
      if (left && scope.frame) bindPattern(left, scope.frame.locals, state);
      break;
    }
  }
  visitChildren(node, scope, state);
}

function qualify(scope: Scope, name: string): string {
  return scope.prefix ? `${scope.prefix}.${name}` : name;
}

/** Range, docstring and decorators shared by every symbol kind. */
function placement(declared: Declared, state: TsState) {
  const trivia = leadingTrivia(declared.outer, state.source, { commentTypes: COMMENT_TYPES });
  return {
    startLine: trivia.startRow + 1,
    endLine: endLineOf(declared.outer),
    docstring: trivia.docstring,
  };
}

function decoratorsOf(node: Node, state: TsState): string[] {
  const out: string[] = [];
  for (const child of node.namedChildren) {
    if (child.type !== "decorator") continue;
    const expr = child.firstNamedChild;
    if (expr) out.push(signatureBetween(state.source, expr.startIndex, expr.endIndex));
  }
  return out;
}

/** Start of a declaration after its decorators, so signatures do not repeat them. */
function startAfterDecorators(node: Node): number {
  let start = node.startIndex;
  for (const child of node.namedChildren) {
    if (child.type === "decorator") start = child.endIndex;
    else if (child.type !== "comment") break;
  }
  return start;
}

function declareFunction(node: Node, scope: Scope, state: TsState, declared: Declared): void {
  const nameNode = node.childForFieldName("name");
  const body = node.childForFieldName("body");
  const name = nameNode ? state.text(nameNode) : "default";
  const signature = signatureBetween(state.source, node.startIndex, body?.startIndex ?? node.endIndex);
  if (nameNode && scope.frame) scope.frame.locals.add(name);
  enterFunction(node, scope, state, declared, { name, kind: "function", signature });
}

interface FunctionHead {
  name: string;
  kind: SymbolKind;
  signature: string;
  isPrivate?: boolean;
}

/** Creates the symbol for a function-like node and walks its body in a fresh frame. */
function enterFunction(fn: Node, scope: Scope, state: TsState, declared: Declared, head: FunctionHead): void {
  const qualifiedName = qualify(scope, head.name);
  const symbol = createSymbol({
    name: head.name,
    qualifiedName,
    kind: head.kind,
    ...placement(declared, state),
    signature: head.signature,
    parent: scope.parent,
    exported: declared.exported,
    decorators: declared.decorators,
  });
  state.symbols.push(symbol);
  if (scope.kind === "class") state.members.set(symbol, head.isPrivate ?? false);
  const frame: Frame = { symbol, locals: new Set(), writes: [] };
  bindParameters(fn, frame.locals, state);
  const inner: Scope = {
    kind: "function",
    owner: symbol,
    parent: qualifiedName,
    prefix: qualifiedName,
    frame,
  };
  const params = fn.childForFieldName("parameters") ?? fn.childForFieldName("parameter");
  if (params) visit(params, inner, state);
  const body = fn.childForFieldName("body");
  if (body) visit(body, inner, state);
  for (const write of frame.writes) {
    if (!frame.locals.has(write.name)) state.deferWrite(symbol, write.name, write.bare);
  }
}

function bindParameters(fn: Node, locals: Set<string>, state: TsState): void {
  const params = fn.childForFieldName("parameters") ?? fn.childForFieldName("parameter");
  if (params) bindPattern(params, locals, state);
}

/** Adds every name bound by a parameter list / destructuring pattern. */
function bindPattern(node: Node, names: Set<string>, state: TsState): void {
  const type = node.type;
  if (type === "identifier" || type === "shorthand_property_identifier_pattern") {
    names.add(state.text(node));
    return;
  }
  if (type === "type_annotation" || type === "comment" || type === "decorator") return;
  if (type === "pair_pattern") {
    const value = node.childForFieldName("value");
    if (value) bindPattern(value, names, state);
    return;
  }
  if (type === "assignment_pattern" || type === "object_assignment_pattern") {
    const left = node.childForFieldName("left");
    if (left) bindPattern(left, names, state);
    return;
  }
  for (let i = 0; i < node.namedChildCount; i++) {
    const child = node.namedChild(i);
    if (child && !PATTERN_SKIP_FIELDS.has(node.fieldNameForNamedChild(i) ?? ""))
      bindPattern(child, names, state);
  }
}

function declareClass(
  node: Node,
  name: string | null,
  scope: Scope,
  state: TsState,
  declared: Declared,
  binding = "",
): void {
  const nameNode = node.childForFieldName("name");
  const body = node.childForFieldName("body");
  const className = name ?? (nameNode ? state.text(nameNode) : "default");
  const qualifiedName = qualify(scope, className);
  const bases: string[] = [];
  for (const child of node.namedChildren) {
    if (child.type !== "class_heritage") continue;
    const clauses = child.namedChildren.some((c) => c.type.endsWith("_clause"))
      ? child.namedChildren
      : [child];
    for (const clause of clauses) bases.push(...heritageNames(clause, state));
  }
  const symbol = createSymbol({
    name: className,
    qualifiedName,
    kind: "class",
    ...placement(declared, state),
    signature: `${binding ? `${binding} ` : ""}${signatureBetween(state.source, startAfterDecorators(node), body?.startIndex ?? node.endIndex)}`,
    parent: scope.parent,
    exported: declared.exported,
    decorators: [...declared.decorators, ...decoratorsOf(node, state)],
    bases,
  });
  state.symbols.push(symbol);
  if (scope.kind === "class") state.members.set(symbol, false);
  if (scope.frame) scope.frame.locals.add(className);
  const inner: Scope = {
    kind: "class",
    owner: symbol,
    parent: qualifiedName,
    prefix: qualifiedName,
    frame: null,
  };
  for (const member of body?.namedChildren ?? []) visitMember(member, inner, state);
}

function heritageNames(clause: Node, state: TsState): string[] {
  const text = state.text(clause).replace(/^(extends|implements)\s+/, "");
  return splitTopLevel(text, ",").map((t) => t.replace(/\s+/g, " "));
}

function visitMember(member: Node, scope: Scope, state: TsState): void {
  switch (member.type) {
    case "method_definition":
    case "abstract_method_signature": {
      const nameNode = member.childForFieldName("name");
      const body = member.childForFieldName("body");
      const name = nameNode ? state.text(nameNode) : "<computed>";
      const start = startAfterDecorators(member);
      const end = body?.startIndex ?? member.endIndex;
      enterFunction(member, scope, state, declaredMember(member, state), {
        name,
        kind: "method",
        signature: signatureBetween(state.source, start, end, /;$/),
        isPrivate: isPrivateMember(member, name, state),
      });
      return;
    }
    case "public_field_definition":
    case "field_definition": {
      const nameNode = member.childForFieldName("name") ?? member.childForFieldName("property");
      const value = member.childForFieldName("value");
      if (nameNode && value && FUNCTION_VALUES.has(value.type)) {
        const name = state.text(nameNode);
        const body = value.childForFieldName("body");
        const start = startAfterDecorators(member);
        enterFunction(value, scope, state, declaredMember(member, state), {
          name,
          kind: "method",
          signature: signatureBetween(state.source, start, body?.startIndex ?? value.endIndex),
          isPrivate: isPrivateMember(member, name, state),
        });
        return;
      }
      if (value) visit(value, scope, state);
      return;
    }
    default:
      visit(member, scope, state);
  }
}

function declaredMember(member: Node, state: TsState): Declared {
  return { outer: member, exported: false, decorators: decoratorsOf(member, state) };
}

function isPrivateMember(member: Node, name: string, state: TsState): boolean {
  if (name.startsWith("#")) return true;
  for (const child of member.namedChildren) {
    if (child.type === "accessibility_modifier") return state.text(child) === "private";
  }
  return false;
}

function declareType(node: Node, scope: Scope, state: TsState, declared: Declared): void {
  const nameNode = node.childForFieldName("name");
  const body = node.childForFieldName("body");
  const name = nameNode ? state.text(nameNode) : "default";
  const kind: SymbolKind =
    node.type === "interface_declaration" ? "interface" : node.type === "enum_declaration" ? "enum" : "type";
  const bases: string[] = [];
  for (const child of node.namedChildren) {
    if (child.type === "extends_type_clause") bases.push(...heritageNames(child, state));
  }
  const signature =
    kind === "type"
      ? cap(signatureBetween(state.source, node.startIndex, node.endIndex, /;$/), SIGNATURE_MAX)
      : signatureBetween(state.source, node.startIndex, body?.startIndex ?? node.endIndex);
  state.symbols.push(
    createSymbol({
      name,
      qualifiedName: qualify(scope, name),
      kind,
      ...placement(declared, state),
      signature,
      parent: scope.parent,
      exported: declared.exported,
      bases,
    }),
  );
}

/** `const f = () => …` and friends become symbols; other bindings become module state or locals. */
function declareVariables(node: Node, scope: Scope, state: TsState, declared: Declared): void {
  const kindNode = node.childForFieldName("kind");
  const keyword = kindNode ? state.text(kindNode) : "var";
  for (const declarator of node.namedChildren) {
    if (declarator.type !== "variable_declarator") continue;
    const nameNode = declarator.childForFieldName("name");
    const value = declarator.childForFieldName("value");
    if (!nameNode) continue;
    if (nameNode.type === "identifier" && value && FUNCTION_VALUES.has(value.type)) {
      const name = state.text(nameNode);
      const body = value.childForFieldName("body");
      const head = signatureBetween(state.source, declarator.startIndex, body?.startIndex ?? value.endIndex);
      if (scope.frame) scope.frame.locals.add(name);
      else state.moduleBindings.set(name, "function");
      enterFunction(value, scope, state, declared, {
        name,
        kind: "function",
        signature: `${keyword} ${head}`,
      });
      continue;
    }
    if (nameNode.type === "identifier" && value?.type === "object") {
      const name = state.text(nameNode);
      if (scope.frame) scope.frame.locals.add(name);
      else if (scope.kind === "module") {
        state.moduleBindings.set(name, keyword);
        state.moduleState.add(name);
      }
      const before = state.symbols.length;
      declareObjectMembers(value, qualify(scope, name), scope, state, declared.exported);
      if (scope.kind === "module") {
        for (const member of state.symbols.slice(before)) {
          if (member.parent === null) state.objectMembers.set(member, name);
        }
      }
      continue;
    }
    if (
      nameNode.type === "identifier" &&
      value &&
      (value.type === "class" || CLASS_DECLARATIONS.has(value.type))
    ) {
      const binding = `${keyword} ${state.text(nameNode)} =`;
      declareClass(value, state.text(nameNode), scope, state, declared, binding);
      continue;
    }
    const names = new Set<string>();
    bindPattern(nameNode, names, state);
    const isRequire = value?.type === "call_expression" && recordRequire(value, nameNode, state);
    if (scope.frame) {
      for (const name of names) scope.frame.locals.add(name);
    } else if (scope.kind === "module" && !isRequire) {
      for (const name of names) {
        state.moduleBindings.set(name, keyword);
        state.moduleState.add(name);
      }
    }
    if (value) visit(value, scope, state);
  }
}

function onExport(node: Node, scope: Scope, state: TsState): void {
  const decorators: string[] = [];
  let clause: Node | null = null;
  let star = false;
  for (const child of node.children) {
    if (child.type === "decorator") {
      const expr = child.firstNamedChild;
      if (expr) decorators.push(signatureBetween(state.source, expr.startIndex, expr.endIndex));
    } else if (child.type === "export_clause") clause = child;
    else if (child.type === "*" || child.type === "namespace_export") star = true;
  }
  const declared: Declared = { outer: node, exported: true, decorators };
  const source = node.childForFieldName("source");
  if (source) {
    const names = star ? ["*"] : clause ? specifierBindings(clause, state).names : [];
    state.addImport(stringValue(source, state), names, lineOf(node));
    return;
  }
  if (clause) {
    for (const spec of clause.namedChildren) {
      const name = spec.childForFieldName("name");
      if (name) state.exportNames.add(state.text(name));
    }
    return;
  }
  const declaration = node.childForFieldName("declaration");
  if (declaration) {
    visitDeclaration(declaration, scope, state, declared);
    return;
  }
  const value = node.childForFieldName("value");
  if (value) exportValue(value, "default", scope, state, declared);
}

function visitDeclaration(node: Node, scope: Scope, state: TsState, declared: Declared): void {
  switch (node.type) {
    case "function_declaration":
    case "generator_function_declaration":
    case "function_signature":
      if (node.type !== "function_signature") declareFunction(node, scope, state, declared);
      return;
    case "class_declaration":
    case "abstract_class_declaration":
      declareClass(node, null, scope, state, declared);
      return;
    case "interface_declaration":
    case "type_alias_declaration":
    case "enum_declaration":
      declareType(node, scope, state, declared);
      return;
    case "lexical_declaration":
    case "variable_declaration":
      declareVariables(node, scope, state, declared);
      return;
    default:
      visit(node, scope, state);
  }
}

/** `export default <expr>` and `module.exports = <expr>`: functions and classes become symbols. */
function exportValue(
  value: Node,
  fallbackName: string,
  scope: Scope,
  state: TsState,
  declared: Declared,
  binding = "",
): void {
  if (value.type === "identifier") {
    state.exportNames.add(state.text(value));
    return;
  }
  if (FUNCTION_VALUES.has(value.type) || value.type === "function_declaration") {
    const nameNode = value.childForFieldName("name");
    const body = value.childForFieldName("body");
    const name = nameNode ? state.text(nameNode) : fallbackName;
    const head = signatureBetween(state.source, value.startIndex, body?.startIndex ?? value.endIndex);
    const signature = binding ? `${binding} = ${head}` : head;
    enterFunction(value, scope, state, declared, { name, kind: "function", signature });
    return;
  }
  if (value.type === "class" || CLASS_DECLARATIONS.has(value.type)) {
    const nameNode = value.childForFieldName("name");
    const className = nameNode ? state.text(nameNode) : fallbackName;
    declareClass(value, className, scope, state, declared, binding ? `${binding} =` : "");
    return;
  }
  if (value.type === "object") {
    for (const prop of value.namedChildren) {
      if (prop.type === "shorthand_property_identifier") state.exportNames.add(state.text(prop));
      else if (prop.type === "pair") {
        const inner = prop.childForFieldName("value");
        if (inner?.type === "identifier") state.exportNames.add(state.text(inner));
      }
    }
    // `module.exports = { get() {} }` exports its members under their own names.
    const prefix = binding === "module.exports" ? scope.prefix : qualify(scope, fallbackName);
    declareObjectMembers(value, prefix, scope, state, true);
    return;
  }
  visit(value, scope, state);
}

/**
 * Function-valued members of an object literal bound to a name (`const api = {
 * get() {} }`) become methods `api.get`; other members are walked in place.
 */
function declareObjectMembers(
  object: Node,
  prefix: string | null,
  scope: Scope,
  state: TsState,
  exported: boolean,
): void {
  const inner: Scope = { ...scope, prefix };
  for (const member of object.namedChildren) {
    const declared: Declared = { outer: member, exported, decorators: [] };
    if (member.type === "method_definition") {
      const nameNode = member.childForFieldName("name");
      const body = member.childForFieldName("body");
      const name = nameNode ? stringValue(nameNode, state) : "<computed>";
      const signature = signatureBetween(
        state.source,
        member.startIndex,
        body?.startIndex ?? member.endIndex,
      );
      enterFunction(member, inner, state, declared, { name, kind: "method", signature });
      continue;
    }
    const key = member.type === "pair" ? member.childForFieldName("key") : null;
    const value = member.type === "pair" ? member.childForFieldName("value") : null;
    if (key && value && FUNCTION_VALUES.has(value.type)) {
      const name = stringValue(key, state);
      const body = value.childForFieldName("body");
      const signature = signatureBetween(state.source, member.startIndex, body?.startIndex ?? value.endIndex);
      enterFunction(value, inner, state, declared, { name, kind: "method", signature });
      continue;
    }
    visit(member, scope, state);
  }
}

/** Names in `{ a, b as c }` (import or re-export), and [alias, name] for the renamed ones. */
function specifierBindings(
  clause: Node,
  state: TsState,
): { names: string[]; renamed: Array<[string, string]> } {
  const names: string[] = [];
  const renamed: Array<[string, string]> = [];
  for (const spec of clause.namedChildren) {
    const name = spec.childForFieldName("name");
    if (!name) continue;
    const alias = spec.childForFieldName("alias");
    names.push(stringValue(name, state));
    if (alias) renamed.push([state.text(alias), stringValue(name, state)]);
  }
  return { names, renamed };
}

function onNamespace(node: Node, scope: Scope, state: TsState): void {
  const nameNode = node.childForFieldName("name");
  const body = node.childForFieldName("body");
  if (!body) return;
  const name = nameNode && nameNode.type !== "string" ? state.text(nameNode) : null;
  const inner: Scope = name ? { ...scope, kind: "namespace", prefix: qualify(scope, name) } : scope;
  visitChildren(body, inner, state);
}

/**
 * `import d, { a as b } from "m"` → names [default, a], aliases { d: default, b: a };
 * `import * as ns` and `import ns = require("m")` bind the whole module to `ns`.
 */
function onImport(node: Node, state: TsState): void {
  const source = node.childForFieldName("source");
  const names: string[] = [];
  const renamed: Array<[string, string]> = [];
  let local: string | null = null;
  let specifier = source ? stringValue(source, state) : "";
  for (const child of node.namedChildren) {
    if (child.type === "import_require_clause") {
      const inner = child.childForFieldName("source");
      if (inner) specifier = stringValue(inner, state);
      const binding = child.namedChildren.find((c) => c.type === "identifier");
      if (binding) local = state.text(binding);
    }
    if (child.type !== "import_clause") continue;
    for (const part of child.namedChildren) {
      if (part.type === "identifier") {
        // A default import is the module's `default` export under a name the importer picks.
        names.push("default");
        renamed.push([state.text(part), "default"]);
      } else if (part.type === "namespace_import") {
        names.push("*");
        const binding = part.namedChildren.find((c) => c.type === "identifier");
        if (binding) local = state.text(binding);
      } else if (part.type === "named_imports") {
        const bindings = specifierBindings(part, state);
        names.push(...bindings.names);
        renamed.push(...bindings.renamed);
      }
    }
  }
  state.addImport(specifier, names, lineOf(node), { local, renamed });
}

/** `const { a, b } = require("x")` keeps the destructured names; returns whether it was a require. */
function recordRequire(call: Node, pattern: Node, state: TsState): boolean {
  const fn = call.childForFieldName("function");
  const args = call.childForFieldName("arguments");
  const first = args?.firstNamedChild;
  if (!fn || !first || state.text(fn) !== "require" || first.type !== "string") return false;
  const names = new Set<string>();
  const renamed: Array<[string, string]> = [];
  if (pattern.type === "object_pattern") {
    for (const prop of pattern.namedChildren) {
      if (prop.type === "shorthand_property_identifier_pattern") names.add(state.text(prop));
      else if (prop.type === "pair_pattern") {
        const key = prop.childForFieldName("key");
        const value = prop.childForFieldName("value");
        if (!key) continue;
        names.add(state.text(key));
        // `{ resolve: resolvePath }` binds `resolvePath`; nested patterns bind no single name.
        if (value?.type === "identifier") renamed.push([state.text(value), state.text(key)]);
      }
    }
  }
  const local = pattern.type === "identifier" ? state.text(pattern) : null;
  state.addImport(stringValue(first, state), [...names], lineOf(call), { local, renamed });
  state.handledRequires.add(call.id);
  return true;
}

function stringValue(node: Node, state: TsState): string {
  const text = state.text(node);
  return /^["'`]/.test(text) ? text.slice(1, -1) : text;
}

function renderCallee(node: Node, state: TsState): string {
  switch (node.type) {
    case "identifier":
    case "this":
    case "super":
    case "property_identifier":
    case "private_property_identifier":
      return state.text(node);
    case "member_expression": {
      const object = node.childForFieldName("object");
      const property = node.childForFieldName("property");
      return `${object ? renderCallee(object, state) : ""}.${property ? state.text(property) : ""}`;
    }
    case "call_expression": {
      const fn = node.childForFieldName("function");
      return `${fn ? renderCallee(fn, state) : ""}()`;
    }
    case "subscript_expression": {
      const object = node.childForFieldName("object");
      return `${object ? renderCallee(object, state) : ""}[…]`;
    }
    case "non_null_expression": {
      const inner = node.firstNamedChild;
      return inner ? renderCallee(inner, state) : "";
    }
    case "new_expression": {
      const ctor = node.childForFieldName("constructor");
      return `new ${ctor ? renderCallee(ctor, state) : ""}()`;
    }
    default:
      return shortText(state.text(node));
  }
}

function describeCallee(
  fn: Node,
  state: TsState,
): { raw: string; name: string; receiver: string | null; line: number } {
  const text = state.text(fn);
  if (isSimpleCallee(text)) return { raw: text, ...splitSimpleCallee(text), line: lineOf(fn) };
  if (fn.type === "member_expression") {
    const object = fn.childForFieldName("object");
    const property = fn.childForFieldName("property");
    const receiver = object ? renderCallee(object, state) : null;
    const name = property ? state.text(property) : "";
    return { raw: `${receiver ?? ""}.${name}`, name, receiver, line: lineOf(property ?? fn) };
  }
  const raw = renderCallee(fn, state);
  return { raw, name: lastIdentifier(raw), receiver: null, line: lineOf(fn) };
}

function onCall(node: Node, scope: Scope, state: TsState): void {
  const fn = node.childForFieldName("function");
  if (!fn) return;
  const args = node.childForFieldName("arguments");
  if (fn.type === "import" || (fn.type === "identifier" && state.text(fn) === "require")) {
    const first = args?.firstNamedChild;
    if (
      first &&
      (first.type === "string" || first.type === "template_string") &&
      !state.handledRequires.has(node.id)
    ) {
      state.addImport(stringValue(first, state), [], lineOf(node));
    }
    return;
  }
  const owner = scope.owner;
  if (!owner) return;
  const { raw, name, receiver, line } = describeCallee(fn, state);
  owner.calls.push(makeCall(raw, name, receiver, line));
  if (LOG_METHODS.has(name) && receiver && LOG_RECEIVER.test(lastIdentifier(receiver))) {
    addErrorString(
      owner,
      firstLiteral(args?.namedChildren, (n) => messageOf(n, state)),
    );
  }
}

function onNew(node: Node, scope: Scope, state: TsState): void {
  const owner = scope.owner;
  const ctor = node.childForFieldName("constructor");
  if (!owner || !ctor) return;
  const { raw, name, receiver, line } = describeCallee(ctor, state);
  owner.calls.push(makeCall(`new ${raw}`, name, receiver, line));
}

function onThrow(node: Node, scope: Scope, state: TsState): void {
  const owner = scope.owner;
  const thrown = node.firstNamedChild;
  if (!owner || !thrown) return;
  let callee: Node | null = null;
  if (thrown.type === "new_expression") callee = thrown.childForFieldName("constructor");
  else if (thrown.type === "call_expression") callee = thrown.childForFieldName("function");
  if (!callee) return;
  const name = lastIdentifier(state.text(callee));
  // `throw err` / `throw makeError()` name no type; constructors are capitalised by convention.
  if (/^[A-Z]/.test(name)) pushUnique(owner.raises, name);
  const args = thrown.childForFieldName("arguments")?.namedChildren;
  addErrorString(
    owner,
    firstLiteral(args, (n) => messageOf(n, state)),
  );
}

/** Returns true when the assignment was fully handled (CommonJS export of a function). */
function onAssignment(node: Node, scope: Scope, state: TsState): boolean {
  const left = node.childForFieldName("left");
  const right = node.childForFieldName("right");
  if (!left || !right) return false;
  const leftText = state.text(left);
  if (scope.kind === "module" || scope.kind === "namespace") {
    const declared: Declared = { outer: node.parent ?? node, exported: true, decorators: [] };
    if (leftText === "module.exports") {
      exportValue(right, "default", scope, state, declared, leftText);
      return true;
    }
    const named = /^(?:module\.)?exports\.([\w$]+)$/.exec(leftText);
    if (named?.[1]) {
      exportValue(right, named[1], scope, state, declared, leftText);
      return true;
    }
  }
  onWrite(left, scope, state);
  return false;
}

/** Records a write: `this.x…` on the owner right away, bare/deep names once module bindings are known. */
function onWrite(target: Node, scope: Scope, state: TsState): void {
  const frame = scope.frame;
  if (!frame) return;
  if (target.type === "identifier") {
    frame.writes.push({ name: state.text(target), bare: true });
    return;
  }
  const parsed = parseWriteTarget(state.text(target));
  if (!parsed) return;
  if (parsed.root === "this") {
    if (parsed.member) pushUnique(frame.symbol.mutates, `this.${parsed.member}`);
  } else if (parsed.root !== "module" && parsed.root !== "exports") {
    frame.writes.push({ name: parsed.root, bare: parsed.bare });
  }
}

function onJsx(node: Node, scope: Scope, state: TsState): void {
  const owner = scope.owner;
  const nameNode = node.childForFieldName("name");
  if (!owner || !nameNode) return;
  const text = state.text(nameNode);
  // Lower-case tags are intrinsic elements; only components are calls into user code.
  if (!/^[A-Z]/.test(text) && !text.includes(".")) return;
  const { name, receiver } = splitSimpleCallee(text);
  owner.calls.push(makeCall(`<${text}>`, name, receiver, lineOf(node)));
}

/** Literal text of a message: strings, template literals (`{…}` placeholders) and `+` concatenation. */
function messageOf(node: Node, state: TsState): string | null {
  switch (node.type) {
    case "string": {
      let out = "";
      for (const part of node.namedChildren) out += state.text(part);
      return out;
    }
    case "template_string": {
      let out = "";
      for (const part of node.namedChildren) {
        out += part.type === "template_substitution" ? "{…}" : state.text(part);
      }
      return out;
    }
    case "binary_expression": {
      const operator = node.childForFieldName("operator");
      if (!operator || state.text(operator) !== "+") return null;
      const left = node.childForFieldName("left");
      const right = node.childForFieldName("right");
      const leftText = left ? messageOf(left, state) : null;
      const rightText = right ? messageOf(right, state) : null;
      if (leftText === null && rightText === null) return null;
      return `${leftText ?? "{…}"}${rightText ?? "{…}"}`;
    }
    case "parenthesized_expression": {
      const inner = node.firstNamedChild;
      return inner ? messageOf(inner, state) : null;
    }
    default:
      return null;
  }
}

/** Applies export lists and CommonJS exports, then lets class and object members follow their holder. */
function finishExports(state: TsState): void {
  const byName = new Map<string, ExtractedSymbol>();
  for (const symbol of state.symbols) {
    if (
      symbol.parent === null &&
      symbol.qualifiedName === symbol.name &&
      state.exportNames.has(symbol.name)
    ) {
      symbol.exported = true;
    }
    const holder = state.objectMembers.get(symbol);
    if (holder !== undefined && state.exportNames.has(holder)) symbol.exported = true;
    byName.set(symbol.qualifiedName, symbol);
    const isPrivate = state.members.get(symbol);
    if (isPrivate !== undefined) {
      const parent = symbol.parent ? byName.get(symbol.parent) : undefined;
      symbol.exported = (parent?.exported ?? false) && !isPrivate;
    }
  }
}
