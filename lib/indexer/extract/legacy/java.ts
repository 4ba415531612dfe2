/**
 * Java extraction: classes, interfaces, enums, records and annotation types (nested
 * ones qualified `Outer.Inner`), methods and constructors. Field writes are
 * reported as `this.x` whether written `this.x = …` or as a bare field name, which
 * needs the class's field list, so they are resolved when the class ends.
 */
import type { Node } from "web-tree-sitter";
import type { ExtractedSymbol, SymbolKind } from "../../types";
import {
  addErrorString,
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
  signatureBetween,
  splitSimpleCallee,
  splitTopLevel,
} from "./common";

const LEAVES = new Set([
  "identifier",
  "type_identifier",
  "scoped_type_identifier",
  "generic_type",
  "integral_type",
  "floating_point_type",
  "boolean_type",
  "void_type",
  "array_type",
  "string_literal",
  "character_literal",
  "decimal_integer_literal",
  "hex_integer_literal",
  "octal_integer_literal",
  "binary_integer_literal",
  "decimal_floating_point_literal",
  "hex_floating_point_literal",
  "true",
  "false",
  "null_literal",
  "this",
  "super",
  "line_comment",
  "block_comment",
  "modifiers",
  "type_arguments",
  "type_parameters",
  "dimensions",
  "package_declaration",
  "marker_annotation",
  "annotation",
]);

const TYPE_KINDS: Record<string, SymbolKind> = {
  class_declaration: "class",
  record_declaration: "class",
  interface_declaration: "interface",
  annotation_type_declaration: "interface",
  enum_declaration: "enum",
};

const COMMENT_TYPES = new Set(["line_comment", "block_comment"]);
const LOG_METHODS = new Set(["error", "warn", "warning", "severe", "fatal"]);
const LOG_RECEIVER = /^_*(log|logger|LOG|LOGGER|Log|Logger)$/;

/** Fields of one class and the bare-name writes waiting to be checked against them. */
interface ClassFrame {
  fields: Set<string>;
  writes: Array<{ symbol: ExtractedSymbol; name: string }>;
}

interface Frame {
  symbol: ExtractedSymbol;
  locals: Set<string>;
  writes: string[];
}

interface Scope {
  kind: "file" | "class" | "method";
  owner: ExtractedSymbol | null;
  parent: string | null;
  public: boolean;
  cls: ClassFrame | null;
  frame: Frame | null;
}

export function extractJava(root: Node, source: string): FileState {
  const state = new FileState(source);
  const scope: Scope = { kind: "file", owner: null, parent: null, public: true, cls: null, frame: null };
  visitChildren(root, scope, state);
  return state;
}

function visitChildren(node: Node, scope: Scope, state: FileState): void {
  for (const child of node.namedChildren) visit(child, scope, state);
}

function visit(node: Node, scope: Scope, state: FileState): void {
  const type = node.type;
  if (LEAVES.has(type)) return;
  switch (type) {
    case "class_declaration":
    case "record_declaration":
    case "interface_declaration":
    case "annotation_type_declaration":
    case "enum_declaration":
      declareType(node, scope, state);
      return;
    case "method_declaration":
    case "constructor_declaration":
    case "compact_constructor_declaration":
      // Methods of anonymous classes are not symbols; their bodies count for the enclosing method.
      if (scope.kind === "class") {
        declareMethod(node, scope, state);
        return;
      }
      break;
    case "field_declaration":
      if (scope.cls) for (const name of declaratorNames(node, state)) scope.cls.fields.add(name);
      break;
    case "local_variable_declaration":
      if (scope.frame) for (const name of declaratorNames(node, state)) scope.frame.locals.add(name);
      break;
    case "formal_parameter":
    case "catch_formal_parameter":
    case "enhanced_for_statement":
    case "resource": {
      const name = node.childForFieldName("name");
      if (name && scope.frame) scope.frame.locals.add(state.text(name));
      break;
    }
    case "lambda_expression": {
      const params = node.childForFieldName("parameters");
      if (params && scope.frame) bindLambdaParams(params, scope.frame, state);
      break;
    }
    case "method_invocation":
      onInvocation(node, scope, state);
      break;
    case "object_creation_expression":
      onNew(node, scope, state);
      break;
    case "explicit_constructor_invocation":
      onConstructorCall(node, scope, state);
      break;
    case "throw_statement":
      onThrow(node, scope, state);
      break;
    case "assignment_expression": {
      const left = node.childForFieldName("left");
      if (left) onWrite(left, scope, state);
      break;
    }
    case "update_expression": {
      const target = node.firstNamedChild;
      if (target) onWrite(target, scope, state);
      break;
    }
    case "import_declaration":
      onImport(node, state);
      return;
  }
  visitChildren(node, scope, state);
}

function declaratorNames(node: Node, state: FileState): string[] {
  const names: string[] = [];
  for (const declarator of node.childrenForFieldName("declarator")) {
    const name = declarator.childForFieldName("name");
    if (name) names.push(state.text(name));
  }
  return names;
}

function bindLambdaParams(params: Node, frame: Frame, state: FileState): void {
  if (params.type === "identifier") {
    frame.locals.add(state.text(params));
    return;
  }
  for (const param of params.namedChildren) {
    const name = param.type === "identifier" ? param : param.childForFieldName("name");
    if (name) frame.locals.add(state.text(name));
  }
}

function qualify(scope: Scope, name: string): string {
  return scope.parent ? `${scope.parent}.${name}` : name;
}

/** Annotations (as decorators), the signature start after them, and privacy. */
function readModifiers(node: Node, state: FileState) {
  const decorators: string[] = [];
  let signatureStart = node.startIndex;
  let isPrivate = false;
  const modifiers = node.namedChildren.find((c) => c.type === "modifiers");
  if (modifiers) {
    for (const child of modifiers.namedChildren) {
      if (child.type === "marker_annotation" || child.type === "annotation") {
        decorators.push(signatureBetween(state.source, child.startIndex + 1, child.endIndex));
        signatureStart = child.endIndex;
      }
    }
    isPrivate = /\bprivate\b/.test(state.source.slice(signatureStart, modifiers.endIndex));
  }
  return { decorators, signatureStart, isPrivate };
}

function placement(node: Node, state: FileState) {
  const trivia = leadingTrivia(node, state.source, { commentTypes: COMMENT_TYPES });
  return { startLine: trivia.startRow + 1, endLine: endLineOf(node), docstring: trivia.docstring };
}

function declareType(node: Node, scope: Scope, state: FileState): void {
  const nameNode = node.childForFieldName("name");
  const body = node.childForFieldName("body");
  const name = nameNode ? state.text(nameNode) : "<anonymous>";
  const qualifiedName = qualify(scope, name);
  const { decorators, signatureStart, isPrivate } = readModifiers(node, state);
  const exported = scope.public && scope.kind !== "method" && !isPrivate;
  const symbol = createSymbol({
    name,
    qualifiedName,
    kind: TYPE_KINDS[node.type] ?? "class",
    ...placement(node, state),
    signature: signatureBetween(state.source, signatureStart, body?.startIndex ?? node.endIndex),
    parent: scope.parent,
    exported,
    decorators,
    bases: basesOf(node, state),
  });
  state.symbols.push(symbol);
  const cls: ClassFrame = { fields: new Set(), writes: [] };
  const inner: Scope = {
    kind: "class",
    owner: symbol,
    parent: qualifiedName,
    public: exported,
    cls,
    frame: null,
  };
  if (node.type === "record_declaration") {
    const params = node.childForFieldName("parameters");
    for (const param of params?.namedChildren ?? []) {
      const paramName = param.childForFieldName("name");
      if (paramName) cls.fields.add(state.text(paramName));
    }
  }
  if (body) visitChildren(body, inner, state);
  for (const write of cls.writes) {
    if (cls.fields.has(write.name)) pushUnique(write.symbol.mutates, `this.${write.name}`);
  }
}

function basesOf(node: Node, state: FileState): string[] {
  const bases: string[] = [];
  for (const child of node.namedChildren) {
    if (
      child.type === "superclass" ||
      child.type === "super_interfaces" ||
      child.type === "extends_interfaces"
    ) {
      const text = state.text(child).replace(/^(extends|implements)\s+/, "");
      bases.push(...splitTopLevel(text, ",").map((t) => t.replace(/\s+/g, " ")));
    }
  }
  return bases;
}

function declareMethod(node: Node, scope: Scope, state: FileState): void {
  const nameNode = node.childForFieldName("name");
  const body = node.childForFieldName("body");
  const name = nameNode ? state.text(nameNode) : "<anonymous>";
  const qualifiedName = qualify(scope, name);
  const { decorators, signatureStart, isPrivate } = readModifiers(node, state);
  const symbol = createSymbol({
    name,
    qualifiedName,
    kind: "method",
    ...placement(node, state),
    signature: signatureBetween(state.source, signatureStart, body?.startIndex ?? node.endIndex, /;$/),
    parent: scope.parent,
    exported: scope.public && !isPrivate,
    decorators,
  });
  state.symbols.push(symbol);
  for (const child of node.namedChildren) {
    if (child.type !== "throws") continue;
    for (const thrown of child.namedChildren)
      pushUnique(symbol.raises, lastIdentifier(stripGenerics(state.text(thrown))));
  }
  const frame: Frame = { symbol, locals: new Set(), writes: [] };
  const inner: Scope = {
    kind: "method",
    owner: symbol,
    parent: qualifiedName,
    public: false,
    cls: scope.cls,
    frame,
  };
  const params = node.childForFieldName("parameters");
  if (params) visit(params, inner, state);
  if (body) visit(body, inner, state);
  for (const name of frame.writes) {
    if (!frame.locals.has(name)) scope.cls?.writes.push({ symbol, name });
  }
}

function stripGenerics(text: string): string {
  return text.replace(/<.*$/s, "").trim();
}

function renderCallee(node: Node, state: FileState): string {
  switch (node.type) {
    case "identifier":
    case "this":
    case "super":
    case "type_identifier":
    case "scoped_identifier":
      return state.text(node);
    case "field_access": {
      const object = node.childForFieldName("object");
      const field = node.childForFieldName("field");
      return `${object ? renderCallee(object, state) : ""}.${field ? state.text(field) : ""}`;
    }
    case "method_invocation": {
      const object = node.childForFieldName("object");
      const name = node.childForFieldName("name");
      const prefix = object ? `${renderCallee(object, state)}.` : "";
      return `${prefix}${name ? state.text(name) : ""}()`;
    }
    case "object_creation_expression": {
      const type = node.childForFieldName("type");
      return `new ${type ? stripGenerics(state.text(type)) : ""}()`;
    }
    case "array_access": {
      const array = node.childForFieldName("array");
      return `${array ? renderCallee(array, state) : ""}[…]`;
    }
    default:
      return shortText(state.text(node));
  }
}

function onInvocation(node: Node, scope: Scope, state: FileState): void {
  const owner = scope.owner;
  const nameNode = node.childForFieldName("name");
  if (!owner || !nameNode) return;
  const object = node.childForFieldName("object");
  const name = state.text(nameNode);
  let receiver: string | null = null;
  if (object) {
    const text = state.text(object);
    receiver = isSimpleCallee(text) ? text : renderCallee(object, state);
  }
  owner.calls.push(makeCall(receiver ? `${receiver}.${name}` : name, name, receiver, lineOf(nameNode)));
  if (LOG_METHODS.has(name) && receiver && LOG_RECEIVER.test(lastIdentifier(receiver))) {
    addErrorString(
      owner,
      firstLiteral(node.childForFieldName("arguments")?.namedChildren, (n) => messageOf(n, state)),
    );
  }
}

function onNew(node: Node, scope: Scope, state: FileState): void {
  const owner = scope.owner;
  const type = node.childForFieldName("type");
  if (!owner || !type) return;
  const text = stripGenerics(state.text(type));
  const { name, receiver } = splitSimpleCallee(text);
  owner.calls.push(makeCall(`new ${text}`, name, receiver, lineOf(node)));
}

function onConstructorCall(node: Node, scope: Scope, state: FileState): void {
  const owner = scope.owner;
  const ctor = node.childForFieldName("constructor");
  if (!owner || !ctor) return;
  const name = state.text(ctor);
  owner.calls.push(makeCall(name, name, null, lineOf(node)));
}

function onThrow(node: Node, scope: Scope, state: FileState): void {
  const owner = scope.owner;
  const thrown = node.firstNamedChild;
  if (!owner || thrown?.type !== "object_creation_expression") return;
  const type = thrown.childForFieldName("type");
  if (type) pushUnique(owner.raises, lastIdentifier(stripGenerics(state.text(type))));
  addErrorString(
    owner,
    firstLiteral(thrown.childForFieldName("arguments")?.namedChildren, (n) => messageOf(n, state)),
  );
}

/** `this.x…` is recorded at once; a bare root name waits for the class's field list. */
function onWrite(target: Node, scope: Scope, state: FileState): void {
  const frame = scope.frame;
  if (!frame) return;
  const parsed = parseWriteTarget(state.text(target));
  if (!parsed) return;
  if (parsed.root === "this") {
    if (parsed.member) pushUnique(frame.symbol.mutates, `this.${parsed.member}`);
  } else {
    frame.writes.push(parsed.root);
  }
}

function onImport(node: Node, state: FileState): void {
  let path = "";
  let wildcard = false;
  for (const child of node.namedChildren) {
    if (child.type === "scoped_identifier" || child.type === "identifier") path = state.text(child);
    else if (child.type === "asterisk") wildcard = true;
  }
  const names = wildcard ? ["*"] : [lastIdentifier(path)];
  state.addImport(path, names, lineOf(node));
}

/** Literal text of a message: string literals, `+` concatenation and `String.format`. */
function messageOf(node: Node, state: FileState): string | null {
  switch (node.type) {
    case "string_literal": {
      let out = "";
      for (const part of node.namedChildren) {
        if (part.type === "string_interpolation") out += "{…}";
        else out += state.text(part);
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
    case "method_invocation": {
      const name = node.childForFieldName("name");
      if (!name || (state.text(name) !== "format" && state.text(name) !== "formatted")) return null;
      const object = node.childForFieldName("object");
      if (object?.type === "string_literal") return messageOf(object, state);
      return firstLiteral(node.childForFieldName("arguments")?.namedChildren, (n) => messageOf(n, state));
    }
    case "parenthesized_expression": {
      const inner = node.firstNamedChild;
      return inner ? messageOf(inner, state) : null;
    }
    default:
      return null;
  }
}
