/**
 * Java: privacy from modifiers, checked exceptions from `throws`, and field writes
 * reported as `this.x` whether written `this.x = …` or by the bare field name: bare
 * names wait for the end of their class, when its fields are known.
 */
import type { ExtractedSymbol } from "../../types";
import { lastIdentifier, pushUnique } from "../common";
import { stripGenerics, type Definition, type LanguageSpec, type Scope } from "../extraction";

/** Fields of one class and the bare-name writes waiting to be checked against them. */
interface ClassFrame {
  fields: Set<string>;
  writes: Array<{ symbol: ExtractedSymbol; name: string }>;
}

const classOf = (scope: Scope) => scope.data.cls as ClassFrame | undefined;

/**
 * Writes to a bare name that is a field of the enclosing class are `this.name` (Java,
 * C#): types keep their field names, methods share their class's, and the writes
 * wait for the end of the class. The query captures field names as `@field`.
 */
export const classFields: Pick<LanguageSpec, "unresolvedWrite" | "roles" | "exit"> & {
  open(def: Definition, fields?: Iterable<string>): void;
} = {
  open(def, fields = []) {
    def.inner.data = {
      cls:
        def.kind === "method" || def.kind === "function"
          ? def.scope.data.cls
          : { fields: new Set(fields), writes: [] },
    };
  },
  unresolvedWrite(scope, name) {
    if (scope.symbol) classOf(scope)?.writes.push({ symbol: scope.symbol, name });
  },
  roles: {
    field(m, scope, x) {
      classOf(scope)?.fields.add(x.text(m.node));
    },
  },
  exit(scope) {
    const cls = classOf(scope);
    if (scope.kind !== "type" || !cls) return;
    for (const write of cls.writes) {
      if (cls.fields.has(write.name)) pushUnique(write.symbol.mutates, `this.${write.name}`);
    }
  },
};

export const java: LanguageSpec = {
  query: "java.scm",
  comments: new Set(["line_comment", "block_comment"]),
  signatureTrailing: /;$/,
  members: { field_access: ["object", "field", "."] },
  render: {
    identifier: "$",
    this: "$",
    super: "$",
    type_identifier: "$",
    scoped_identifier: "$",
    field_access: "@object.$field",
    method_invocation: "{@object.}$name()",
    object_creation_expression: "new %type()",
    array_access: "@array[…]",
  },
  log: {
    methods: new Set(["error", "warn", "warning", "severe", "fatal"]),
    receiver: /^_*(log|logger|LOG|LOGGER|Log|Logger)$/,
  },
  strings: new Set(["string_literal"]),
  interpolations: new Set(["string_interpolation"]),
  binary: "binary_expression",
  parenthesized: "parenthesized_expression",
  self: "this",

  exported(def, x) {
    const modifiers = def.match.node.namedChildren.find((c) => c.type === "modifiers");
    // Privacy is read after the last annotation, as the signature is.
    const start = def.match.parts.decorator?.at(-1)?.endIndex ?? def.match.node.startIndex;
    const isPrivate =
      modifiers !== undefined && /\bprivate\b/.test(x.source.slice(start, modifiers.endIndex));
    return def.scope.public && def.scope.kind !== "function" && !isPrivate;
  },

  define(def, x) {
    // Methods of anonymous classes are not symbols; their bodies count for the enclosing method.
    if (def.kind === "method" && def.scope.kind !== "type") return false;
    // A record's components are its fields.
    const components = def.match.node.childForFieldName("parameters")?.namedChildren ?? [];
    classFields.open(
      def,
      components.map((p) => p.childForFieldName("name")).flatMap((n) => (n ? [x.text(n)] : [])),
    );
  },

  created(symbol, def, x) {
    for (const type of def.match.parts.type ?? [])
      pushUnique(symbol.raises, lastIdentifier(stripGenerics(x.text(type))));
  },

  message(node, x) {
    if (node.type !== "method_invocation") return null;
    const name = node.childForFieldName("name");
    if (!name || (x.text(name) !== "format" && x.text(name) !== "formatted")) return null;
    const object = node.childForFieldName("object");
    if (object?.type === "string_literal") return x.messageOf(object);
    return x.firstMessage(node.childForFieldName("arguments"));
  },

  unresolvedWrite: classFields.unresolvedWrite,
  roles: classFields.roles,
  exit: classFields.exit,
};
