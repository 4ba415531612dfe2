/**
 * What the extraction engine (engine.ts) folds a file into, and the shapes it reads: a
 * language's spec (its data and hooks), query matches, the stack of scopes and
 * definitions, and the Extraction that collects symbols, calls, raises, writes and
 * imports, renders callee and message expressions, and yields the file's extraction.
 */
import type { Node } from "web-tree-sitter";
import type {
  CodeLanguage,
  ExtractedCall,
  ExtractedImport,
  ExtractedSymbol,
  FileExtraction,
  SymbolKind,
} from "../types";
import { constantMessage } from "./constants";
import { formattedMessage } from "./formatted";
import { isSimpleCallee, lastIdentifier, lineOf, pushUnique, shortText, splitSimpleCallee } from "./common";

/** How deep a callee expression is written back before its inner part becomes `…`. */
const RENDER_DEPTH_MAX = 24;
/** How deep a message expression (`"a" + b + "c"`) is read. */
const MESSAGE_DEPTH_MAX = 32;

export interface Match {
  role: string;
  node: Node;
  parts: Partial<Record<string, Node[]>>;
  /** `#set!` properties of the patterns that matched */
  props: Record<string, string | null>;
}

export interface Frame {
  locals: Set<string>;
  /** names declared global (Python), written through at once */
  globals: Set<string>;
  /** writes to other roots, checked against the locals when the function ends */
  writes: Array<{ name: string; bare: boolean }>;
}

export interface Scope {
  kind: "file" | "namespace" | "type" | "function";
  start: number;
  end: number;
  /** symbol receiving calls, raises and writes; null at file level */
  symbol: ExtractedSymbol | null;
  /** prefix of qualified names defined here */
  prefix: string | null;
  /** qualifiedName of the enclosing symbol, for `parent` */
  parent: string | null;
  /** whether definitions here can be public API */
  public: boolean;
  frame: Frame | null;
  /** name bound to the instance (`self`, `this`, a Go receiver) */
  self: string | null;
  /** language data (Java field names, Rust impl visibility …) */
  data: Record<string, unknown>;
}

/** A definition about to become a symbol; hooks may change any field. */
export interface Definition {
  match: Match;
  scope: Scope;
  kind: SymbolKind;
  name: string;
  qualifiedName: string;
  parent: string | null;
  outer: Node;
  startLine: number;
  endLine: number;
  signature: string;
  docstring: string;
  exported: boolean;
  decorators: string[];
  bases: string[];
  /** the region the definition's own scope covers; null opens none */
  region: { start: number; end: number } | null;
  /** fields of the scope it opens */
  inner: Partial<Scope>;
}

export type Render = Array<{
  kind: "render" | "text" | "bare" | "literal";
  field: string;
  optional?: Render;
}>;

export interface LanguageSpec {
  /** file names of the query under queries/, joined in order */
  query: string | string[];
  /** comment node types that document the next definition; none: documentation comes from a hook */
  comments?: ReadonlySet<string>;
  /** sibling types (Rust attributes) that belong to the next definition and become decorators */
  attributes?: ReadonlySet<string>;
  rejectComment?: (text: string) => boolean;
  /** trailing text dropped from signatures (`;`, `{`) */
  signatureTrailing?: RegExp;
  /** member access types of callees: [object field, name field, separator] */
  members: Record<string, [string, string, string]>;
  /** how callee expressions are written back: `@f` renders field f, `$f` its text, `%f` its text without generics, `@0` the first named child, `$` the whole text, `{…}` is left out when its field is missing */
  render: Record<string, string>;
  /** split rendered callees at their last `.`/`::` (Rust) instead of by structure */
  splitRendered?: boolean;
  /** error/warning log calls: method names and the receiver's last identifier */
  log?: { methods: ReadonlySet<string>; receiver: RegExp; raws?: ReadonlySet<string> };
  /** string literal types; `concat` the types joining literals */
  strings: ReadonlySet<string>;
  /** parts of strings that stand for interpolated values */
  interpolations?: ReadonlySet<string>;
  /** parts of strings that are delimiters */
  delimiters?: ReadonlySet<string>;
  concatenations?: ReadonlySet<string>;
  /** binary expression type whose operator (`+`, PHP `.`) joins messages */
  binary?: string;
  concatenation?: string;
  parenthesized?: string;
  /** the type raised with a bare message (Ruby `raise "…"` raises RuntimeError) */
  messageRaise?: string;
  /** raised names that count as exception types */
  raiseName?: RegExp;
  /** roots written through that are never module state (`module`, `exports`, `_`) */
  skipRoots?: ReadonlySet<string>;
  /** a write to the bare self name is a mutation too (Go receivers) */
  bareSelf?: boolean;
  /** whether a definition's name is a local of the frame it is defined in */
  bindDefinitions?: boolean;
  /** whether imports inside a function bind locals there (Python) */
  importsBind?: boolean;
  /** name bound to the instance in every function (`this`) */
  self?: string;
  /** whether module state is recorded in namespaces (Rust `mod`) as well as at file level */
  stateInNamespaces?: boolean;
  exported(def: Definition, x: Extraction): boolean;
  /** adjusts a definition; false drops it (its body then belongs to the enclosing symbol) */
  define?(def: Definition, x: Extraction): boolean | void;
  /** sees the symbol a definition became */
  created?(symbol: ExtractedSymbol, def: Definition, x: Extraction): void;
  /** text of a string literal when its parts do not spell it (undefined: they do) */
  stringText?(node: Node, x: Extraction): string | undefined;
  /** a message the generic rules do not read (`"…".format(…)`, `String.format`) */
  message?(node: Node, x: Extraction): string | null | undefined;
  /** whether a call's literal argument is an error message (default: the `log` rule) */
  errorCall?(call: ExtractedCall, x: Extraction, m: Match): boolean;
  /** handles a call before the engine; true when nothing more is to be done */
  call?(m: Match, scope: Scope, x: Extraction): boolean | void;
  /** records a write target (default: `self.x` at once, other roots checked against locals) */
  write?(node: Node, scope: Scope, x: Extraction, m: Match): void;
  /** opens a namespace-like scope (`mod`, `namespace`, `impl`) */
  namespace?(m: Match, scope: Scope, x: Extraction): Partial<Scope> | null;
  /** roles only this language has */
  roles?: Record<string, (m: Match, scope: Scope, x: Extraction) => void>;
  /** a write to a name not local to the function that wrote it (default: maybe module state) */
  unresolvedWrite?(scope: Scope, name: string, bare: boolean, x: Extraction): void;
  /** runs when a scope ends */
  exit?(scope: Scope, x: Extraction): void;
  /** whether a deferred write names module-level state */
  moduleLevel?(name: string, bare: boolean, x: Extraction): boolean;
  /** after every match: export lists, trait impls … */
  finish?(x: Extraction): void;
}

/** State of one file's extraction, handed to hooks. */
export class Extraction {
  readonly symbols: ExtractedSymbol[] = [];
  readonly imports: ExtractedImport[] = [];
  readonly moduleState = new Set<string>();
  /** language state of hooks */
  readonly data: Record<string, unknown> = {};
  private readonly deferred: Array<{ symbol: ExtractedSymbol; name: string; bare: boolean }> = [];
  private readonly importedModules = new Set<number>();
  private renderDepth = 0;
  private messageDepth = 0;

  constructor(
    readonly source: string,
    readonly spec: LanguageSpec,
    private readonly renders: Record<string, Render>,
  ) {}

  text(node: Node): string {
    return this.source.slice(node.startIndex, node.endIndex);
  }

  /** Text of a name or module: quotes of a string literal dropped. */
  unquoted(node: Node): string {
    const text = this.text(node);
    return /^["'`]/.test(text) ? text.slice(1, -1) : text;
  }

  /** Records an import; pairs that rename nothing are dropped, empty bindings left off. */
  addImport(
    module: string,
    names: string[],
    line: number,
    binding: { local?: string | null; renamed?: Array<[local: string, imported: string]> } = {},
  ): void {
    if (!module) return;
    const entry: ExtractedImport = { module, names, line };
    if (binding.local) entry.local = binding.local;
    const renamed = (binding.renamed ?? []).filter(([local, imported]) => local && local !== imported);
    // fromEntries defines own properties, so even a local named `__proto__` stays data.
    if (renamed.length > 0) entry.aliases = Object.fromEntries(renamed);
    this.imports.push(entry);
  }

  /** A write to `name` whose module-level status is known once the whole file is read. */
  deferWrite(symbol: ExtractedSymbol, name: string, bare: boolean): void {
    this.deferred.push({ symbol, name, bare });
  }

  resolveDeferredWrites(): void {
    const isModuleLevel = this.spec.moduleLevel ?? ((name: string) => this.moduleState.has(name));
    for (const { symbol, name, bare } of this.deferred) {
      if (isModuleLevel(name, bare, this)) pushUnique(symbol.mutates, name);
    }
  }

  /** Callee expression written back: `self.items.get`, `super().save`, `a[…].b()`. */
  render(node: Node): string {
    // A long chain (`a.b().c()…`, generated builders) renders its innermost part as `…`:
    // every call of the chain renders its receiver, so an uncapped depth is quadratic
    // in the chain's length, and recursing down it overflows the stack.
    if (this.renderDepth >= RENDER_DEPTH_MAX) return "…";
    const template = this.renders[node.type];
    if (!template) return shortText(this.text(node));
    this.renderDepth++;
    try {
      return this.fill(template, node);
    } finally {
      this.renderDepth--;
    }
  }

  private fill(template: Render, node: Node): string {
    let out = "";
    for (const token of template) {
      if (token.kind === "literal" && !token.optional) {
        out += token.field;
        continue;
      }
      const child =
        token.field === ""
          ? node
          : token.field === "0"
            ? node.firstNamedChild
            : node.childForFieldName(token.field);
      if (token.optional) {
        if (child) out += this.fill(token.optional, node);
      } else if (child) {
        const text = this.text(child);
        out +=
          token.kind === "render" ? this.render(child) : token.kind === "bare" ? stripGenerics(text) : text;
      }
    }
    return out;
  }

  /** raw/name/receiver of a callee expression, and the line of the name called. */
  describe(fn: Node, callLine = lineOf(fn)): ExtractedCall {
    const text = this.text(fn);
    if (isSimpleCallee(text)) return { raw: text, ...splitSimpleCallee(text), line: callLine };
    const member = this.spec.members[fn.type];
    const nameNode = member ? fn.childForFieldName(member[1]) : null;
    const line = nameNode ? lineOf(nameNode) : callLine;
    if (this.spec.splitRendered) {
      const raw = this.render(fn);
      const split = /(\.|::)([A-Za-z_]\w*)$/.exec(raw);
      if (!split?.[2]) return { raw, name: lastIdentifier(raw), receiver: null, line };
      return { raw, name: split[2], receiver: raw.slice(0, raw.length - split[0].length), line };
    }
    if (member) {
      const object = fn.childForFieldName(member[0]);
      const receiver = object ? this.render(object) : null;
      const name = nameNode ? this.text(nameNode) : "";
      const separator = member[2].startsWith("$")
        ? this.text(fn.childForFieldName(member[2].slice(1)) ?? fn)
        : member[2];
      return { raw: `${receiver ?? ""}${separator}${name}`, name, receiver, line };
    }
    const raw = this.render(fn);
    return { raw, name: lastIdentifier(raw), receiver: null, line };
  }

  /** Literal text of a message expression: strings, `+` joins, parentheses; null when none. */
  messageOf(node: Node): string | null {
    // A message is capped at ERROR_STRING_MAX characters anyway; a generated chain of
    // thousands of `+` is cut here instead of recursing down all of it.
    if (this.messageDepth >= MESSAGE_DEPTH_MAX) return null;
    this.messageDepth++;
    try {
      return this.messageAt(node);
    } finally {
      this.messageDepth--;
    }
  }

  private messageAt(node: Node): string | null {
    const spec = this.spec;
    const type = node.type;
    if (spec.strings.has(type)) return this.stringText(node, true);
    if (spec.concatenations?.has(type)) {
      let out = "";
      for (const part of node.namedChildren)
        if (spec.strings.has(part.type)) out += this.stringText(part, true);
      return out;
    }
    if (type === spec.binary) {
      const operator = node.childForFieldName("operator");
      if (!operator || this.text(operator) !== (spec.concatenation ?? "+"))
        return spec.message?.(node, this) ?? null;
      const left = node.childForFieldName("left");
      const right = node.childForFieldName("right");
      const leftText = left ? this.messageOf(left) : null;
      const rightText = right ? this.messageOf(right) : null;
      if (leftText === null && rightText === null) return null;
      return `${leftText ?? "{…}"}${rightText ?? "{…}"}`;
    }
    if (type === spec.parenthesized) {
      const inner = node.firstNamedChild;
      return inner ? this.messageOf(inner) : null;
    }
    return spec.message?.(node, this) ?? formattedMessage(node, this) ?? constantMessage(node, this);
  }

  /** A string literal's text; interpolations become `{…}` when `placeholders` is set. */
  stringText(node: Node, placeholders: boolean): string {
    const own = this.spec.stringText?.(node, this);
    if (own !== undefined) return own;
    let out = "";
    for (const part of node.namedChildren) {
      if (this.spec.interpolations?.has(part.type)) out += placeholders ? "{…}" : this.text(part);
      else if (!this.spec.delimiters?.has(part.type)) out += this.text(part);
    }
    return out;
  }

  /** The first argument that yields literal text. */
  firstMessage(args: Node | null | undefined): string | null {
    for (const arg of args?.namedChildren ?? []) {
      const text = this.messageOf(arg);
      if (text !== null) return text;
    }
    return null;
  }

  /** Records each import of a match: one per module node, names and bindings from its parts. */
  importFrom(m: Match): void {
    const modules = m.parts.module ?? [];
    const entries = modules
      .filter((node) => !this.importedModules.has(node.id))
      .map((node) => {
        this.importedModules.add(node.id);
        const text = this.unquoted(node);
        return {
          node,
          module: "compact" in m.props ? text.replace(/\s+/g, "") : text,
          names: [] as string[],
          renamed: [] as Array<[string, string]>,
          local: null as string | null,
        };
      });
    if (entries.length === 0) return;
    const rest: Array<[string, Node]> = [];
    for (const key of ["name", "alias", "bind", "wildcard", "default"])
      for (const node of m.parts[key] ?? []) rest.push([key, node]);
    // A list of specifiers: each its `name`, renamed by its `alias`.
    for (const list of m.parts.names ?? []) {
      for (const item of list.namedChildren) {
        const name = item.childForFieldName("name");
        const alias = "unaliased" in m.props ? null : item.childForFieldName("alias");
        if (name) rest.push(["name", name]);
        if (alias) rest.push(["alias", alias]);
      }
    }
    rest.sort((a, b) => a[1].startIndex - b[1].startIndex);
    for (const [key, node] of rest) {
      let entry = entries[0];
      for (const e of entries) if (e.node.startIndex < node.startIndex) entry = e;
      if (!entry) continue;
      if (key === "name") entry.names.push(this.unquoted(node));
      // A default import is the module's `default` export under a name the importer picks.
      if (key === "default") {
        entry.names.push("default");
        entry.renamed.push([this.text(node), "default"]);
      }
      if (key === "alias") entry.renamed.push([this.text(node), entry.names[entry.names.length - 1] ?? ""]);
      if (key === "bind") entry.local = this.text(node);
      if (key === "wildcard") entry.names.push("*");
    }
    for (const e of entries) this.addImport(e.module, e.names, lineOf(m.node), e);
  }

  /** Names an import binds in a function (Python imports inside a body). */
  importBindings(entry: ExtractedImport): string[] {
    if (entry.local) return [entry.local];
    if (entry.names.length === 0) return [entry.module.split(/\.|::|\//)[0] ?? entry.module];
    const renamed = new Map(Object.entries(entry.aliases ?? {}).map(([local, name]) => [name, local]));
    return entry.names.filter((n) => n !== "*").map((n) => renamed.get(n) ?? n);
  }

  finish(language: CodeLanguage, parseErrors: number): FileExtraction {
    return {
      language,
      symbols: this.symbols,
      imports: this.imports,
      moduleState: [...this.moduleState],
      parseErrors,
    };
  }
}

export function stripGenerics(text: string): string {
  return text.replace(/<.*$/s, "").trim();
}
