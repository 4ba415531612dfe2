/**
 * Python extraction: one recursive pass over named nodes that creates symbols for
 * (decorated) functions and classes and attributes calls, raises, writes and
 * error messages to the innermost enclosing symbol.
 */
import type { Node } from "web-tree-sitter";
import { DOCSTRING_MAX, type ExtractedSymbol } from "../../types";
import {
  addErrorString,
  cap,
  cleanIndentedText,
  createSymbol,
  endLineOf,
  FileState,
  firstLiteral,
  isPublicName,
  isSimpleCallee,
  lastIdentifier,
  lineOf,
  makeCall,
  parseWriteTarget,
  pushUnique,
  shortText,
  signatureBetween,
  splitSimpleCallee,
} from "./common";

/** Nodes with nothing inside worth visiting; skipping them saves most WASM crossings. */
const LEAVES = new Set([
  "identifier",
  "integer",
  "float",
  "true",
  "false",
  "none",
  "comment",
  "string_start",
  "string_content",
  "string_end",
  "escape_sequence",
  "dotted_name",
  "type",
  "keyword_identifier",
  "pass_statement",
  "break_statement",
  "continue_statement",
  "ellipsis",
  "line_continuation",
]);

const LOG_METHODS = new Set(["error", "warning", "warn", "exception", "critical", "fatal"]);
const LOG_RECEIVER = /^_*(log|logger|logging|LOG|LOGGER|Log|Logger)$/;
const TARGET_LISTS = new Set(["pattern_list", "tuple_pattern", "list_pattern", "expression_list"]);

/** Locals, globals and pending writes of one function body. */
interface Frame {
  symbol: ExtractedSymbol;
  locals: Set<string>;
  globals: Set<string>;
  /** Roots of subscript/attribute stores (`_cache[k] = v`), resolved when the function ends. */
  deepWrites: string[];
}

interface Scope {
  kind: "module" | "class" | "function";
  /** Symbol that receives calls and writes; null at module level. */
  owner: ExtractedSymbol | null;
  /** qualifiedName of the enclosing symbol. */
  parent: string | null;
  /** Whether symbols defined here can be public API. */
  public: boolean;
  /** Name bound to the instance (`self`, `cls`) inside methods and their closures. */
  selfName: string | null;
  frame: Frame | null;
}

export function extractPython(root: Node, source: string): FileState {
  const state = new FileState(source);
  const scope: Scope = {
    kind: "module",
    owner: null,
    parent: null,
    public: true,
    selfName: null,
    frame: null,
  };
  visitChildren(root, scope, state);
  state.resolveDeferredWrites((name) => state.moduleState.has(name));
  return state;
}

function visitChildren(node: Node, scope: Scope, state: FileState): void {
  for (const child of node.namedChildren) visit(child, scope, state);
}

function visit(node: Node, scope: Scope, state: FileState): void {
  const type = node.type;
  if (LEAVES.has(type)) return;
  switch (type) {
    case "function_definition":
      defineFunction(node, node, [], scope, state);
      return;
    case "class_definition":
      defineClass(node, node, [], scope, state);
      return;
    case "decorated_definition":
      defineDecorated(node, scope, state);
      return;
    case "call":
      onCall(node, scope, state);
      break;
    case "raise_statement":
      onRaise(node, scope, state);
      break;
    case "assignment":
    case "augmented_assignment":
      onAssignment(node, scope, state);
      break;
    case "delete_statement":
      for (const target of node.namedChildren) onWriteTargets(target, scope, state, true);
      break;
    case "global_statement":
      for (const name of node.namedChildren) scope.frame?.globals.add(state.text(name));
      return;
    case "nonlocal_statement":
      for (const name of node.namedChildren) scope.frame?.locals.add(state.text(name));
      return;
    case "import_statement":
    case "import_from_statement":
      onImport(node, scope, state);
      return;
    case "for_statement":
    case "for_in_clause": {
      const left = node.childForFieldName("left");
      if (left && scope.frame) bindLocals(left, scope.frame, state);
      break;
    }
    case "as_pattern":
    case "named_expression": {
      const alias = node.childForFieldName(type === "as_pattern" ? "alias" : "name");
      if (alias && scope.frame) bindLocals(alias, scope.frame, state);
      break;
    }
  }
  visitChildren(node, scope, state);
}

function defineDecorated(node: Node, scope: Scope, state: FileState): void {
  const decorators: string[] = [];
  let definition: Node | null = null;
  for (const child of node.namedChildren) {
    if (child.type === "decorator") {
      const expr = child.firstNamedChild;
      if (expr) {
        decorators.push(signatureBetween(state.source, expr.startIndex, expr.endIndex));
        // Decorator expressions run in the enclosing scope, so their calls belong there.
        visit(expr, scope, state);
      }
    } else if (child.type === "function_definition" || child.type === "class_definition") {
      definition = child;
    }
  }
  if (definition?.type === "function_definition") defineFunction(definition, node, decorators, scope, state);
  else if (definition) defineClass(definition, node, decorators, scope, state);
}

function qualify(scope: Scope, name: string): string {
  return scope.parent ? `${scope.parent}.${name}` : name;
}

function defineFunction(def: Node, outer: Node, decorators: string[], scope: Scope, state: FileState): void {
  const nameNode = def.childForFieldName("name");
  const params = def.childForFieldName("parameters");
  const returnType = def.childForFieldName("return_type");
  const body = def.childForFieldName("body");
  const name = nameNode ? state.text(nameNode) : "<anonymous>";
  const qualifiedName = qualify(scope, name);
  const headEnd = (returnType ?? params ?? nameNode ?? def).endIndex;
  const statements = body ? body.namedChildren : [];
  const symbol = createSymbol({
    name,
    qualifiedName,
    kind: scope.kind === "class" ? "method" : "function",
    startLine: lineOf(outer),
    endLine: endLineOf(outer),
    signature: cleanHead(signatureBetween(state.source, def.startIndex, headEnd)),
    docstring: docstringOf(statements, state),
    parent: scope.parent,
    exported: scope.public && scope.kind !== "function" && isPublicName(name),
    decorators,
  });
  state.symbols.push(symbol);
  if (nameNode && scope.frame) scope.frame.locals.add(name);

  const frame: Frame = { symbol, locals: new Set(), globals: new Set(), deepWrites: [] };
  const paramNames = params ? parameterNames(params, state) : [];
  for (const p of paramNames) frame.locals.add(p);
  let selfName = scope.kind === "function" ? scope.selfName : null;
  if (scope.kind === "class") selfName = decorators.includes("staticmethod") ? null : (paramNames[0] ?? null);
  // Default values are evaluated where the function is defined.
  if (params) visit(params, scope, state);

  const inner: Scope = {
    kind: "function",
    owner: symbol,
    parent: qualifiedName,
    public: false,
    selfName,
    frame,
  };
  for (const statement of statements) visit(statement, inner, state);
  finishFrame(frame, state);
}

function defineClass(def: Node, outer: Node, decorators: string[], scope: Scope, state: FileState): void {
  const nameNode = def.childForFieldName("name");
  const superclasses = def.childForFieldName("superclasses");
  const typeParams = def.childForFieldName("type_parameters");
  const body = def.childForFieldName("body");
  const name = nameNode ? state.text(nameNode) : "<anonymous>";
  const qualifiedName = qualify(scope, name);
  const headEnd = (superclasses ?? typeParams ?? nameNode ?? def).endIndex;
  const statements = body ? body.namedChildren : [];
  const bases: string[] = [];
  if (superclasses) {
    for (const base of superclasses.namedChildren) {
      if (base.type !== "keyword_argument" && base.type !== "comment") {
        bases.push(signatureBetween(state.source, base.startIndex, base.endIndex));
      }
    }
    visit(superclasses, scope, state);
  }
  const exported = scope.public && scope.kind !== "function" && isPublicName(name);
  const symbol = createSymbol({
    name,
    qualifiedName,
    kind: "class",
    startLine: lineOf(outer),
    endLine: endLineOf(outer),
    signature: cleanHead(signatureBetween(state.source, def.startIndex, headEnd)),
    docstring: docstringOf(statements, state),
    parent: scope.parent,
    exported,
    decorators,
    bases,
  });
  state.symbols.push(symbol);
  if (scope.frame) scope.frame.locals.add(name);
  const inner: Scope = {
    kind: "class",
    owner: symbol,
    parent: qualifiedName,
    public: exported,
    selfName: null,
    frame: null,
  };
  for (const statement of statements) visit(statement, inner, state);
}

/** Drops comments that sit inside a multi-line parameter list. */
function cleanHead(signature: string): string {
  return signature.includes("#")
    ? signature.replace(/([,([])\s*#[^,()[\]]*/g, "$1 ").replace(/\s+/g, " ")
    : signature;
}

function docstringOf(statements: Node[], state: FileState): string {
  for (const statement of statements) {
    if (statement.type === "comment") continue;
    if (statement.type !== "expression_statement") return "";
    const expr = statement.firstNamedChild;
    if (!expr || (expr.type !== "string" && expr.type !== "concatenated_string")) return "";
    const text = stringLiteral(expr, state, false);
    return text === null ? "" : cap(cleanIndentedText(text), DOCSTRING_MAX);
  }
  return "";
}

function parameterNames(params: Node, state: FileState): string[] {
  const names: string[] = [];
  for (const param of params.namedChildren) {
    let target: Node | null = param;
    if (param.type === "default_parameter" || param.type === "typed_default_parameter") {
      target = param.childForFieldName("name");
    } else if (param.type !== "identifier") {
      target = param.firstNamedChild;
      if (target && target.type !== "identifier") target = target.firstNamedChild;
    }
    if (target?.type === "identifier") names.push(state.text(target));
  }
  return names;
}

function finishFrame(frame: Frame, state: FileState): void {
  for (const root of frame.deepWrites) {
    if (frame.globals.has(root)) pushUnique(frame.symbol.mutates, root);
    else if (!frame.locals.has(root)) state.deferWrite(frame.symbol, root, false);
  }
}

/** Callee text as written with arguments elided: `super().__init__`, `df.groupby().mean`. */
function renderCallee(node: Node, state: FileState): string {
  switch (node.type) {
    case "identifier":
      return state.text(node);
    case "attribute": {
      const object = node.childForFieldName("object");
      const attribute = node.childForFieldName("attribute");
      return `${object ? renderCallee(object, state) : ""}.${attribute ? state.text(attribute) : ""}`;
    }
    case "call": {
      const fn = node.childForFieldName("function");
      return `${fn ? renderCallee(fn, state) : ""}()`;
    }
    case "subscript": {
      const value = node.childForFieldName("value");
      return `${value ? renderCallee(value, state) : ""}[…]`;
    }
    default:
      return shortText(state.text(node));
  }
}

function describeCall(fn: Node, call: Node, state: FileState) {
  const text = state.text(fn);
  if (isSimpleCallee(text)) {
    const { name, receiver } = splitSimpleCallee(text);
    return makeCall(text, name, receiver, lineOf(call));
  }
  if (fn.type === "attribute") {
    const object = fn.childForFieldName("object");
    const attribute = fn.childForFieldName("attribute");
    const receiver = object ? renderCallee(object, state) : null;
    const name = attribute ? state.text(attribute) : "";
    return makeCall(`${receiver ?? ""}.${name}`, name, receiver, lineOf(attribute ?? call));
  }
  const raw = renderCallee(fn, state);
  return makeCall(raw, lastIdentifier(raw), null, lineOf(call));
}

function onCall(node: Node, scope: Scope, state: FileState): void {
  const owner = scope.owner;
  const fn = node.childForFieldName("function");
  if (!owner || !fn) return;
  const call = describeCall(fn, node, state);
  owner.calls.push(call);
  const receiverTail = call.receiver ? lastIdentifier(call.receiver) : "";
  const isLog = LOG_METHODS.has(call.name) && LOG_RECEIVER.test(receiverTail);
  if (isLog || call.raw === "warnings.warn") {
    addErrorString(
      owner,
      firstLiteral(node.childForFieldName("arguments")?.namedChildren, (n) => messageOf(n, state)),
    );
  }
}

function onRaise(node: Node, scope: Scope, state: FileState): void {
  const owner = scope.owner;
  const exception = node.firstNamedChild;
  if (!owner || !exception) return;
  const target = exception.type === "call" ? exception.childForFieldName("function") : exception;
  if (target) {
    const name =
      target.type === "attribute"
        ? state.text(target.childForFieldName("attribute") ?? target)
        : state.text(target);
    // Lower-case names are re-raised variables (`raise err`), not exception types.
    if (/^[A-Z][\w]*$/.test(name)) pushUnique(owner.raises, name);
  }
  if (exception.type === "call") {
    const args = exception.childForFieldName("arguments")?.namedChildren;
    addErrorString(
      owner,
      firstLiteral(args, (n) => messageOf(n, state)),
    );
  }
}

function onAssignment(node: Node, scope: Scope, state: FileState): void {
  const left = node.childForFieldName("left");
  if (!left) return;
  if (scope.kind === "module") {
    if (node.type === "assignment" && node.childForFieldName("right")) collectModuleNames(left, state);
    return;
  }
  onWriteTargets(left, scope, state, false);
}

function collectModuleNames(target: Node, state: FileState): void {
  if (target.type === "identifier") state.moduleState.add(state.text(target));
  else if (TARGET_LISTS.has(target.type))
    for (const child of target.namedChildren) collectModuleNames(child, state);
  else if (target.type === "list_splat_pattern") {
    const inner = target.firstNamedChild;
    if (inner) collectModuleNames(inner, state);
  }
}

function bindLocals(target: Node, frame: Frame, state: FileState): void {
  if (target.type === "identifier") frame.locals.add(state.text(target));
  else if (
    TARGET_LISTS.has(target.type) ||
    target.type === "list_splat_pattern" ||
    target.type === "parenthesized_expression"
  ) {
    for (const child of target.namedChildren) bindLocals(child, frame, state);
  }
}

/** Records writes through assignment/del targets: `self.x…` immediately, module names once known. */
function onWriteTargets(target: Node, scope: Scope, state: FileState, isDelete: boolean): void {
  const frame = scope.frame;
  if (!frame) return;
  if (
    TARGET_LISTS.has(target.type) ||
    target.type === "list_splat_pattern" ||
    target.type === "parenthesized_expression"
  ) {
    for (const child of target.namedChildren) onWriteTargets(child, scope, state, isDelete);
    return;
  }
  if (target.type === "identifier") {
    const name = state.text(target);
    if (frame.globals.has(name)) {
      pushUnique(frame.symbol.mutates, name);
      if (!isDelete) state.moduleState.add(name);
    } else if (!isDelete) {
      frame.locals.add(name);
    }
    return;
  }
  const parsed = parseWriteTarget(state.text(target));
  if (!parsed) return;
  if (parsed.root === scope.selfName) {
    if (parsed.member) pushUnique(frame.symbol.mutates, `${parsed.root}.${parsed.member}`);
  } else {
    frame.deepWrites.push(parsed.root);
  }
}

function onImport(node: Node, scope: Scope, state: FileState): void {
  const line = lineOf(node);
  const bind = (local: string) => scope.frame?.locals.add(local);
  if (node.type === "import_statement") {
    for (const item of node.childrenForFieldName("name")) {
      const nameNode = item.type === "aliased_import" ? item.childForFieldName("name") : item;
      const alias = item.type === "aliased_import" ? item.childForFieldName("alias") : null;
      const specifier = nameNode ? state.text(nameNode) : "";
      // `import a.b as m` binds only `m` (to a.b); plain `import a.b` binds `a`.
      const local = alias ? state.text(alias) : null;
      state.addImport(specifier, [], line, { local });
      bind(local ?? specifier.split(".")[0] ?? specifier);
    }
    return;
  }
  const moduleNode = node.childForFieldName("module_name");
  const specifier = moduleNode ? state.text(moduleNode).replace(/\s+/g, "") : "";
  const names: string[] = [];
  const renamed: Array<[string, string]> = [];
  for (const child of node.namedChildren) {
    if (child.type === "wildcard_import") names.push("*");
  }
  for (const item of node.childrenForFieldName("name")) {
    const nameNode = item.type === "aliased_import" ? item.childForFieldName("name") : item;
    const alias = item.type === "aliased_import" ? item.childForFieldName("alias") : null;
    if (!nameNode) continue;
    const name = state.text(nameNode);
    names.push(name);
    if (alias) renamed.push([state.text(alias), name]);
    bind(state.text(alias ?? nameNode));
  }
  state.addImport(specifier, names, line, { renamed });
}

/**
 * Literal text of a message expression: plain and f-strings (placeholders as `{…}`),
 * implicit concatenation, `"..." % args`, `"...".format(...)` and `+` concatenation.
 */
function messageOf(node: Node, state: FileState): string | null {
  switch (node.type) {
    case "string":
    case "concatenated_string":
      return stringLiteral(node, state, true);
    case "binary_operator": {
      const left = node.childForFieldName("left");
      const right = node.childForFieldName("right");
      const operator = node.childForFieldName("operator");
      const op = operator ? state.text(operator) : "";
      const leftText = left ? messageOf(left, state) : null;
      if (op === "%") return leftText;
      if (op !== "+") return null;
      const rightText = right ? messageOf(right, state) : null;
      if (leftText === null && rightText === null) return null;
      return `${leftText ?? "{…}"}${rightText ?? "{…}"}`;
    }
    case "call": {
      const fn = node.childForFieldName("function");
      if (fn?.type !== "attribute") return null;
      const attribute = fn.childForFieldName("attribute");
      const object = fn.childForFieldName("object");
      if (!attribute || !object || state.text(attribute) !== "format") return null;
      return messageOf(object, state);
    }
    case "parenthesized_expression": {
      const inner = node.firstNamedChild;
      return inner ? messageOf(inner, state) : null;
    }
    default:
      return null;
  }
}

/** Joins string pieces; f-string interpolations become `{…}` when `placeholders` is set. */
function stringLiteral(node: Node, state: FileState, placeholders: boolean): string | null {
  if (node.type === "concatenated_string") {
    let out = "";
    for (const part of node.namedChildren) {
      if (part.type === "string") out += stringLiteral(part, state, placeholders) ?? "";
    }
    return out;
  }
  let out = "";
  for (const part of node.namedChildren) {
    if (part.type === "string_content" || part.type === "escape_sequence") out += state.text(part);
    else if (part.type === "interpolation") out += placeholders ? "{…}" : state.text(part);
  }
  return out;
}
