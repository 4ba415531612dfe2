/**
 * Go: receivers name a method's type and its instance, and error messages come from
 * the packages that make errors (`errors.New`, `fmt.Errorf`, `log.Fatalf`), found by
 * the names the file imports them under.
 */
import type { Node } from "web-tree-sitter";
import type { SymbolKind } from "../../types";
import { cap, endLineOf, lastIdentifier, leadingTrivia, SIGNATURE_MAX, signatureBetween } from "../common";
import type { Definition, Extraction, LanguageSpec, Match } from "../extraction";
import { goDefaultName } from "../../module-scope";

const COMMENTS = new Set(["comment"]);
const LOG_METHOD = /^(Error|Warn|Warning|Fatal|Panic|DPanic)(f|ln|w|v|Context)?$/;
// Loggers and logging packages as Go code names them: the standard ones, the common
// libraries (logrus, klog, glog, zerolog) and a project's own (`logx`, `logc`, `xlog`).
const LOG_RECEIVER =
  /^_*(?:log|logs|log[a-z]|[a-z]log|logger|logging|logrus|slog|zap|sugar|klog|glog|zerolog)$|Logger$/i;

export const go: LanguageSpec = {
  query: "go.scm",
  comments: COMMENTS,
  members: { selector_expression: ["operand", "field", "."] },
  render: {
    identifier: "$",
    field_identifier: "$",
    package_identifier: "$",
    selector_expression: "@operand.$field",
    call_expression: "@function()",
    index_expression: "@operand[…]",
  },
  strings: new Set(["interpreted_string_literal", "raw_string_literal"]),
  stringText: (node, x) => x.text(node).slice(1, -1),
  binary: "binary_expression",
  bareSelf: true,
  exported: (def) => /^[A-Z]/.test(def.name),

  define(def, x) {
    const node = def.match.node;
    if (node.type === "type_spec" || node.type === "type_alias") {
      defineType(def.match.node, def, x);
      return;
    }
    const frame = { locals: new Set<string>(), globals: new Set<string>(), writes: [] };
    for (const field of ["parameters", "result"])
      for (const param of node.childForFieldName(field)?.namedChildren ?? [])
        for (const name of param.childrenForFieldName("name")) frame.locals.add(x.text(name));
    def.inner.frame = frame;
    if (node.type !== "method_declaration") return;
    // `(s *Server)` → s, Server; `(st *Stack[T])` → st, Stack.
    const param = node
      .childForFieldName("receiver")
      ?.namedChildren.find((c) => c.type === "parameter_declaration");
    const name = param?.childForFieldName("name");
    const type = param?.childForFieldName("type");
    const typeName = (type ? x.text(type) : "")
      .replace(/^[\s*(]+/, "")
      .replace(/[[)].*$/s, "")
      .trim();
    def.parent = typeName || null;
    def.qualifiedName = typeName ? `${typeName}.${def.name}` : def.name;
    def.inner.self = name ? x.text(name) : null;
  },

  errorCall(call, x, m) {
    if (call.receiver === null) return call.name === "panic";
    const pkg = packages(x).get(call.receiver);
    if (pkg === "errors" || pkg === "github.com/pkg/errors")
      return /^(New|Errorf|Wrap|Wrapf)$/.test(call.name);
    // `fmt.Errorf`, and a message printed to standard error (`fmt.Fprintln(os.Stderr, "Failed to …", err)`).
    if (pkg === "fmt") return call.name === "Errorf" || (/^Fprint(f|ln)?$/.test(call.name) && toStderr(m, x));
    if (pkg === "log") return /^(Fatal|Panic)(f|ln)?$/.test(call.name);
    return LOG_METHOD.test(call.name) && LOG_RECEIVER.test(lastIdentifier(call.receiver));
  },

  call(m) {
    // An immediately called function literal is no call into other code.
    return m.parts.callee?.[0]?.type === "func_literal";
  },
};

/** Whether a call's first argument is standard error (`fmt.Fprintf(os.Stderr, …)`). */
function toStderr(m: Match, x: Extraction): boolean {
  const first = m.parts.arguments?.[0]?.namedChildren[0];
  return first !== undefined && x.text(first) === "os.Stderr";
}

/** Local package name → import path, so `f.Errorf` is known when fmt is imported as f. */
function packages(x: Extraction): Map<string, string> {
  const cached = x.data.packages as { count: number; map: Map<string, string> } | undefined;
  if (cached?.count === x.imports.length) return cached.map;
  const map = new Map<string, string>();
  for (const imp of x.imports) {
    const local = imp.local ?? goDefaultName(imp.module);
    if (local !== "_" && !imp.names.includes("*")) map.set(local, imp.module);
  }
  x.data.packages = { count: x.imports.length, map };
  return map;
}

/** A `type` spec: struct and interface types list what they embed; other types read whole. */
function defineType(spec: Node, def: Definition, x: Extraction): void {
  const declaration = spec.parent as Node;
  // A lone `type X …` owns the declaration's comments; specs of a `type (…)` group own their own.
  const outer = spec.startPosition.row === declaration.startPosition.row ? declaration : spec;
  const trivia = leadingTrivia(outer, x.source, { commentTypes: COMMENTS });
  const typeNode = spec.childForFieldName("type");
  let kind: SymbolKind = "type";
  let signature = `type ${cap(signatureBetween(x.source, spec.startIndex, spec.endIndex), SIGNATURE_MAX)}`;
  if (
    typeNode &&
    spec.type === "type_spec" &&
    (typeNode.type === "struct_type" || typeNode.type === "interface_type")
  ) {
    const isStruct = typeNode.type === "struct_type";
    kind = isStruct ? "struct" : "interface";
    signature = `type ${signatureBetween(x.source, spec.startIndex, typeNode.startIndex)} ${isStruct ? "struct" : "interface"}`;
    def.bases = isStruct ? embeddedFields(typeNode, x) : embeddedInterfaces(typeNode, x);
  }
  Object.assign(def, {
    kind,
    signature,
    outer,
    startLine: trivia.startRow + 1,
    endLine: endLineOf(outer),
    docstring: trivia.docstring,
    region: null,
  });
}

function embeddedFields(struct: Node, x: Extraction): string[] {
  const list = struct.namedChildren.find((c) => c.type === "field_declaration_list");
  const out: string[] = [];
  for (const field of list?.namedChildren ?? []) {
    if (field.type !== "field_declaration" || field.childForFieldName("name")) continue;
    const type = field.childForFieldName("type");
    if (type) out.push(x.text(type));
  }
  return out;
}

function embeddedInterfaces(iface: Node, x: Extraction): string[] {
  const out: string[] = [];
  for (const child of iface.namedChildren) {
    if (child.type === "type_elem") out.push(signatureBetween(x.source, child.startIndex, child.endIndex));
  }
  return out;
}
