/**
 * C and C++: names come out of declarator chains (`int *Foo::bar(…)`), qualified
 * definitions (`void Foo::bar()`) are members of `Foo`, and error messages are the
 * literals of calls writing to stderr or named for errors (`fprintf(stderr, …)`,
 * `die(…)`, `report_error(…)`, `FMT_ASSERT(…)`).
 */
import type { Node } from "web-tree-sitter";
import { cap, SIGNATURE_MAX, signatureBetween, splitSimpleCallee, stripTemplates } from "../common";
import { recordWrite } from "../engine";
import { type Definition, type LanguageSpec } from "../extraction";

const ERROR_CALL =
  /(^|_)(err|errx|error|fatal|die|panic|abort|warn|warnx|warning|assert|fail|invalid)(_|$)|Error$|Exception$/i;
const CASTS = /^(static|dynamic|const|reinterpret)_cast\b/;
const SPECIFIERS: Record<string, Definition["kind"]> = {
  struct_specifier: "struct",
  union_specifier: "struct",
  enum_specifier: "enum",
  class_specifier: "class",
};

/** The identifier a declarator chain declares: `*const x[3]` → x, `(*cb)(int)` → cb. */
function declared(node: Node | null): Node | null {
  while (node && !/identifier$|_name$|^operator_cast$/.test(node.type))
    node =
      node.childForFieldName("declarator") ??
      node.namedChildren.find((c) => /declarator|identifier$/.test(c.type)) ??
      null;
  return node;
}

function functionDeclarator(node: Node): Node | null {
  let d = node.childForFieldName("declarator");
  while (d && d.type !== "function_declarator") d = d.childForFieldName("declarator") ?? d.firstNamedChild;
  return d;
}

/**
 * The names a definition macro gives its body: `TEST(LogSink, WaitTillSent) {…}`,
 * `TEST_F(Fixture, Flushes)`, `BENCHMARK(BM_Format)` read as a function named after the
 * macro with untyped parameters; the body is the test or benchmark its arguments name.
 */
function macroNamedDefinition(node: Node, name: string, x: { text(n: Node): string }): string[] | null {
  if (!/^[A-Z][A-Z0-9_]*$/.test(name) || node.childForFieldName("type")) return null;
  const parameters = functionDeclarator(node)?.childForFieldName("parameters")?.namedChildren ?? [];
  const names = parameters.map((p) =>
    p.type === "parameter_declaration" &&
    p.namedChildCount === 1 &&
    p.firstNamedChild?.type === "type_identifier"
      ? x.text(p.firstNamedChild)
      : null,
  );
  return names.length > 0 && names.length <= 3 && names.every((n) => n !== null) ? (names as string[]) : null;
}

export const c: LanguageSpec = {
  query: "c.scm",
  comments: new Set(["comment"]),
  signatureTrailing: /;$/,
  members: { field_expression: ["argument", "field", "$operator"] },
  render: {
    identifier: "$",
    field_identifier: "$",
    this: "$",
    qualified_identifier: "$",
    field_expression: "@argument$operator$field",
    call_expression: "@function()",
    subscript_expression: "@argument[…]",
    template_function: "$name",
  },
  strings: new Set(["string_literal", "raw_string_literal"]),
  concatenations: new Set(["concatenated_string"]),
  binary: "binary_expression",
  parenthesized: "parenthesized_expression",
  self: "this",

  exported(def, x) {
    const node = def.match.node;
    if (def.scope.kind === "function" || def.scope.data.anonymous) return false;
    if (def.scope.kind !== "type")
      return !node.namedChildren.some((n) => n.type === "storage_class_specifier" && x.text(n) === "static");
    // Members: the last access label before them, else the default of the class kind.
    for (let s = node.previousNamedSibling; s; s = s.previousNamedSibling)
      if (s.type === "access_specifier") return x.text(s) === "public";
    return def.scope.symbol?.kind !== "class";
  },

  define(def, x) {
    const node = def.match.node;
    def.name = stripTemplates(def.name);
    def.bases = def.bases.map((b) =>
      b.replace(/^:\s*/, "").replace(/^((public|private|protected|virtual)\s+)+/, ""),
    );
    if (node.type === "function_definition") {
      // A "function" whose return type is a whole class body is a parse gone wrong (an unexpanded
      // macro before `class`): the class is the definition, not the function.
      if (node.childForFieldName("type")?.childForFieldName("body")) return false;
      const nameNode = declared(functionDeclarator(node)?.childForFieldName("declarator") ?? null);
      const path = stripTemplates(nameNode ? x.text(nameNode) : "").split("::");
      def.name = path.pop() as string;
      if (!def.name) return false;
      const named = macroNamedDefinition(node, def.name, x);
      if (named) {
        def.name = named[named.length - 1] as string;
        def.qualifiedName = [def.scope.prefix, ...named].filter(Boolean).join(".");
        return;
      }
      if (path.length === 0) return;
      // `void Foo::bar()` defines a member of Foo, here or in a header.
      const owner = [def.scope.prefix, ...path].filter(Boolean).join(".");
      def.kind = "method";
      def.parent = owner;
      def.qualifiedName = `${owner}.${def.name}`;
    } else if (SPECIFIERS[node.type] && def.name.includes("::")) {
      // `struct fmt::formatter<T>` specializes a class of another namespace.
      const path = def.name.replace(/\s+/g, "").split("::");
      def.name = path.pop() as string;
      def.parent = [def.scope.prefix, ...path].filter(Boolean).join(".") || null;
      def.qualifiedName = def.parent ? `${def.parent}.${def.name}` : def.name;
    } else if (def.kind === "type" && def.scope.kind === "function") {
      return false; // a local alias, not part of the program's vocabulary
    } else if (node.type === "type_definition") {
      const type = node.childForFieldName("type");
      const body = type?.childForFieldName("body");
      const nameNode = declared(node.childForFieldName("declarator"));
      if (!nameNode) return false;
      def.name = x.text(nameNode);
      if (type && body && SPECIFIERS[type.type]) {
        // `typedef struct { … } jv;` names the struct; a named one is a symbol of its own.
        const own = type.childForFieldName("name");
        if (own && x.text(own) === def.name) return false;
        if (!own) {
          def.kind = SPECIFIERS[type.type] as Definition["kind"];
          def.signature = `typedef ${type.type.replace(/_specifier$/, "")} ${def.name}`;
          def.region = { start: body.startIndex, end: body.endIndex };
          return;
        }
      }
      def.signature = cap(signatureBetween(x.source, node.startIndex, node.endIndex, /;$/), SIGNATURE_MAX);
      def.region = null;
    } else if (node.type === "preproc_function_def") def.region = null;
  },

  namespace(m, scope, x) {
    const name = m.parts.name?.[0];
    if (!name) return { data: { anonymous: true } };
    return { prefix: [scope.prefix, x.text(name).replace(/::/g, ".")].filter(Boolean).join(".") };
  },

  call(m, scope, x) {
    const fn = m.parts.callee?.[0];
    if (!scope.symbol || !fn) return true;
    if (fn.type === "template_function" && CASTS.test(x.text(fn))) return true;
    if (fn.type !== "qualified_identifier" && fn.type !== "template_function") return;
    // `fmt::detail::check`, `std::vector<int>::size`, `make<T>`: read without template arguments.
    const raw = stripTemplates(x.text(fn)).replace(/\s+/g, "");
    scope.symbol.calls.push({ raw, ...splitSimpleCallee(raw), line: fn.startPosition.row + 1 });
    return true;
  },

  errorCall(call, x, m) {
    if (ERROR_CALL.test(call.name)) return true;
    const args = m.parts.arguments?.[0]?.namedChildren ?? [];
    return /^v?f(printf|puts)$/.test(call.name) && args.some((a) => x.text(a) === "stderr");
  },

  message(node, x) {
    // `jv_string("…")`, `_("…")`: a literal handed through a helper.
    return node.type === "call_expression" ? x.firstMessage(node.childForFieldName("arguments")) : null;
  },

  write(target, scope, x) {
    recordWrite(target, scope, x, x.text(target).replace(/->/g, "."));
  },

  roles: {
    parameter(m, scope, x) {
      const name = declared(m.node);
      if (name) scope.frame?.locals.add(x.text(name));
    },
    declared(m, scope, x) {
      const name = declared(m.node);
      // A prototype declares a function, not state.
      if (!name || name.parent?.type === "function_declarator") return;
      if (scope.frame) scope.frame.locals.add(x.text(name));
      else if (scope.kind === "file" || scope.kind === "namespace") x.moduleState.add(x.text(name));
    },
  },
};

export const cpp: LanguageSpec = c;
