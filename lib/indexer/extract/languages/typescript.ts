/**
 * TypeScript, TSX and JavaScript (one spec, two query sets). What a query cannot say:
 * signatures that start at a bound value (`const f = …`, `module.exports = …`),
 * which bindings are module state (`let`/`var`, or `const` written through), and
 * export status, settled at the end from export lists and class members' privacy.
 */
import type { Node } from "web-tree-sitter";
import type { ExtractedSymbol } from "../../types";
import { lineOf, signatureBetween, splitSimpleCallee } from "../common";
import type { Definition, Extraction, LanguageSpec, Scope } from "../extraction";

const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "generator_function"]);
/** Wrappers that leave the value they wrap: a cast, a `satisfies` check, parentheses. */
const CASTS = new Set(["as_expression", "satisfies_expression", "parenthesized_expression"]);
const CLASS_VALUES = new Set(["class", "class_declaration", "abstract_class_declaration"]);
const DECLARATIONS = new Set([
  "function_declaration",
  "generator_function_declaration",
  "class_declaration",
  "abstract_class_declaration",
]);
const COMMONJS = /^(?:module\.exports|(?:module\.)?exports\.([\w$]+))$/;
/** Fields of parameters/patterns that hold types or default values, not bound names. */
const PATTERN_SKIP_FIELDS = new Set(["type_annotation", "type", "key", "right", "value", "value_type"]);

interface ScriptState {
  /** module-level binding → its keyword (`let`, `const`, `var`, `function`) */
  bindings: Map<string, string>;
  exportNames: Set<string>;
  /** class members and whether they are private; their export status follows their class */
  members: Map<ExtractedSymbol, boolean>;
  /** members of top-level object literals, by the variable holding the object */
  objectMembers: Map<ExtractedSymbol, string>;
  /** object literals whose function members are symbols, by node id */
  objects: Map<number, { prefix: string | null; exported: boolean; holder: string | null; owner?: string }>;
  /** methods assigned to a constructor or object (`C.prototype.m = …`), by its qualified name */
  assigned: Map<ExtractedSymbol, string>;
  /** module-level names of symbols defined so far */
  declared: Set<string>;
  /** module-level variables holding a prototype (`var proto = C.prototype`) → the constructor */
  prototypes: Map<string, string>;
}

function state(x: Extraction): ScriptState {
  return (x.data.script ??= {
    bindings: new Map(),
    exportNames: new Set(),
    members: new Map(),
    objectMembers: new Map(),
    objects: new Map(),
    assigned: new Map(),
    declared: new Set(),
    prototypes: new Map(),
  }) as ScriptState;
}

const atModuleLevel = (scope: Scope) => scope.kind === "file" || scope.kind === "namespace";

const script: Omit<LanguageSpec, "query"> = {
  comments: new Set(["comment"]),
  signatureTrailing: /;$/,
  members: { member_expression: ["object", "property", "."] },
  render: {
    identifier: "$",
    this: "$",
    super: "$",
    property_identifier: "$",
    private_property_identifier: "$",
    member_expression: "@object.$property",
    call_expression: "@function()",
    subscript_expression: "@object[…]",
    non_null_expression: "@0",
    new_expression: "new @constructor()",
  },
  log: {
    methods: new Set(["error", "warn", "warning", "fatal"]),
    receiver: /^_*(console|log|logger|LOG|LOGGER|Log|Logger)$/,
  },
  strings: new Set(["string", "template_string"]),
  interpolations: new Set(["template_substitution"]),
  binary: "binary_expression",
  parenthesized: "parenthesized_expression",
  raiseName: /^[A-Z]/,
  self: "this",
  skipRoots: new Set(["module", "exports"]),

  exported(def, x) {
    const node = def.match.node;
    if (def.outer.type === "export_statement" || node.type === "assignment_expression") return true;
    return node.parent?.type === "object" && state(x).objects.get(node.parent.id)?.exported === true;
  },

  define(def, x) {
    const node = def.match.node;
    const value = def.match.parts.region?.[0];
    if (def.kind === "class") def.inner.data = { classBody: (value ?? node).childForFieldName("body")?.id };
    if (node.type === "assignment_expression" && def.kind === "method") {
      if (!atModuleLevel(def.scope) || !value) return false;
      // `C.prototype.m = function …` is the method `C.m`, `o.m = function …` is `o.m`, when
      // the file defines C or o (`Date.now = …` in a test patches a global).
      const left = node.childForFieldName("left");
      const object = left?.childForFieldName("object");
      const ownerNode = object?.type === "member_expression" ? object.childForFieldName("object") : object;
      if (!left || !ownerNode) return false;
      const s = state(x);
      const written = x.text(ownerNode);
      const owner = object?.type === "member_expression" ? written : (s.prototypes.get(written) ?? written);
      if (!s.declared.has(owner) && !s.bindings.has(owner)) return false;
      def.parent = def.scope.prefix ? `${def.scope.prefix}.${owner}` : owner;
      def.qualifiedName = `${def.parent}.${def.name}`;
      def.signature = `${x.text(left)} = ${head(value, x)}`;
    } else if (node.type === "assignment_expression") {
      const left = x.text(node.childForFieldName("left") ?? node);
      const commonjs = COMMONJS.exec(left);
      if (!commonjs || !atModuleLevel(def.scope) || !value) return false;
      def.name = nameOf(value, x) ?? commonjs[1] ?? "default";
      def.signature = `${left} = ${head(value, x)}`;
    } else if (node.type === "export_statement") {
      if (!value) return;
      def.name = nameOf(value, x) ?? "default";
      def.signature = head(value, x);
    } else if (node.type === "variable_declarator") {
      const keyword = keywordOf(node.parent);
      def.signature =
        def.kind === "class" && value
          ? `${keyword} ${def.name} = ${head(value, x)}`
          : `${keyword} ${def.signature}`;
    } else if (node.parent?.type === "object") {
      const object = state(x).objects.get(node.parent.id);
      if (!object) return false;
      const key = def.match.parts.name?.[0];
      if (key) def.name = x.unquoted(key);
      def.qualifiedName = object.prefix ? `${object.prefix}.${def.name}` : def.name;
      if (object.owner) def.parent = object.owner;
    } else if (node.parent?.type === "class_body") {
      // Members of a class that is no symbol (an unbound class expression) are not symbols either.
      if (def.scope.data.classBody !== node.parent.id) return false;
    } else if (DECLARATIONS.has(node.type)) {
      // A declared function or class is a local of the function around it.
      def.scope.frame?.locals.add(def.name);
    }
  },

  created(symbol, def, x) {
    const s = state(x);
    const node = def.match.node;
    if (def.scope.kind === "type") s.members.set(symbol, isPrivate(def, x));
    if (symbol.parent === null && atModuleLevel(def.scope)) s.declared.add(symbol.name);
    const holder = node.parent?.type === "object" ? s.objects.get(node.parent.id)?.holder : null;
    if (holder && symbol.parent === null) s.objectMembers.set(symbol, holder);
    const assigned = node.type === "assignment_expression" && def.kind === "method";
    const owner = node.parent?.type === "object" ? s.objects.get(node.parent.id)?.owner : undefined;
    if (symbol.parent && (assigned || owner)) s.assigned.set(symbol, symbol.parent);
  },

  namespace(m, scope) {
    // `declare module "x" { … }` names no namespace: its body is read as if it stood at file level.
    return m.parts.name?.[0]?.type === "string" ? { kind: scope.kind, prefix: scope.prefix } : {};
  },

  roles: {
    /** An object literal whose function members become symbols `holder.member`. */
    object(m, scope, x) {
      const object = m.parts.body?.[0];
      const name = m.parts.name?.[0];
      if (!object) return;
      const qualify = (n: string) => (scope.prefix ? `${scope.prefix}.${n}` : n);
      const s = state(x);
      const node = m.node;
      if (node.type === "variable_declarator" && name) {
        const exported = node.parent?.parent?.type === "export_statement";
        const holder = scope.kind === "file" ? x.text(name) : null;
        s.objects.set(object.id, { prefix: qualify(x.text(name)), exported, holder });
      } else if (node.type === "export_statement") {
        // Both objects of `export default cond ? {…} : {…}` are the default export.
        for (const body of m.parts.body ?? [])
          s.objects.set(body.id, { prefix: qualify("default"), exported: true, holder: null });
      } else if ("prototype" in m.props) {
        // `C.prototype = {…}`, `Object.assign(C.prototype, {…})`: members of `C`.
        if (!name || !atModuleLevel(scope)) return;
        if (!s.declared.has(x.text(name)) && !s.bindings.has(x.text(name))) return;
        const owner = qualify(x.text(name));
        for (const body of m.parts.body ?? [])
          s.objects.set(body.id, { prefix: owner, exported: false, holder: null, owner });
      } else {
        const commonjs = COMMONJS.exec(name ? x.text(name) : "");
        if (!commonjs || !atModuleLevel(scope)) return;
        // `module.exports = { get() {} }` exports its members under their own names.
        const prefix = commonjs[1] ? qualify(commonjs[1]) : scope.prefix;
        s.objects.set(object.id, { prefix, exported: true, holder: null });
      }
    },
    declarator(m, scope, x) {
      const nameNode = m.parts.name?.[0];
      const value = m.parts.value?.[0];
      if (!nameNode) return;
      const s = state(x);
      const frame = scope.frame;
      const keyword = keywordOf(m.node.parent);
      const isName = nameNode.type === "identifier";
      // `var proto = C.prototype`: methods assigned to `proto` are C's.
      const prototypeOf = value?.type === "member_expression" && value.childForFieldName("property");
      const constructor = value?.childForFieldName("object");
      if (
        isName &&
        !frame &&
        prototypeOf &&
        x.text(prototypeOf) === "prototype" &&
        constructor?.type === "identifier"
      )
        s.prototypes.set(x.text(nameNode), x.text(constructor));
      if (isName && value && FUNCTION_VALUES.has(uncast(value).type)) {
        if (frame) frame.locals.add(x.text(nameNode));
        else s.bindings.set(x.text(nameNode), "function");
      } else if (isName && value && CLASS_VALUES.has(value.type)) {
        frame?.locals.add(x.text(nameNode));
      } else {
        const names = new Set<string>();
        if (isName && value?.type === "object") names.add(x.text(nameNode));
        else bindPattern(nameNode, names, x);
        const isRequire = value?.type !== "object" && value !== undefined && requires(value, x);
        for (const name of names) {
          if (frame) frame.locals.add(name);
          else if (scope.kind === "file" && !isRequire) {
            s.bindings.set(name, keyword);
            x.moduleState.add(name);
          }
        }
      }
    },
    pattern(m, scope, x) {
      if (scope.frame) bindPattern(m.node, scope.frame.locals, x);
    },
    exportName(m, scope, x) {
      if (atModuleLevel(scope)) state(x).exportNames.add(x.text(m.node));
    },
    jsx(m, scope, x) {
      const nameNode = m.parts.callee?.[0];
      if (!scope.symbol || !nameNode) return;
      const text = x.text(nameNode);
      // Lower-case tags are intrinsic elements; only components are calls into user code.
      if (!/^[A-Z]/.test(text) && !text.includes(".")) return;
      scope.symbol.calls.push({ raw: `<${text}>`, ...splitSimpleCallee(text), line: lineOf(m.node) });
    },
  },

  moduleLevel(name, bare, x) {
    const keyword = state(x).bindings.get(name);
    // Reassigning needs a let/var binding; writing through one (`cache[k] = v`) works on a const too.
    return keyword === "let" || keyword === "var" || (!bare && keyword === "const");
  },

  /** Export lists and CommonJS exports apply last; class members follow their class. */
  finish(x) {
    const s = state(x);
    const byName = new Map<string, ExtractedSymbol>();
    for (const symbol of x.symbols) {
      if (symbol.parent === null && symbol.qualifiedName === symbol.name && s.exportNames.has(symbol.name))
        symbol.exported = true;
      const holder = s.objectMembers.get(symbol);
      if (holder !== undefined && s.exportNames.has(holder)) symbol.exported = true;
      byName.set(symbol.qualifiedName, symbol);
      // A method assigned to a constructor or object is public when its owner is.
      const owner = s.assigned.get(symbol);
      if (owner !== undefined)
        symbol.exported = (byName.get(owner)?.exported ?? false) || s.exportNames.has(owner);
      const isPrivate = s.members.get(symbol);
      if (isPrivate !== undefined) {
        const parent = symbol.parent ? byName.get(symbol.parent) : undefined;
        symbol.exported = (parent?.exported ?? false) && !isPrivate;
      }
    }
  },
};

export const typescript: LanguageSpec = { ...script, query: ["ecmascript.scm", "typescript.scm"] };
export const tsx: LanguageSpec = { ...script, query: ["ecmascript.scm", "typescript.scm", "jsx.scm"] };
export const javascript: LanguageSpec = { ...script, query: ["ecmascript.scm", "javascript.scm", "jsx.scm"] };

function keywordOf(declaration: Node | null): string {
  return declaration?.childForFieldName("kind")?.text ?? "var";
}

/** The expression inside TypeScript casts and parentheses: `((s) => …) as Create` is the arrow. */
function uncast(value: Node): Node {
  let inner = value;
  while (CASTS.has(inner.type) && inner.firstNamedChild) inner = inner.firstNamedChild;
  return inner;
}

function nameOf(value: Node, x: Extraction): string | null {
  const name = value.childForFieldName("name");
  return name ? x.text(name) : null;
}

/** A bound function's or class's head: from after its decorators up to its body. */
function head(value: Node, x: Extraction): string {
  let start = value.startIndex;
  for (const child of value.namedChildren) {
    if (child.type === "decorator") start = child.endIndex;
    else if (child.type !== "comment") break;
  }
  const body = value.childForFieldName("body");
  return signatureBetween(x.source, start, body?.startIndex ?? value.endIndex);
}

function isPrivate(def: Definition, x: Extraction): boolean {
  if (def.name.startsWith("#")) return true;
  const modifier = def.match.node.namedChildren.find((c) => c.type === "accessibility_modifier");
  return modifier !== undefined && x.text(modifier) === "private";
}

function requires(value: Node, x: Extraction): boolean {
  const fn = value.type === "call_expression" ? value.childForFieldName("function") : null;
  const first = value.childForFieldName("arguments")?.firstNamedChild;
  return fn !== null && first?.type === "string" && x.text(fn) === "require";
}

/** Adds every name bound by a parameter list / destructuring pattern. */
function bindPattern(node: Node, names: Set<string>, x: Extraction): void {
  const type = node.type;
  if (type === "identifier" || type === "shorthand_property_identifier_pattern") {
    names.add(x.text(node));
    return;
  }
  if (type === "type_annotation" || type === "comment" || type === "decorator") return;
  if (type === "pair_pattern") {
    const value = node.childForFieldName("value");
    if (value) bindPattern(value, names, x);
    return;
  }
  if (type === "assignment_pattern" || type === "object_assignment_pattern") {
    const left = node.childForFieldName("left");
    if (left) bindPattern(left, names, x);
    return;
  }
  for (let i = 0; i < node.namedChildCount; i++) {
    const child = node.namedChild(i);
    if (child && !PATTERN_SKIP_FIELDS.has(node.fieldNameForNamedChild(i) ?? "")) bindPattern(child, names, x);
  }
}
