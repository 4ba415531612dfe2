/**
 * Declared receiver types. A call on a variable, a parameter or a field (`rule.validate()`,
 * `s.ngin.start()`, `this.parser.next()`, `new Boot(ctx).parse()`) names its method only;
 * which class's method it is follows from what the code declares: typed parameters and
 * locals, locals built by a constructor (`var x = new Foo()`, `x := &Foo{}`, `Foo::new()`),
 * loop variables over a typed collection, and each class's or struct's field types. This
 * pass reads those declarations from the syntax tree and writes the receiver's type on the
 * call (`ExtractedCall.type`), reduced to the element type a method runs on (`Arc<dyn T>`,
 * `List<T>`, `*T`, `T[]`, `Optional<T>` → `T`); resolution looks the method up on it.
 * An element or unwrapped value keeps that type (`stack[i].close()`,
 * `list.last_mut().expect(…).next()`, `opt.get().run()`), and a Rust field whose type is a
 * parameter of its struct takes the argument the method's `impl` gives it
 * (`impl FilterEntry<IntoIter, P>`: `self.it` is an `IntoIter`).
 * It also picks, for a bare call to an overloaded method of the caller's own class (Java,
 * C#), the overload whose parameters fit the call's argument count.
 */
import type { Node } from "web-tree-sitter";
import type { CodeLanguage, ExtractedSymbol } from "../types";
import { splitTopLevel } from "./common";
import { lastSegment, reduceType } from "./type-names";

/** One declared name: a variable or parameter of the function around it, or a field of the type around it. */
interface Declaration {
  row: number;
  name: string;
  /** Declared or constructed type, reduced; absent when it is the element type of `of`. */
  type?: string;
  /** Receiver-shaped expression whose type this name takes (a loop over `rules`, `self.app = app`). */
  of?: string;
  field: boolean;
  /** The function a field is assigned in: where `of` is read (`self.app = app` in `__init__`). */
  scope?: ExtractedSymbol;
  /** The call the name is assigned from, when no type is written (`x := New()`): its name and lines. */
  result?: CallSite;
}

/** Where a call's name is written: a call of the function with this name on one of these 1-based lines. */
interface CallSite {
  name: string;
  first: number;
  last: number;
  /** The callee as written (`logging.getLogger`), for a value assigned outside the function that uses it. */
  callee: string;
}

/** Rust structs' type parameters, and the type arguments each `impl` block gives its struct. */
interface Generics {
  params: Map<string, string[]>;
  impls: { type: string; args: string[]; first: number; last: number }[];
}

/** A bare call's argument count, for overload choice. */
interface BareCall {
  row: number;
  name: string;
  /** Each argument as a receiver-shaped path (`in`, `this.reader`, `new Foo()`), or null. */
  args: (string | null)[];
}

/** Values that are a name or a member path (`app`, `self.app`, `$this->app`), not literals or calls. */
const NAMED_VALUE =
  /^(?:identifier|variable_name|field_access|member_expression|attribute|selector_expression|field_expression|member_access_expression|index_expression|subscript_expression|element_access_expression|array_access|subscript)$/;

/**
 * Calls that hand back the element or the wrapped value of what they are called on
 * (`last_mut()`, `expect()`, `get()`, `orElseThrow()`, `First()`): the receiver's declared
 * type is already reduced to that element, so it passes through them.
 */
const ELEMENT_ACCESSORS = new Set(
  (
    "unwrap expect unwrap_or_default unwrap_or unwrap_or_else as_ref as_mut as_deref as_deref_mut borrow " +
    "borrow_mut lock first first_mut last last_mut get get_mut pop pop_front pop_back shift front front_mut back back_mut peek peek_mut " +
    "orElseThrow orElse getFirst getLast peekFirst peekLast poll element First FirstOrDefault Last " +
    "LastOrDefault Single SingleOrDefault ElementAt at"
  ).split(" "),
);

/** Node types that declare names, with the fields their names, types and values sit in. */
const DECLARATION_TYPES = (
  "formal_parameter parameter required_parameter optional_parameter parameter_declaration " +
  "simple_parameter property_promotion_parameter typed_parameter typed_default_parameter " +
  "local_variable_declaration variable_declaration variable_declarator short_var_declaration var_spec " +
  "let_declaration assignment assignment_expression declaration field_declaration property_declaration " +
  "public_field_definition enhanced_for_statement foreach_statement range_clause for_expression " +
  "for_in_statement for_statement"
).split(" ");

/** Declarations that read their own declarators' names and values. */
const DECLARATOR_PARENTS = new Set([
  "local_variable_declaration",
  "field_declaration",
  "variable_declaration",
]);

/** Declarations that always declare a member of the type around them. */
const FIELD_NODES = new Set([
  "field_declaration",
  "property_declaration",
  "public_field_definition",
  "property_promotion_parameter",
]);

/** Bare calls counted for overload choice: Java and C# methods call their class's own methods unqualified. */
const BARE_CALL_NODES: Partial<Record<CodeLanguage, string>> = {
  java: "method_invocation",
  csharp: "invocation_expression",
};

/** Languages whose declarations this pass reads (Ruby and untyped JavaScript declare no types). */
const TYPED = new Set<CodeLanguage>([
  "python",
  "typescript",
  "tsx",
  "java",
  "go",
  "rust",
  "cpp",
  "csharp",
  "php",
]);

const SELF_NAMES = new Set(["this", "self", "$this", "Self"]);

/**
 * A receiver as one dotted path: `$this->parser` → `this.parser`, `a?.b!` → `a.b`, `(*s).x` → `s.x`;
 * an element read is its collection's path (`self.list[i]` → `self.list`), whose type is the element's.
 */
function normalise(receiver: string): string {
  return receiver
    .replace(/->|\?\.|::/g, ".")
    .replace(/\[[^[\]]*\]/g, "")
    .replace(/[$!]/g, "")
    .replace(/^\(\s*\*?\s*(\w+)\s*\)/, "$1")
    .replace(/^&\s*(?:mut\s+)?/, "");
}

/** Reads declarations and bare calls from the syntax tree and types the calls of `symbols` in place. */
export function annotateReceiverTypes(language: CodeLanguage, root: Node, symbols: ExtractedSymbol[]): void {
  if (!TYPED.has(language) || symbols.length === 0) return;
  // Bare calls matter only where a class overloads a method name.
  const seen = new Set<string>();
  const overloaded = new Set<string>();
  for (const s of symbols) {
    if (!isFunction(s)) continue;
    if (seen.has(s.qualifiedName)) overloaded.add(s.name);
    seen.add(s.qualifiedName);
  }
  const { declarations, bareCalls, generics } = readTree(
    root,
    overloaded.size ? BARE_CALL_NODES[language] : undefined,
    overloaded,
  );
  const typing = new Typing(symbols, declarations, generics);
  for (const symbol of symbols) {
    if (symbol.calls.length === 0) continue;
    for (const call of symbol.calls) {
      if (call.receiver) {
        const receiver = normalise(call.receiver);
        const type = typing.receiverType(symbol, receiver, call.line);
        if (type) call.type = type;
        const from = typing.resultOf(symbol, receiver, call.line);
        if (from) call.from = from;
      }
    }
  }
  if (bareCalls.length) chooseOverloads(symbols, bareCalls, typing);
}

/** Declarations by the symbol they belong to, and the lookups over them. */
class Typing {
  private readonly vars = new Map<ExtractedSymbol, Map<string, Declaration>>();
  /** Field types by the short name of the type that declares them. */
  private readonly fields = new Map<string, Map<string, Declaration>>();
  /** Names declared at the top of the file (`log = logging.getLogger(__name__)`, `var logger = zap.New()`). */
  private readonly module = new Map<string, Declaration>();
  private readonly byQualified = new Map<string, ExtractedSymbol>();

  constructor(
    symbols: ExtractedSymbol[],
    declarations: Declaration[],
    private readonly generics: Generics,
  ) {
    for (const s of symbols)
      if (!this.byQualified.has(s.qualifiedName)) this.byQualified.set(s.qualifiedName, s);
    const functions = innermostByLine(symbols.filter(isFunction));
    const types = innermostByLine(symbols.filter((s) => !isFunction(s)));
    for (const d of declarations) {
      const line = d.row + 1;
      const fn = functions[line] ?? null;
      const type = types[line] ?? null;
      const asField = d.field || (type !== null && (fn === null || contains(fn, type)));
      if (asField) {
        if (!type) continue;
        const owner = d.name.startsWith("self.") ? d.name.slice(5) : d.name;
        let map = this.fields.get(type.name);
        if (!map) this.fields.set(type.name, (map = new Map()));
        if (!map.has(owner)) map.set(owner, { ...d, name: owner, ...(fn ? { scope: fn } : {}) });
      } else if (fn) {
        let map = this.vars.get(fn);
        if (!map) this.vars.set(fn, (map = new Map()));
        if (!map.has(d.name)) map.set(d.name, d);
      } else if (!type && !d.of && !this.module.has(d.name)) this.module.set(d.name, d);
    }
  }

  /** The type of a dotted receiver seen from inside `symbol`, or null. */
  // (also the type of a call's argument written as a name, for overload choice)
  receiverType(symbol: ExtractedSymbol, receiver: string, line: number, depth = 0): string | null {
    if (depth > 3) return null;
    const created = /^new\s+([\w$.\\]+)/.exec(receiver);
    if (created?.[1]) return reduceType(created[1]);
    const parts = receiver.split(".");
    const head = parts[0] ?? "";
    if (!/^[\w$#]+$/.test(head) || parts.some((p) => !/^[\w$#]+(?:\(.*\))?$/.test(p))) return null;
    const owner = this.ownerType(symbol);
    let type: string | null = null;
    const rest = parts.slice(1);
    if (SELF_NAMES.has(head)) {
      // `self.m()` alone is resolved by the class rules; only a field chain needs a type here.
      if (rest.length === 0 || !owner) return null;
      type = owner;
    } else {
      const declared = this.variable(symbol, head);
      if (declared) type = this.declaredType(symbol, declared, line, depth);
      if (!type && owner) {
        // A field named bare (`_parser.Next()` in C#, `parser_->next()` in C++).
        const field = this.fields.get(owner)?.get(head);
        if (field) type = this.declaredType(symbol, field, line, depth);
      }
      if (!type && !declared) type = this.moduleValue(symbol, head)?.type ?? null;
      if (!type) return null;
    }
    for (const segment of rest) {
      const typeName = lastSegment(type);
      const accessor = /^(\w+)\(.*\)$/.exec(segment)?.[1];
      if (accessor !== undefined) {
        // The type's own method of that name may return anything.
        if (!ELEMENT_ACCESSORS.has(accessor) || this.byQualified.has(`${typeName}.${accessor}`)) return null;
        continue;
      }
      const field: Declaration | undefined = this.fields.get(typeName)?.get(segment);
      type = field ? this.declaredType(symbol, field, line, depth) : null;
      if (type && field) type = this.specialised(typeName, type, line);
      if (!type) return null;
    }
    return type;
  }

  /**
   * A field type that is a parameter of its struct (`it: I` in `FilterEntry<I, P>`), as the
   * `impl` around `line` instantiates it (`impl<P> … FilterEntry<IntoIter, P>` → `IntoIter`).
   */
  private specialised(owner: string, type: string, line: number): string | null {
    const index = this.generics.params.get(owner)?.indexOf(type) ?? -1;
    if (index < 0) return type;
    const impl = this.generics.impls.find((i) => i.type === owner && i.first <= line && line <= i.last);
    const argument = impl?.args[index];
    return argument ? reduceType(argument) : type;
  }

  /**
   * For a local assigned from a call of this symbol's own (`x := New()`), that call's `raw`;
   * for a field or a top-level name assigned from a call elsewhere in the file
   * (`self.log = logging.getLogger(…)` in `__init__`, a module's `log = logging.getLogger(…)`),
   * the callee as written there, which tells resolution when the value is a library's.
   */
  resultOf(symbol: ExtractedSymbol, receiver: string, line: number): string | null {
    const local = /^[\w$]+$/.test(receiver) ? this.vars.get(symbol)?.get(receiver) : undefined;
    const site = local?.result;
    if (local) {
      if (!site || site.first > line) return null;
      const call = symbol.calls.find(
        (c) => c.name === site.name && c.line >= site.first && c.line <= site.last,
      );
      return call?.raw ?? null;
    }
    const self = /^(?:this|self)\.([\w$#]+)$/.exec(receiver)?.[1];
    const owner = this.ownerType(symbol);
    if (self !== undefined) return (owner && this.fields.get(owner)?.get(self)?.result?.callee) ?? null;
    if (!/^[\w$]+$/.test(receiver) || this.variable(symbol, receiver)) return null;
    const field = owner ? this.fields.get(owner)?.get(receiver) : undefined;
    return (field ? field.result?.callee : this.moduleValue(symbol, receiver)?.result?.callee) ?? null;
  }

  /** A top-level name the symbol sees: not when one of its parameters (or an outer function's) has that name. */
  private moduleValue(symbol: ExtractedSymbol, name: string): Declaration | null {
    const d = this.module.get(name);
    if (!d) return null;
    const word = new RegExp(`(?<![\\w$])${name.replace(/\$/g, "\\$")}(?![\\w$])`);
    for (
      let s: ExtractedSymbol | undefined = symbol;
      s && isFunction(s);
      s = s.parent ? this.byQualified.get(s.parent) : undefined
    )
      if (word.test(s.signature.replace(/^[^(]*/, ""))) return null;
    return d;
  }

  private declaredType(symbol: ExtractedSymbol, d: Declaration, line: number, depth: number): string | null {
    if (d.type) return d.type === "Self" || d.type === "self" ? this.ownerType(symbol) : d.type;
    return d.of ? this.receiverType(d.scope ?? symbol, d.of, line, depth + 1) : null;
  }

  /** A variable of the symbol or of a function around it (a closure sees its outer locals). */
  private variable(symbol: ExtractedSymbol, name: string): Declaration | null {
    for (
      let s: ExtractedSymbol | undefined = symbol;
      s;
      s = s.parent ? this.byQualified.get(s.parent) : undefined
    ) {
      const hit = this.vars.get(s)?.get(name);
      if (hit) return hit;
      if (!isFunction(s)) return null;
    }
    return null;
  }

  /** The short name of the class, struct or impl type a method belongs to. */
  private ownerType(symbol: ExtractedSymbol): string | null {
    for (let s: ExtractedSymbol | undefined = symbol; s;) {
      if (!isFunction(s)) return s.name;
      if (!s.parent) return null;
      const parent = this.byQualified.get(s.parent);
      // A Go method or a Rust impl method names its type without a symbol around it in this file.
      if (!parent) return lastSegment(s.parent);
      s = parent;
    }
    return null;
  }
}

function isFunction(s: ExtractedSymbol): boolean {
  return s.kind === "function" || s.kind === "method";
}

function contains(outer: ExtractedSymbol, inner: ExtractedSymbol): boolean {
  return outer.startLine <= inner.startLine && inner.endLine <= outer.endLine && outer !== inner;
}

/** For each line, the smallest of these symbols that holds it (larger ones are written first, smaller over them). */
function innermostByLine(symbols: ExtractedSymbol[]): (ExtractedSymbol | undefined)[] {
  const out: (ExtractedSymbol | undefined)[] = [];
  const bySize = [...symbols].sort((a, b) => b.endLine - b.startLine - (a.endLine - a.startLine));
  for (const s of bySize) for (let line = s.startLine; line <= s.endLine; line++) out[line] = s;
  return out;
}

/** The declarations (and, for Java and C#, bare calls) of a tree, found by the parser's own search in one pass. */
function readTree(
  root: Node,
  bareCallType: string | undefined,
  overloaded: Set<string>,
): { declarations: Declaration[]; bareCalls: BareCall[]; generics: Generics } {
  const declarations: Declaration[] = [];
  const bareCalls: BareCall[] = [];
  const generics: Generics = { params: new Map(), impls: [] };
  for (const node of root.descendantsOfType([
    ...DECLARATION_TYPES,
    ...GENERIC_TYPES,
    ...(bareCallType ? [bareCallType] : []),
  ])) {
    if (!node) continue;
    if (GENERIC_TYPES.includes(node.type)) readGenerics(node, generics);
    else if (node.type === bareCallType) {
      const call = bareCall(node, overloaded);
      if (call) bareCalls.push(call);
    } else {
      const parentType = node.parent?.type ?? "";
      // A Java or C# declarator is read with the declaration around it (its type is there).
      if (node.type === "variable_declarator" && DECLARATOR_PARENTS.has(parentType)) continue;
      read(node, parentType, declarations);
    }
  }
  return { declarations, bareCalls, generics };
}

/** Rust items that name a struct's type parameters or instantiate them. */
const GENERIC_TYPES = ["struct_item", "impl_item"];

function readGenerics(node: Node, out: Generics): void {
  const type = node.childForFieldName("type");
  if (node.type === "struct_item") {
    const name = node.childForFieldName("name")?.text;
    const params = (node.childForFieldName("type_parameters")?.namedChildren ?? [])
      .map((p) => (p?.childForFieldName("name") ?? (p?.type === "type_identifier" ? p : null))?.text)
      .filter((p): p is string => !!p);
    if (name && params.length) out.params.set(name, params);
  } else if (type?.type === "generic_type") {
    const name = type.childForFieldName("type")?.text;
    const args = (type.childForFieldName("type_arguments")?.namedChildren ?? []).map((a) => a?.text ?? "");
    if (name)
      out.impls.push({ type: name, args, first: node.startPosition.row + 1, last: node.endPosition.row + 1 });
  }
}

function bareCall(node: Node, overloaded: Set<string>): BareCall | null {
  if (node.childForFieldName("object")) return null;
  const fn = node.childForFieldName("name") ?? node.childForFieldName("function");
  if (!fn || fn.type !== "identifier" || !overloaded.has(fn.text)) return null;
  const list = node.childForFieldName("arguments");
  const args = (list?.namedChildren ?? [])
    .filter((c): c is Node => !!c && c.type !== "comment")
    .map((c) => {
      const value = c.type === "argument" ? (c.namedChildren[c.namedChildren.length - 1] ?? c) : c;
      if (value.type === "object_creation_expression") {
        const type = constructedType(value);
        return type ? `new ${type}` : null;
      }
      return expressionPath(value);
    });
  return { row: fn.startPosition.row, name: fn.text, args };
}

/** The declarations one node makes. */
function read(node: Node, parentType: string, out: Declaration[]): void {
  const row = node.startPosition.row;
  const field =
    FIELD_NODES.has(node.type) ||
    FIELD_NODES.has(parentType) ||
    (node.type === "required_parameter" &&
      node.namedChildren.some((c) => c?.type === "accessibility_modifier"));
  const add = (nameNode: Node | null | undefined, type: string | null, of?: string, value?: Node | null) => {
    const name = nameNode ? nameOf(nameNode) : null;
    // A value's call counts only where no type is written (`Foo x = make()` is a Foo).
    const result = (!declared || declared.text === "var") && value ? callSite(value) : null;
    if (!name || (!type && !of && !result)) return;
    const selfField = /^(?:this|self)\.([\w$#]+)$/.exec(name);
    out.push({
      row,
      name: selfField ? (selfField[1] ?? name) : name,
      ...(type ? { type } : of ? { of } : {}),
      ...(result ? { result } : {}),
      field: field || selfField !== null,
    });
  };
  const written = node.childForFieldName("type");
  const declared =
    written && !/^(?:var|auto|implicit_type|placeholder_type_specifier)$/.test(written.type) ? written : null;
  const declaredType = declared
    ? reduceType(declared.type === "type_annotation" ? declared.text.slice(1) : declared.text)
    : null;
  switch (node.type) {
    case "enhanced_for_statement":
    case "foreach_statement":
    case "for_expression":
    case "for_in_statement":
    case "for_statement":
    case "range_clause": {
      const target =
        node.childForFieldName("name") ?? node.childForFieldName("left") ?? node.childForFieldName("pattern");
      const source = node.childForFieldName("value") ?? node.childForFieldName("right");
      if (
        node.type === "for_in_statement" &&
        !/\bof\b/.test(node.text.slice(0, (source?.startIndex ?? 0) - node.startIndex))
      )
        return;
      // Go `for _, v := range xs`: the value is the second name.
      const names = target?.type === "expression_list" ? target.namedChildren : [target];
      const name = (node.type === "range_clause" ? names[1] : names[0]) ?? null;
      add(name, declaredType, source ? (expressionPath(source) ?? undefined) : undefined);
      return;
    }
    case "short_var_declaration":
    case "assignment":
    case "assignment_expression": {
      const left = node.childForFieldName("left");
      const right = node.childForFieldName("right");
      const lefts =
        left?.type === "expression_list" || left?.type === "pattern_list" ? left.namedChildren : [left];
      const rights = right?.type === "expression_list" ? right.namedChildren : [right];
      lefts.forEach((l, i) => {
        const value = rights[i];
        const type = declaredType ?? (value ? constructedType(value) : null);
        const named = value && !type ? valuePath(value) : null;
        add(l, type, named ?? undefined, value);
      });
      return;
    }
  }
  const value = node.childForFieldName("value") ?? node.childForFieldName("default");
  const type = declaredType ?? (value ? constructedType(value) : null);
  const names = [
    ...node.childrenForFieldName("name"),
    ...node.childrenForFieldName("declarator"),
    ...node.childrenForFieldName("pattern"),
  ];
  // C# `variable_declaration`, PHP `property_declaration`, Python `typed_parameter`: names in child nodes.
  if (names.length === 0)
    for (const child of node.namedChildren)
      if (child && /^(?:variable_declarator|property_element|identifier)$/.test(child.type))
        names.push(child);
  for (const n of names) {
    if (!n) continue;
    // `Foo x = new Foo()` in Java or C#: each declarator may construct its own value.
    const own = n.type === "variable_declarator" || n.type === "init_declarator" ? declaratorValue(n) : null;
    // `var x: Foo = …` (TypeScript): the declarator carries its own annotation.
    const annotation = n.type === "variable_declarator" ? n.childForFieldName("type") : null;
    const typed =
      type ?? (annotation ? reduceType(annotation.text) : null) ?? (own ? constructedType(own) : null);
    const source = annotation ? null : (own ?? value);
    add(n, typed, !typed && source ? (valuePath(source) ?? undefined) : undefined, source);
  }
}

/**
 * The receiver-shaped path a local takes its type from: a name or field (`self.parser`), an
 * element (`self.list[i]`), or one unwrapped through element accessors
 * (`self.stack.last_mut().expect("…")` → `self.stack.last_mut().expect()`).
 */
function valuePath(value: Node): string | null {
  if (NAMED_VALUE.test(value.type)) return expressionPath(value);
  if (!CALL_NODES.has(value.type)) return null;
  let text = value.text;
  for (let guard = 0; guard < 4 && /\([^()]*[^()\s][^()]*\)/.test(text); guard++)
    text = text.replace(/\([^()]*\)/g, "()");
  const path = normalise(text.replace(/\s+/g, ""));
  const last = /\.(\w+)\(\)$/.exec(path)?.[1];
  return last && ELEMENT_ACCESSORS.has(last) && /^[\w$#]+(?:\.[\w$#]+(?:\(\))?)+$/.test(path) ? path : null;
}

function declaratorValue(n: Node): Node | null {
  const value = n.childForFieldName("value");
  if (value) return value;
  const named = n.namedChildren;
  return named.length > 1 ? (named[named.length - 1] ?? null) : null;
}

/** The name a declarator, pattern or assignment target binds; `this.x`/`self.x` for a field. */
function nameOf(node: Node): string | null {
  switch (node.type) {
    case "identifier":
    case "field_identifier":
    case "property_identifier":
    case "private_property_identifier":
    case "shorthand_property_identifier_pattern":
      return node.text;
    case "variable_name":
      return node.text.replace(/^\$/, "");
    case "property_element":
    case "variable_declarator": {
      const name = node.childForFieldName("name") ?? node.namedChildren[0];
      return name ? nameOf(name) : null;
    }
    case "init_declarator":
    case "pointer_declarator":
    case "reference_declarator":
    case "mut_pattern": {
      const inner =
        node.childForFieldName("declarator") ?? node.namedChildren.find((c) => c?.type !== "type_qualifier");
      return inner ? nameOf(inner) : null;
    }
    case "attribute":
    case "member_expression":
    case "member_access_expression":
    case "field_access":
    case "field_expression": {
      const path = expressionPath(node);
      return path && /^(?:this|self)\.[\w$#]+$/.test(path) ? path : null;
    }
  }
  return null;
}

/** A receiver-shaped expression as a dotted path (`self.rules`, `this.items`, `xs`), or null. */
function expressionPath(node: Node): string | null {
  if (
    node.type === "reference_expression" ||
    node.type === "unary_expression" ||
    node.type === "parenthesized_expression"
  ) {
    const inner =
      node.childForFieldName("value") ?? node.childForFieldName("operand") ?? node.namedChildren[0];
    return inner ? expressionPath(inner) : null;
  }
  const text = normalise(node.text);
  return /^[\w$#]+(?:\.[\w$#]+)*$/.test(text) ? text : null;
}

/** The type a value constructs: `new Foo(…)`, `&Foo{…}`, `Foo { … }`, `Foo::new(…)`, `NewFoo(…)`, `Foo(…)` (Python). */
function constructedType(node: Node): string | null {
  switch (node.type) {
    case "object_creation_expression": {
      const type =
        node.childForFieldName("type") ?? node.namedChildren.find((c) => c && /name|identifier/.test(c.type));
      return type ? reduceType(type.text) : null;
    }
    case "new_expression": {
      const type = node.childForFieldName("constructor") ?? node.childForFieldName("type");
      return type ? reduceType(type.text) : null;
    }
    case "composite_literal":
      return reduceType(node.childForFieldName("type")?.text ?? "");
    case "struct_expression":
      return reduceType(node.childForFieldName("name")?.text ?? "");
    case "unary_expression":
    case "reference_expression":
    case "await_expression": {
      const inner =
        node.childForFieldName("operand") ?? node.childForFieldName("value") ?? node.namedChildren[0];
      return inner ? constructedType(inner) : null;
    }
    case "call_expression":
    case "call":
      return factoryType(node.childForFieldName("function"));
  }
  return null;
}

/** Nodes that call: a value built by one of these is what the called function returns. */
const CALL_NODES = new Set(
  "call_expression call method_invocation invocation_expression function_call_expression member_call_expression scoped_call_expression nullsafe_member_call_expression".split(
    " ",
  ),
);

/**
 * The call a value is the result of (`New()`, `c.get()?`, `await this.load()`, `make().unwrap()`),
 * where its name is written; null when the value is no call.
 */
function callSite(value: Node, depth = 0): CallSite | null {
  if (depth > 4) return null;
  if (
    /^(?:try_expression|await_expression|non_null_expression|parenthesized_expression|equals_value_clause)$/.test(
      value.type,
    )
  ) {
    const inner = value.namedChildren.find((c) => c && c.type !== "comment");
    return inner ? callSite(inner, depth + 1) : null;
  }
  // Go `var logger = zap.NewExample()`: one value in a list.
  if (value.type === "expression_list" && value.namedChildCount === 1) {
    const only = value.namedChildren[0];
    return only ? callSite(only, depth + 1) : null;
  }
  if (!CALL_NODES.has(value.type)) return null;
  const callee = value.childForFieldName("name") ?? value.childForFieldName("function");
  if (!callee) return null;
  const text = callee.text.replace(/\s*<[^<>]*>\s*$/, "");
  const name = /([A-Za-z_$][\w$]*)$/.exec(text)?.[1];
  if (!name) return null;
  // `.unwrap()` and `.expect(…)` let a Rust value through: the call before them returned it.
  if (/^(?:unwrap|expect|unwrap_or_default)$/.test(name)) {
    const object = callee.childForFieldName("value") ?? callee.childForFieldName("object");
    return object ? callSite(object, depth + 1) : null;
  }
  return {
    name,
    first: value.startPosition.row + 1,
    last: callee.endPosition.row + 1,
    callee: text.replace(/\s+/g, ""),
  };
}

/** `Foo::new` / `Foo::default` (Rust), `NewFoo` / `pkg.NewFoo` (Go), a capitalised callee (Python `Foo(…)`). */
function factoryType(fn: Node | null): string | null {
  if (!fn) return null;
  const text = fn.text;
  const rust = /^([\w:]*[A-Z]\w*)::(?:new|default|from|with_\w+|new_\w+|builder)$/.exec(text);
  if (rust?.[1]) return reduceType(rust[1]);
  const go = /^(?:(\w+)\.)?New([A-Z]\w*)$/.exec(text);
  if (go?.[2]) return go[1] ? `${go[1]}.${go[2]}` : go[2];
  if (fn.type === "identifier" || fn.type === "attribute") {
    const last = lastSegment(text);
    if (/^[A-Z]/.test(last) && /^[\w.]+$/.test(text) && !/^[A-Z0-9_]+$/.test(last)) return reduceType(text);
  }
  return null;
}

/**
 * A bare call to an overloaded method of the caller's class lands on the overload whose
 * parameters fit its arguments (their count, then the most arguments whose declared type
 * is the parameter's), when exactly one fits best: its ordinal among the file's
 * definitions of that name, as symbol ids number them. Otherwise the call stays open.
 */
function chooseOverloads(symbols: ExtractedSymbol[], bareCalls: BareCall[], typing: Typing): void {
  const families = new Map<string, ExtractedSymbol[]>();
  for (const s of symbols) {
    const list = families.get(s.qualifiedName);
    if (list) list.push(s);
    else families.set(s.qualifiedName, [s]);
  }
  const calls = new Map<string, BareCall>();
  for (const c of bareCalls) calls.set(`${c.row + 1}:${c.name}`, c);
  for (const symbol of symbols) {
    if (!symbol.parent) continue;
    for (const call of symbol.calls) {
      if (call.receiver) continue;
      const family = families.get(`${symbol.parent}.${call.name}`);
      const site = calls.get(`${call.line}:${call.name}`);
      if (!family || family.length < 2 || !site) continue;
      const argTypes = site.args.map((a) => (a ? typing.receiverType(symbol, a, call.line) : null));
      const scored = family
        .map((s, i) => ({
          i,
          fits: isFunction(s) && fitsArity(s.signature, argTypes.length),
          score: typeMatches(s.signature, argTypes),
        }))
        .filter((f) => f.fits)
        .sort((a, b) => b.score - a.score);
      const [best, next] = scored;
      if (best && (!next || best.score > next.score)) call.overload = best.i + 1;
    }
  }
}

/** How many arguments of known type match the declared type of their parameter. */
function typeMatches(signature: string, argTypes: (string | null)[]): number {
  const params = parameterList(signature).map((p) => {
    const words = p
      .replace(/@\w+(?:\([^)]*\))?/g, "")
      .replace(/=.*$/s, "")
      .trim()
      .split(/\s+/);
    return words.length > 1
      ? reduceType(
          words
            .slice(0, -1)
            .join(" ")
            .replace(/^(?:final|params|ref|out|in)\s+/, ""),
        )
      : null;
  });
  let n = 0;
  argTypes.forEach((t, i) => {
    const p = params[i];
    if (t && p && lastSegment(t) === lastSegment(p)) n++;
  });
  return n;
}

function parameterList(signature: string): string[] {
  const open = signature.indexOf("(");
  const close = signature.lastIndexOf(")");
  if (open < 0 || close < open) return [];
  return splitTopLevel(signature.slice(open + 1, close), ",")
    .map((p) => p.trim())
    .filter(Boolean);
}

/** Whether a signature's parameter list takes `args` arguments (a varargs parameter takes any number from there). */
export function fitsArity(signature: string, args: number): boolean {
  if (signature.indexOf("(") < 0) return false;
  const params = parameterList(signature);
  const varargs = params.some((p) => p.includes("...") || /^params\s/.test(p));
  const optional = params.filter((p) => /=/.test(p)).length;
  if (varargs) return args >= params.length - 1;
  return args <= params.length && args >= params.length - optional;
}
