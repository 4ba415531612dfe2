/**
 * Go extraction: functions, methods (qualified by receiver type, `*` stripped),
 * struct/interface/named types, package vars and imports. Error messages come from
 * `errors.New`, `fmt.Errorf`, `log.Fatal*`/`log.Panic*`, logger error calls and
 * `panic("...")`; package aliases from the imports are resolved first.
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
} from "./common";

const LEAVES = new Set([
  "identifier",
  "field_identifier",
  "package_identifier",
  "type_identifier",
  "qualified_type",
  "pointer_type",
  "slice_type",
  "map_type",
  "array_type",
  "channel_type",
  "function_type",
  "interface_type",
  "struct_type",
  "generic_type",
  "type_arguments",
  "interpreted_string_literal",
  "raw_string_literal",
  "rune_literal",
  "int_literal",
  "float_literal",
  "imaginary_literal",
  "true",
  "false",
  "nil",
  "iota",
  "comment",
  "const_declaration",
  "type_declaration",
  "label_name",
  "break_statement",
  "continue_statement",
  "goto_statement",
  "fallthrough_statement",
  "empty_statement",
]);

const COMMENT_TYPES = new Set(["comment"]);
const LOG_METHOD = /^(Error|Warn|Warning|Fatal|Panic|DPanic)(f|ln|w|Context)?$/;
const LOG_RECEIVER = /^_*(log|logger|slog|zap|sugar|Log|Logger)$/;

interface Frame {
  symbol: ExtractedSymbol;
  locals: Set<string>;
  receiver: string | null;
  writes: string[];
}

interface GoState {
  file: FileState;
  /** Local name → import path, so `f.Errorf` is recognised when fmt is imported as f. */
  packages: Map<string, string>;
  packageVars: Set<string>;
}

export function extractGo(root: Node, source: string): FileState {
  const file = new FileState(source);
  const state: GoState = { file, packages: new Map(), packageVars: new Set() };
  const children = root.namedChildren;
  // Imports and package vars first: bodies need both, and they may follow the functions.
  for (const child of children) {
    if (child.type === "import_declaration") onImport(child, state);
    else if (child.type === "var_declaration") collectPackageVars(child, state);
  }
  for (const child of children) topLevel(child, state);
  file.resolveDeferredWrites((name) => state.packageVars.has(name));
  return file;
}

function topLevel(node: Node, state: GoState): void {
  switch (node.type) {
    case "function_declaration":
    case "method_declaration":
      declareFunction(node, state);
      return;
    case "type_declaration":
      for (const spec of node.namedChildren) {
        if (spec.type === "type_spec" || spec.type === "type_alias") declareType(spec, node, state);
      }
      return;
    case "ERROR":
      for (const child of node.namedChildren) topLevel(child, state);
      return;
  }
}

function collectPackageVars(node: Node, state: GoState): void {
  for (const spec of specsOf(node, "var_spec")) {
    for (const name of spec.childrenForFieldName("name")) {
      const text = state.file.text(name);
      if (text === "_") continue;
      state.packageVars.add(text);
      state.file.moduleState.add(text);
    }
  }
}

function specsOf(node: Node, specType: string): Node[] {
  const specs: Node[] = [];
  for (const child of node.namedChildren) {
    if (child.type === specType) specs.push(child);
    else if (child.type.endsWith("_spec_list"))
      specs.push(...child.namedChildren.filter((c) => c.type === specType));
  }
  return specs;
}

function onImport(node: Node, state: GoState): void {
  for (const spec of specsOf(node, "import_spec")) {
    const pathNode = spec.childForFieldName("path");
    const aliasNode = spec.childForFieldName("name");
    if (!pathNode) continue;
    const path = state.file.text(pathNode).slice(1, -1);
    const alias = aliasNode ? state.file.text(aliasNode) : null;
    // `import f "fmt"` binds the package to `f`; `.` merges it into this file's scope, `_` binds nothing.
    state.file.addImport(path, alias === "." ? ["*"] : [], lineOf(spec), {
      local: alias === "." ? null : alias,
    });
    const local = alias ?? path.split("/").pop() ?? path;
    if (local !== "_" && local !== ".") state.packages.set(local, path);
  }
}

/** Receiver variable and type name of a method: `(s *Server)` → s, Server; `(st *Stack[T])` → st, Stack. */
function receiverOf(node: Node, file: FileState): { name: string | null; type: string } {
  const receiver = node.childForFieldName("receiver");
  const param = receiver?.namedChildren.find((c) => c.type === "parameter_declaration");
  const nameNode = param?.childForFieldName("name");
  const typeNode = param?.childForFieldName("type");
  const typeText = typeNode ? file.text(typeNode) : "";
  const type = typeText
    .replace(/^[\s*(]+/, "")
    .replace(/[[)].*$/s, "")
    .trim();
  return { name: nameNode ? file.text(nameNode) : null, type };
}

function declareFunction(node: Node, state: GoState): void {
  const file = state.file;
  const nameNode = node.childForFieldName("name");
  const body = node.childForFieldName("body");
  const name = nameNode ? file.text(nameNode) : "<anonymous>";
  const isMethod = node.type === "method_declaration";
  const receiver = isMethod ? receiverOf(node, file) : null;
  const parent = receiver?.type || null;
  const trivia = leadingTrivia(node, file.source, { commentTypes: COMMENT_TYPES });
  const symbol = createSymbol({
    name,
    qualifiedName: parent ? `${parent}.${name}` : name,
    kind: isMethod ? "method" : "function",
    startLine: trivia.startRow + 1,
    endLine: endLineOf(node),
    signature: signatureBetween(file.source, node.startIndex, body?.startIndex ?? node.endIndex),
    docstring: trivia.docstring,
    parent,
    exported: /^[A-Z]/.test(name),
  });
  file.symbols.push(symbol);
  const frame: Frame = { symbol, locals: new Set(), receiver: receiver?.name ?? null, writes: [] };
  for (const field of ["parameters", "result"]) {
    const params = node.childForFieldName(field);
    if (params) bindParams(params, frame, file);
  }
  if (body) visit(body, frame, state);
  for (const name of frame.writes) {
    if (!frame.locals.has(name)) file.deferWrite(symbol, name, false);
  }
}

function bindParams(params: Node, frame: Frame, file: FileState): void {
  for (const param of params.namedChildren) {
    for (const name of param.childrenForFieldName("name")) frame.locals.add(file.text(name));
  }
}

function declareType(spec: Node, declaration: Node, state: GoState): void {
  const file = state.file;
  const nameNode = spec.childForFieldName("name");
  const typeNode = spec.childForFieldName("type");
  const name = nameNode ? file.text(nameNode) : "<anonymous>";
  // A lone `type X …` owns the declaration's comments; specs of a `type (…)` group own their own.
  const outer = spec.startPosition.row === declaration.startPosition.row ? declaration : spec;
  const trivia = leadingTrivia(outer, file.source, { commentTypes: COMMENT_TYPES });
  let kind: SymbolKind = "type";
  let signature = `type ${cap(signatureBetween(file.source, spec.startIndex, spec.endIndex), SIGNATURE_MAX)}`;
  const bases: string[] = [];
  if (
    typeNode &&
    spec.type === "type_spec" &&
    (typeNode.type === "struct_type" || typeNode.type === "interface_type")
  ) {
    const isStruct = typeNode.type === "struct_type";
    kind = isStruct ? "struct" : "interface";
    signature = `type ${signatureBetween(file.source, spec.startIndex, typeNode.startIndex)} ${isStruct ? "struct" : "interface"}`;
    bases.push(...(isStruct ? embeddedFields(typeNode, file) : embeddedInterfaces(typeNode, file)));
  }
  file.symbols.push(
    createSymbol({
      name,
      qualifiedName: name,
      kind,
      startLine: trivia.startRow + 1,
      endLine: endLineOf(outer === declaration ? declaration : spec),
      signature,
      docstring: trivia.docstring,
      parent: null,
      exported: /^[A-Z]/.test(name),
      bases,
    }),
  );
}

function embeddedFields(struct: Node, file: FileState): string[] {
  const list = struct.namedChildren.find((c) => c.type === "field_declaration_list");
  const out: string[] = [];
  for (const field of list?.namedChildren ?? []) {
    if (field.type !== "field_declaration" || field.childForFieldName("name")) continue;
    const type = field.childForFieldName("type");
    if (type) out.push(file.text(type));
  }
  return out;
}

function embeddedInterfaces(iface: Node, file: FileState): string[] {
  const out: string[] = [];
  for (const child of iface.namedChildren) {
    if (child.type === "type_elem") out.push(signatureBetween(file.source, child.startIndex, child.endIndex));
  }
  return out;
}

function visit(node: Node, frame: Frame, state: GoState): void {
  const type = node.type;
  if (LEAVES.has(type)) return;
  switch (type) {
    case "call_expression":
      onCall(node, frame, state);
      break;
    case "func_literal": {
      const params = node.childForFieldName("parameters");
      if (params) bindParams(params, frame, state.file);
      break;
    }
    case "short_var_declaration":
    case "range_clause": {
      const left = node.childForFieldName("left");
      for (const name of left?.namedChildren ?? []) {
        if (name.type === "identifier") frame.locals.add(state.file.text(name));
      }
      break;
    }
    case "var_declaration":
      for (const spec of specsOf(node, "var_spec")) {
        for (const name of spec.childrenForFieldName("name")) frame.locals.add(state.file.text(name));
      }
      break;
    case "assignment_statement": {
      const left = node.childForFieldName("left");
      for (const target of left?.namedChildren ?? []) onWrite(target, frame, state);
      break;
    }
    case "inc_statement":
    case "dec_statement": {
      const target = node.firstNamedChild;
      if (target) onWrite(target, frame, state);
      break;
    }
  }
  for (const child of node.namedChildren) visit(child, frame, state);
}

function renderCallee(node: Node, file: FileState): string {
  switch (node.type) {
    case "identifier":
    case "field_identifier":
    case "package_identifier":
      return file.text(node);
    case "selector_expression": {
      const operand = node.childForFieldName("operand");
      const field = node.childForFieldName("field");
      return `${operand ? renderCallee(operand, file) : ""}.${field ? file.text(field) : ""}`;
    }
    case "call_expression": {
      const fn = node.childForFieldName("function");
      return `${fn ? renderCallee(fn, file) : ""}()`;
    }
    case "index_expression": {
      const operand = node.childForFieldName("operand");
      return `${operand ? renderCallee(operand, file) : ""}[…]`;
    }
    default:
      return shortText(file.text(node));
  }
}

function onCall(node: Node, frame: Frame, state: GoState): void {
  const file = state.file;
  const fn = node.childForFieldName("function");
  if (!fn || fn.type === "func_literal") return;
  const text = file.text(fn);
  let raw = text;
  let name: string;
  let receiver: string | null;
  let line = lineOf(node);
  if (isSimpleCallee(text)) {
    ({ name, receiver } = splitSimpleCallee(text));
  } else if (fn.type === "selector_expression") {
    const operand = fn.childForFieldName("operand");
    const field = fn.childForFieldName("field");
    receiver = operand ? renderCallee(operand, file) : null;
    name = field ? file.text(field) : "";
    raw = `${receiver ?? ""}.${name}`;
    line = lineOf(field ?? node);
  } else {
    raw = renderCallee(fn, file);
    name = lastIdentifier(raw);
    receiver = null;
  }
  frame.symbol.calls.push(makeCall(raw, name, receiver, line));
  if (isErrorHelper(name, receiver, state)) {
    const args = node.childForFieldName("arguments")?.namedChildren;
    addErrorString(
      frame.symbol,
      firstLiteral(args, (n) => messageOf(n, file)),
    );
  }
}

function isErrorHelper(name: string, receiver: string | null, state: GoState): boolean {
  if (receiver === null) return name === "panic";
  const pkg = state.packages.get(receiver);
  if (pkg === "errors" || pkg === "github.com/pkg/errors") return /^(New|Errorf|Wrap|Wrapf)$/.test(name);
  if (pkg === "fmt") return name === "Errorf";
  if (pkg === "log") return /^(Fatal|Panic)(f|ln)?$/.test(name);
  return LOG_METHOD.test(name) && LOG_RECEIVER.test(lastIdentifier(receiver));
}

/** `s.x…` on the receiver is recorded at once; other roots may be package vars. */
function onWrite(target: Node, frame: Frame, state: GoState): void {
  const parsed = parseWriteTarget(state.file.text(target));
  if (!parsed || parsed.root === "_") return;
  if (parsed.root === frame.receiver) {
    pushUnique(frame.symbol.mutates, parsed.member ? `${parsed.root}.${parsed.member}` : parsed.root);
  } else {
    frame.writes.push(parsed.root);
  }
}

/** Literal text of a message argument: interpreted and raw strings, `+` concatenation. */
function messageOf(node: Node, file: FileState): string | null {
  switch (node.type) {
    case "interpreted_string_literal":
    case "raw_string_literal":
      return file.text(node).slice(1, -1);
    case "binary_expression": {
      const operator = node.childForFieldName("operator");
      if (!operator || file.text(operator) !== "+") return null;
      const left = node.childForFieldName("left");
      const right = node.childForFieldName("right");
      const leftText = left ? messageOf(left, file) : null;
      const rightText = right ? messageOf(right, file) : null;
      if (leftText === null && rightText === null) return null;
      return `${leftText ?? "{…}"}${rightText ?? "{…}"}`;
    }
    default:
      return null;
  }
}
