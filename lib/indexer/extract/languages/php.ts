/**
 * PHP: `namespace X;` holds what follows it, `use A\B\C` imports class C (found by its
 * autoload path), members are written `$this->x` / `self::x`, and error messages come
 * from `error_log`, `trigger_error` and logger calls (`$this->logger->error(…)`).
 */
import type { ExtractedCall } from "../../types";
import { addErrorString, isErrorSuperCall, lastIdentifier, lineOf, pushUnique } from "../common";
import type { LanguageSpec } from "../extraction";

const LOG_METHODS = /^(error|critical|alert|emergency|warning)$/;

function isErrorCall(call: ExtractedCall): boolean {
  if (call.receiver === null) return /^(error_log|trigger_error|user_error)$/.test(call.name);
  // An error value a result type is made of, returned for a caller to raise (`Error::create('unexpected whitespace')`).
  if (ERROR_FACTORY.test(call.name) && /(?:^|\\)\w*(?:Error|Exception)$/.test(call.receiver)) return true;
  return LOG_METHODS.test(call.name) && /log/i.test(lastIdentifier(call.receiver));
}

/** Static factories an error value is made with. */
const ERROR_FACTORY = /^(?:create|make|of|from|new|withMessage)$/;

export const php: LanguageSpec = {
  query: "php.scm",
  comments: new Set(["comment"]),
  signatureTrailing: /;$/,
  members: {},
  render: {
    variable_name: "$",
    name: "$",
    qualified_name: "$",
    relative_scope: "$",
    member_access_expression: "@object->$name",
    member_call_expression: "@object->$name()",
    scoped_call_expression: "@scope::$name()",
    function_call_expression: "@function()",
    subscript_expression: "@0[…]",
  },
  strings: new Set(["string", "encapsed_string"]),
  interpolations: new Set([
    "variable_name",
    "member_access_expression",
    "subscript_expression",
    "dynamic_variable_name",
  ]),
  binary: "binary_expression",
  concatenation: ".",
  parenthesized: "parenthesized_expression",
  errorCall: isErrorCall,
  message: (node, x) =>
    node.type === "argument" && node.firstNamedChild ? x.messageOf(node.firstNamedChild) : null,

  exported(def, x) {
    if (def.scope.kind === "function") return false;
    const visibility = def.match.node.namedChildren.find((c) => c.type === "visibility_modifier");
    return !visibility || x.text(visibility) === "public";
  },

  define(def) {
    if (def.match.node.type === "method_declaration") def.kind = "method";
  },

  namespace(m, scope, x) {
    const name = m.parts.name?.[0];
    const prefix = name ? x.text(name).replace(/^\\/, "").replace(/\\/g, ".") : scope.prefix;
    if (m.parts.body) return { prefix };
    // `namespace A\B;` holds everything up to the next namespace statement.
    let end = m.node.parent?.endIndex ?? Infinity;
    for (let s = m.node.nextNamedSibling; s; s = s.nextNamedSibling) {
      if (s.type === "namespace_definition") {
        end = s.startIndex;
        break;
      }
    }
    return { prefix, start: m.node.startIndex, end };
  },

  call(m, scope, x) {
    const owner = scope.symbol;
    const method = m.parts.method?.[0];
    if (!owner) return true;
    if (!method) return;
    const object = m.parts.receiver?.[0];
    const receiver = object ? x.render(object) : null;
    const name = x.text(method);
    const separator = m.node.type === "scoped_call_expression" ? "::" : "->";
    const call = { raw: `${receiver ?? ""}${separator}${name}`, name, receiver, line: lineOf(method) };
    owner.calls.push(call);
    if (isErrorCall(call) || isErrorSuperCall(call, owner, x.symbols))
      addErrorString(owner, x.firstMessage(m.parts.arguments?.[0]));
    return true;
  },

  write(target, scope, x) {
    const member = /^(\$this->\w+|(?:self|static)::\$\w+)/.exec(x.text(target));
    if (scope.frame && scope.symbol && member?.[1]) pushUnique(scope.symbol.mutates, member[1]);
  },

  roles: {
    mixin(m, scope, x) {
      for (const value of m.parts.value ?? [])
        if (scope.symbol && scope.kind === "type") pushUnique(scope.symbol.bases, x.text(value));
    },
    use(m, _scope, x) {
      const group = m.node.childForFieldName("body");
      const prefixNode = group ? m.node.namedChildren.find((c) => c.type === "namespace_name") : null;
      const prefix = prefixNode ? x.text(prefixNode) : "";
      for (const clause of (group ?? m.node).namedChildren) {
        if (clause.type !== "namespace_use_clause") continue;
        const alias = clause.childForFieldName("alias");
        const nameNode = clause.namedChildren.find((c) => c.id !== alias?.id);
        if (!nameNode) continue;
        const full = [prefix, x.text(nameNode)].filter(Boolean).join("\\").replace(/^\\/, "");
        const last = full.split("\\").pop() ?? full;
        x.addImport(full, [last], lineOf(m.node), { renamed: alias ? [[x.text(alias), last]] : [] });
      }
    },
    require(m, _scope, x) {
      const literal = m.node.descendantsOfType(["encapsed_string", "string"]).at(-1);
      if (literal) x.addImport(requirePath(x.text(m.node), x.unquoted(literal)), [], lineOf(m.node));
    },
  },
};

/** `require __DIR__ . "/x.php"` is relative to the requiring file. */
function requirePath(expression: string, literal: string): string {
  if (!/__DIR__|dirname\(\s*__FILE__\s*\)/.test(expression)) return literal;
  return `.${literal.startsWith("/") ? "" : "/"}${literal}`;
}
