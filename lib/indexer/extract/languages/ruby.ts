/**
 * Ruby: `class A::B` nests by its path, `private` makes what follows private, mixins
 * (`include M`) are bases, requires are imports (`require_relative` relative to the
 * file), and instance variables written are mutations (`@count`).
 */
import type { Node } from "web-tree-sitter";
import { cleanDocComments, collapseWhitespace, lineOf, pushUnique } from "../common";
import type { Definition, Extraction, LanguageSpec } from "../extraction";

/** Parents in which an identifier names something other than a call. */
const NOT_CALLS =
  /^(method|singleton_method|alias|undef|\w*parameters?|left_assignment_list|destructured_left_assignment|rest_assignment|exception_variable)$/;
/** Parents whose field there names a method, a target or a key, not a call. */
const NAMING_FIELD: Record<string, string> = {
  call: "method",
  assignment: "left",
  operator_assignment: "left",
  for: "pattern",
  pair: "key",
};

function isBareCall(node: Node): boolean {
  const parent = node.parent;
  if (!parent || NOT_CALLS.test(parent.type)) return false;
  const field = NAMING_FIELD[parent.type];
  return !field || parent.childForFieldName(field)?.id !== node.id;
}

/**
 * A method `define_method` makes: named by its symbol or string (`:ok?`, `"x"`; one built
 * by interpolation has no name to index), signed by the call, its body the block; only in
 * a class or module body.
 */
function defineByCall(def: Definition, x: Extraction): boolean {
  const call = def.match.node;
  const block = def.match.parts.region?.[0];
  if (call.type !== "call" || !block) return true;
  // Inside a method it defines at run time, on whatever class runs it: the block stays the method's code.
  if (def.scope.kind === "function") return false;
  const nameNode = def.match.parts.name?.[0];
  if (!nameNode || nameNode.descendantsOfType("interpolation").length > 0) return false;
  def.name = x.unquoted(nameNode).replace(/^:/, "");
  def.qualifiedName = def.scope.prefix ? `${def.scope.prefix}.${def.name}` : def.name;
  def.signature = collapseWhitespace(x.source.slice(call.startIndex, block.startIndex)).trim();
  return true;
}

export const ruby: LanguageSpec = {
  query: "ruby.scm",
  comments: new Set(["comment"]),
  signatureTrailing: /;$/,
  members: {},
  render: {
    identifier: "$",
    constant: "$",
    self: "$",
    instance_variable: "$",
    class_variable: "$",
    global_variable: "$",
    scope_resolution: "$",
    call: "{@receiver.}$method",
    element_reference: "@object[…]",
  },
  log: { methods: new Set(["error", "fatal", "warn"]), receiver: /^_*(log|logger|LOG|LOGGER|Log|Logger)$/ },
  strings: new Set(["string"]),
  interpolations: new Set(["interpolation"]),
  concatenations: new Set(["chained_string"]),
  messageRaise: "RuntimeError",
  binary: "binary",
  parenthesized: "parenthesized_statements",

  exported(def) {
    if (def.scope.kind === "function") return false;
    const wrapper = def.match.node.parent?.parent;
    if (
      wrapper?.type === "call" &&
      /^(private|protected)$/.test(wrapper.childForFieldName("method")?.text ?? "")
    )
      return false;
    return def.scope.data.visibility !== "private" && def.scope.data.visibility !== "protected";
  },

  define(def, x) {
    // The first definition in a module body is documented by comments the grammar puts before the body.
    const body = def.outer.parent;
    if (!def.docstring && body?.type === "body_statement" && body.firstNamedChild?.id === def.outer.id) {
      const comments: string[] = [];
      for (let c = body.previousNamedSibling; c?.type === "comment"; c = c.previousNamedSibling)
        comments.unshift(x.text(c));
      def.docstring = comments.length ? cleanDocComments(comments) : "";
    }
    // `class A::B` is B inside A.
    const path = def.name.split("::");
    def.name = path.pop() as string;
    if (path.length) def.qualifiedName = [def.scope.prefix, ...path, def.name].filter(Boolean).join(".");
    def.bases = def.bases.map((b) => b.replace(/^<\s*/, ""));
    if (def.match.node.type === "singleton_method") def.kind = "method";
    return defineByCall(def, x);
  },

  // `class << self`: what it defines are methods of the class.
  namespace: (_m, scope) => ({ kind: scope.kind }),

  errorCall: (call) => call.receiver === null && (call.name === "warn" || call.name === "abort"),
  message: (node, x) =>
    node.type === "call" && node.childForFieldName("method")?.text === "new"
      ? x.firstMessage(node.childForFieldName("arguments"))
      : null,

  write(target, scope, x) {
    const owner = scope.frame ? scope.symbol : null;
    const written =
      /^(@@?|\$)\w+/.exec(x.text(target))?.[0] ?? /^self\.\w+/.exec(x.text(target))?.[0] ?? null;
    if (owner && written) pushUnique(owner.mutates, written);
  },

  roles: {
    bareword(m, scope, x) {
      const name = x.text(m.node);
      // A bare `private` in a class body makes the methods after it private.
      if (/^(private|protected|public)$/.test(name) && scope.kind === "type") scope.data.visibility = name;
      else if (scope.symbol && !scope.frame?.locals.has(name) && isBareCall(m.node))
        scope.symbol.calls.push({ raw: name, name, receiver: null, line: lineOf(m.node) });
    },
    mixin(m, scope, x) {
      for (const value of m.parts.value ?? [])
        if (scope.symbol && scope.kind === "type") pushUnique(scope.symbol.bases, x.text(value));
    },
    require(m, _scope, x) {
      const path = m.parts.module?.[0];
      if (!path) return;
      const relative =
        /require_relative/.test(x.text(m.node).slice(0, 20)) && !x.unquoted(path).startsWith(".");
      x.addImport(`${relative ? "./" : ""}${x.unquoted(path)}`, [], lineOf(m.node));
    },
  },
};
