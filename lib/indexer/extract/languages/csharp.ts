/**
 * C#: visibility from modifiers (interface members are public), XML doc comments read
 * as text, generic arguments left out of callees (`Get<T>()` calls `Get`), and error
 * messages of `Log.Error(…)`-style logging, `Console.Error` and `Trace.TraceError`.
 */
import { addErrorString, lineOf, stripTemplates } from "../common";
import type { LanguageSpec } from "../extraction";
import { classFields } from "./java";

const LOG_METHODS = /^(Log)?(Error|Fatal|Critical|Warning|Warn)$|^Trace(Error|Warning)$|^Fail$/;
/** Names of members the query names by a part: the destructor's class, the operator, the converted-to type, the indexer's parameters. */
const MEMBER_NAMES: Record<string, (part: string) => string> = {
  destructor_declaration: (name) => `~${name}`,
  operator_declaration: (operator) => `operator${operator}`,
  conversion_operator_declaration: (type) => `operator ${type}`,
  indexer_declaration: () => "this[]",
};

export const csharp: LanguageSpec = {
  query: "csharp.scm",
  comments: new Set(["comment"]),
  signatureTrailing: /;$/,
  members: { member_access_expression: ["expression", "name", "."] },
  render: {
    identifier: "$",
    this: "$",
    base: "$",
    generic_name: "%",
    member_access_expression: "@expression.%name",
    invocation_expression: "@function()",
    element_access_expression: "@expression[…]",
  },
  strings: new Set([
    "string_literal",
    "verbatim_string_literal",
    "interpolated_string_expression",
    "raw_string_literal",
  ]),
  interpolations: new Set(["interpolation"]),
  delimiters: new Set(["interpolation_start", "interpolation_quote"]),
  binary: "binary_expression",
  parenthesized: "parenthesized_expression",
  self: "this",
  ...classFields,

  exported(def, x) {
    if (def.scope.kind === "function") return false;
    if (def.scope.symbol?.kind === "interface") return true;
    return def.match.node.namedChildren.some(
      (c) => c.type === "modifier" && /^(public|protected)$/.test(x.text(c)),
    );
  },

  define(def) {
    // An auto-property matched only for its attributes has no code: not a symbol.
    if (!def.match.parts.name) return false;
    classFields.open(def);
    def.name = stripTemplates(def.name);
    def.bases = def.bases.map((b) => b.replace(/^:\s*/, ""));
    def.decorators = def.decorators.map((d) => d.replace(/^\[\s*|\s*\]$/g, ""));
    // `/// <summary>Writes …</summary>` reads as "Writes …".
    def.docstring = def.docstring
      .replace(/<\/?(summary|remarks|returns|para|c|code)>/g, "")
      .replace(/<(see|paramref|typeparamref) \w+="([^"]+)"\s*\/>/g, "$2")
      .trim();
    const type = def.match.node.type;
    if (MEMBER_NAMES[type]) def.name = MEMBER_NAMES[type](def.name);
    if (type === "property_declaration" || type === "indexer_declaration" || type === "event_declaration")
      def.kind = "method";
  },

  namespace(m, _scope, x) {
    // `namespace A.B;` holds the rest of the file.
    const file = m.node.type === "file_scoped_namespace_declaration" ? m.node.parent : null;
    const name = m.parts.name?.[0];
    return file ? { prefix: name ? x.text(name) : null, start: m.node.startIndex, end: file.endIndex } : {};
  },

  call(m, scope, x) {
    const fn = m.parts.callee?.[0];
    if (!scope.symbol || !fn) return true;
    const call = x.describe(fn);
    // `Get<T>()` calls `Get`.
    scope.symbol.calls.push({ ...call, raw: stripTemplates(call.raw), name: stripTemplates(call.name) });
    const receiver = call.receiver ?? "";
    if ((LOG_METHODS.test(call.name) && receiver) || /(^|\.)(Console\.Error|Debug)$/.test(receiver))
      addErrorString(scope.symbol, x.firstMessage(m.parts.arguments?.[0]));
    return true;
  },

  message: (node, x) =>
    node.type === "argument" && node.firstNamedChild ? x.messageOf(node.firstNamedChild) : null,
  stringText: (node, x) => (node.type === "verbatim_string_literal" ? x.text(node).slice(2, -1) : undefined),

  roles: {
    ...classFields.roles,
    using(m, _scope, x) {
      const parts = m.node.namedChildren.filter((c) => c.type !== "comment");
      const alias = m.node.childForFieldName("name");
      const target = parts.find((c) => c.id !== alias?.id);
      if (!target) return;
      const isStatic = /^\s*(global\s+)?using\s+static\b/.test(x.text(m.node));
      x.addImport(x.text(target), isStatic ? ["*"] : [], lineOf(m.node), {
        local: alias ? x.text(alias) : null,
      });
    },
  },
};
