/**
 * Python: docstrings are the first statement of a body, methods bind the instance to
 * their first parameter, and writes are sorted out with `global`/`nonlocal` and the
 * function's locals (assignment targets, loop variables, imports, nested definitions).
 */
import type { Node } from "web-tree-sitter";
import { DOCSTRING_MAX } from "../../types";
import { cap, cleanIndentedText, isPublicName, parseWriteTarget, pushUnique } from "../common";
import type { Extraction, Frame, LanguageSpec, Scope } from "../extraction";

const TARGET_LISTS = new Set(["pattern_list", "tuple_pattern", "list_pattern", "expression_list"]);
const NESTED_TARGETS = new Set([...TARGET_LISTS, "list_splat_pattern", "parenthesized_expression"]);

export const python: LanguageSpec = {
  query: "python.scm",
  members: { attribute: ["object", "attribute", "."] },
  render: { identifier: "$", attribute: "@object.$attribute", call: "@function()", subscript: "@value[…]" },
  log: {
    methods: new Set(["error", "warning", "warn", "exception", "critical", "fatal"]),
    receiver: /^_*(log|logger|logging|LOG|LOGGER|Log|Logger)$/,
    raws: new Set(["warnings.warn"]),
  },
  strings: new Set(["string"]),
  concatenations: new Set(["concatenated_string"]),
  interpolations: new Set(["interpolation"]),
  delimiters: new Set(["string_start", "string_end"]),
  binary: "binary_operator",
  parenthesized: "parenthesized_expression",
  raiseName: /^[A-Z][\w]*$/,
  bindDefinitions: true,
  importsBind: true,
  exported: (def) => def.scope.public && def.scope.kind !== "function" && isPublicName(def.name),

  define(def, x) {
    const body = def.match.parts.body?.[0];
    def.docstring = body ? docstringOf(body, x) : "";
    // Comments inside a multi-line parameter list are dropped.
    if (def.signature.includes("#"))
      def.signature = def.signature.replace(/([,([])\s*#[^,()[\]]*/g, "$1 ").replace(/\s+/g, " ");
    const params = def.match.parts.parameters?.[0];
    if (!params) return;
    const names = parameterNames(params, x);
    def.inner.frame = { locals: new Set(names), globals: new Set(), writes: [] };
    if (def.scope.kind === "type")
      def.inner.self = def.decorators.includes("staticmethod") ? null : (names[0] ?? null);
  },

  message(node, x) {
    if (node.type === "binary_operator") {
      const left = node.childForFieldName("left");
      return node.childForFieldName("operator")?.text === "%" && left ? x.messageOf(left) : null;
    }
    if (node.type !== "call") return null;
    const fn = node.childForFieldName("function");
    const object = fn?.type === "attribute" ? fn.childForFieldName("object") : null;
    return object && fn?.childForFieldName("attribute")?.text === "format" ? x.messageOf(object) : null;
  },

  write(target, scope, x, m) {
    if (scope.frame && scope.symbol) writeTargets(target, scope, x, "delete" in m.props);
  },

  roles: {
    targets(m, scope, x) {
      if (scope.kind === "file") moduleNames(m.node, x);
    },
    locals(m, scope, x) {
      if (scope.frame) bindLocals(m.node, scope.frame, x);
    },
    global(m, scope, x) {
      scope.frame?.globals.add(x.text(m.node));
    },
  },
};

function docstringOf(body: Node, x: Extraction): string {
  for (const statement of body.namedChildren) {
    if (statement.type === "comment") continue;
    if (statement.type !== "expression_statement") return "";
    const expr = statement.firstNamedChild;
    if (!expr || (expr.type !== "string" && expr.type !== "concatenated_string")) return "";
    const text =
      expr.type === "string"
        ? x.stringText(expr, false)
        : expr.namedChildren
            .filter((part) => part.type === "string")
            .map((part) => x.stringText(part, false))
            .join("");
    return cap(cleanIndentedText(text), DOCSTRING_MAX);
  }
  return "";
}

function parameterNames(params: Node, x: Extraction): string[] {
  const names: string[] = [];
  for (const param of params.namedChildren) {
    let target: Node | null = param;
    if (param.type === "default_parameter" || param.type === "typed_default_parameter") {
      target = param.childForFieldName("name");
    } else if (param.type !== "identifier") {
      target = param.firstNamedChild;
      if (target && target.type !== "identifier") target = target.firstNamedChild;
    }
    if (target?.type === "identifier") names.push(x.text(target));
  }
  return names;
}

function moduleNames(target: Node, x: Extraction): void {
  if (target.type === "identifier") x.moduleState.add(x.text(target));
  else if (TARGET_LISTS.has(target.type)) for (const child of target.namedChildren) moduleNames(child, x);
  else if (target.type === "list_splat_pattern") {
    const inner = target.firstNamedChild;
    if (inner) moduleNames(inner, x);
  }
}

function bindLocals(target: Node, frame: Frame, x: Extraction): void {
  if (target.type === "identifier") frame.locals.add(x.text(target));
  else if (NESTED_TARGETS.has(target.type))
    for (const child of target.namedChildren) bindLocals(child, frame, x);
}

/** Assignment/del targets: globals are written at once, `self.x…` too, other roots once the function ends. */
function writeTargets(target: Node, scope: Scope, x: Extraction, isDelete: boolean): void {
  const frame = scope.frame as Frame;
  const symbol = scope.symbol;
  if (!symbol) return;
  if (NESTED_TARGETS.has(target.type)) {
    for (const child of target.namedChildren) writeTargets(child, scope, x, isDelete);
    return;
  }
  if (target.type === "identifier") {
    const name = x.text(target);
    if (frame.globals.has(name)) {
      pushUnique(symbol.mutates, name);
      if (!isDelete) x.moduleState.add(name);
    } else if (!isDelete) frame.locals.add(name);
    return;
  }
  const parsed = parseWriteTarget(x.text(target));
  if (!parsed) return;
  if (parsed.root !== scope.self) frame.writes.push({ name: parsed.root, bare: false });
  else if (parsed.member) pushUnique(symbol.mutates, `${parsed.root}.${parsed.member}`);
}
