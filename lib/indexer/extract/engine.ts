/**
 * The extraction engine. A language contributes a tree-sitter query
 * (`queries/<language>.scm`) whose captures say what nodes are — definitions, calls,
 * raises, writes, bindings, imports — and a spec of data plus a few hooks for what a
 * query cannot say. The engine runs the query once per file, orders the matches as a
 * pre-order walk meets them and folds them into symbols over a stack of scopes: a
 * call, raise or write belongs to the innermost symbol whose body holds it.
 *
 * Capture names: a match's *role* is its capture whose name is not a part name
 * (`definition.<kind>`, `namespace`, `call`, `new`, `raise`, `write`, `local`,
 * `state`, `import`, `ignore`, or one a language hook handles); the other captures
 * are its parts (`name`, `body`, `callee`, `arguments`, `module` …, see PARTS).
 * Captures starting with `_` only feed predicates. Matches of one role on one node
 * merge, so several patterns can describe one definition.
 */
import fs from "node:fs";
import path from "node:path";
import { Query, type Language, type Node } from "web-tree-sitter";
import { checkDeadline, pastDeadline, type Deadline } from "../parser";
import type {
  CodeLanguage,
  ExtractedCall,
  ExtractedImport,
  ExtractedSymbol,
  FileExtraction,
  SymbolKind,
} from "../types";
import {
  addErrorString,
  cap,
  collapseWhitespace,
  createSymbol,
  endLineOf,
  isErrorReportingName,
  isSimpleCallee,
  lastIdentifier,
  leadingTrivia,
  lineOf,
  parseWriteTarget,
  pushUnique,
  shortText,
  SIGNATURE_MAX,
  signatureBetween,
  splitSimpleCallee,
  splitTopLevel,
} from "./common";

const PARTS = new Set(
  (
    "name body outer decorator base bases signature callee receiver method arguments type " +
    "module alias bind wildcard value parameters region default names"
  ).split(" "),
);

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

type Render = Array<{ kind: "render" | "text" | "bare" | "literal"; field: string; optional?: Render }>;

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
    return spec.message?.(node, this) ?? null;
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

function parseTemplate(template: string): Render {
  const out: Render = [];
  const pattern = /\{([^}]*)\}|([@$%])(\w*)|([^{@$%]+)/g;
  for (const m of template.matchAll(pattern)) {
    if (m[1] !== undefined) {
      const inner = parseTemplate(m[1]);
      const field = inner.find((t) => t.kind !== "literal")?.field ?? "";
      out.push({ kind: "literal", field, optional: inner });
    } else if (m[2]) {
      out.push({ kind: m[2] === "@" ? "render" : m[2] === "$" ? "text" : "bare", field: m[3] ?? "" });
    } else out.push({ kind: "literal", field: m[4] ?? "" });
  }
  return out;
}

/** Directories that may hold the query files: next to this module, else under the working directory. */
function queryDirs(): string[] {
  const dirs = [path.join(process.cwd(), "lib", "indexer", "extract", "queries")];
  if (typeof __dirname === "string" && __dirname) dirs.unshift(path.join(__dirname, "queries"));
  return dirs;
}

const compiled = new WeakMap<
  LanguageSpec,
  Map<Language, { query: Query; renders: Record<string, Render> }>
>();

function compile(spec: LanguageSpec, language: Language) {
  let perLanguage = compiled.get(spec);
  if (!perLanguage) compiled.set(spec, (perLanguage = new Map()));
  let entry = perLanguage.get(language);
  if (!entry) {
    const source = (Array.isArray(spec.query) ? spec.query : [spec.query]).map((name) => {
      const file = queryDirs()
        .map((dir) => path.join(dir, name))
        .find((f) => fs.existsSync(f));
      if (!file) throw new Error(`Cannot find the extraction query ${name}`);
      return fs.readFileSync(file, "utf8");
    });
    const renders: Record<string, Render> = {};
    for (const [type, template] of Object.entries(spec.render)) renders[type] = parseTemplate(template);
    entry = { query: new Query(language, source.join("\n")), renders };
    perLanguage.set(language, entry);
  }
  return entry;
}

/** Matches a query cursor keeps in progress at most (see collect). */
const MATCHES_IN_PROGRESS = 256;

/** Query matches grouped by role and node, in the order a pre-order walk meets their nodes. */
function collect(query: Query, root: Node, deadline: Deadline | undefined): Match[] {
  type Collected = Match & { order: number; end?: number };
  const byKey = new Map<string, Collected>();
  const out: Collected[] = [];
  // Query cursors slow down with nesting depth: every level of a chain of thousands of
  // calls keeps a match in progress, so the cursor's work grows with the square of the
  // chain. Capping matches in progress (the earliest-starting is dropped first) keeps it
  // linear; ordinary code never has this many open at once. A query still running at the
  // deadline is cancelled.
  const matches = query.matches(root, {
    matchLimit: MATCHES_IN_PROGRESS,
    progressCallback: pastDeadline(deadline),
  });
  checkDeadline(deadline);
  for (const qm of matches) {
    for (const capture of qm.captures) {
      const role = capture.name;
      if (PARTS.has(role) || role.startsWith("_")) continue;
      const key = `${role}@${capture.node.id}`;
      let m = byKey.get(key);
      if (!m) {
        const created: Collected = { role, node: capture.node, parts: {}, props: {}, order: out.length };
        byKey.set(key, (m = created));
        out.push(created);
      }
      if (qm.setProperties) Object.assign(m.props, qm.setProperties);
      for (const part of qm.captures) {
        if (!PARTS.has(part.name)) continue;
        const list = (m.parts[part.name] ??= []);
        if (list.some((n) => n.id === part.node.id)) continue;
        list.push(part.node);
        if (list.length > 1) list.sort((a, b) => a.startIndex - b.startIndex);
      }
    }
  }
  // On one node, definitions and namespaces come first: what follows belongs to them.
  const rank = (m: Match) => (m.role.startsWith("definition.") || m.role === "namespace" ? 0 : 1);
  const end = (m: Collected) => (m.end ??= m.node.endIndex);
  return out.sort(
    (a, b) =>
      a.node.startIndex - b.node.startIndex || end(b) - end(a) || rank(a) - rank(b) || a.order - b.order,
  );
}

/** Runs a language's query over a parsed file and folds the matches into an extraction. */
export function runEngine(spec: LanguageSpec, root: Node, source: string, deadline?: Deadline): Extraction {
  const { query, renders } = compile(spec, root.tree.language);
  const x = new Extraction(source, spec, renders);

  const file: Scope = {
    kind: "file",
    start: 0,
    end: Infinity,
    symbol: null,
    prefix: null,
    parent: null,
    public: true,
    frame: null,
    self: null,
    data: {},
  };
  const stack = [file];
  let ignoredUntil = -1;
  const matches = collect(query, root, deadline);
  for (let index = 0; index < matches.length; index++) {
    if (index % 1024 === 1023) checkDeadline(deadline);
    const m = matches[index] as Match;
    const start = m.node.startIndex;
    if (start < ignoredUntil) continue;
    while (stack.length > 1 && (stack[stack.length - 1] as Scope).end <= start)
      exitScope(stack.pop() as Scope, x);
    let scope = file;
    for (let i = stack.length - 1; i > 0; i--) {
      const s = stack[i] as Scope;
      if (s.start <= start && start < s.end) {
        scope = s;
        break;
      }
    }
    const opened = dispatch(m, scope, x);
    if (opened) stack.push(opened);
    // An ignored node, or an opaque definition (a type alias, an interface), hides what it holds.
    if (m.role === "ignore" || "opaque" in m.props) ignoredUntil = Math.max(ignoredUntil, m.node.endIndex);
  }
  while (stack.length > 1) exitScope(stack.pop() as Scope, x);
  spec.finish?.(x);
  x.resolveDeferredWrites();
  return x;
}

function exitScope(scope: Scope, x: Extraction): void {
  const frame = scope.frame;
  if (frame && scope.symbol && scope.kind === "function") {
    for (const { name, bare } of frame.writes) {
      if (frame.globals.has(name)) pushUnique(scope.symbol.mutates, name);
      else if (frame.locals.has(name)) continue;
      else if (x.spec.unresolvedWrite) x.spec.unresolvedWrite(scope, name, bare, x);
      else x.deferWrite(scope.symbol, name, bare);
    }
  }
  x.spec.exit?.(scope, x);
}

function dispatch(m: Match, scope: Scope, x: Extraction): Scope | null {
  const role = m.role;
  if (role.startsWith("definition.")) return define(m, scope, x);
  switch (role) {
    case "namespace":
      return openNamespace(m, scope, x);
    case "call":
    case "new":
      onCall(m, scope, x);
      return null;
    case "raise":
      onRaise(m, scope, x);
      return null;
    case "write":
      if (x.spec.write) x.spec.write(m.node, scope, x, m);
      else if (scope.frame) recordWrite(m.node, scope, x);
      return null;
    case "local":
      scope.frame?.locals.add(x.text(m.node));
      return null;
    case "state":
      if (scope.kind === "file" || (x.spec.stateInNamespaces && scope.kind === "namespace"))
        x.moduleState.add(x.text(m.node));
      return null;
    case "import": {
      const before = x.imports.length;
      x.importFrom(m);
      const frame = x.spec.importsBind ? scope.frame : null;
      if (frame)
        for (const entry of x.imports.slice(before))
          for (const n of x.importBindings(entry)) frame.locals.add(n);
      return null;
    }
    case "ignore":
      return null;
  }
  x.spec.roles?.[role]?.(m, scope, x);
  return null;
}

/** `self.x…` at once; another root waits for the end of the function (a local, or module state?). */
export function recordWrite(target: Node, scope: Scope, x: Extraction, text = x.text(target)): void {
  const parsed = parseWriteTarget(text);
  const frame = scope.frame;
  if (!parsed || !frame || !scope.symbol || (!parsed.bare && x.spec.skipRoots?.has(parsed.root))) return;
  if (parsed.root === scope.self) {
    if (parsed.member) pushUnique(scope.symbol.mutates, `${parsed.root}.${parsed.member}`);
    else if (x.spec.bareSelf) pushUnique(scope.symbol.mutates, parsed.root);
  } else {
    frame.writes.push({ name: parsed.root, bare: parsed.bare });
  }
}

const FUNCTION_KINDS = new Set<SymbolKind>(["function", "method"]);

function define(m: Match, scope: Scope, x: Extraction): Scope | null {
  const spec = x.spec;
  const { node, parts } = m;
  const nameNode = parts.name?.[0];
  const name = nameNode ? x.text(nameNode) : "<anonymous>";
  let kind = m.role.slice("definition.".length) as SymbolKind;
  if (kind === "function" && scope.kind === "type") kind = "method";
  const outer = parts.outer?.[0] ?? node;
  const trivia = spec.comments
    ? leadingTrivia(outer, x.source, {
        commentTypes: spec.comments,
        attributeTypes: spec.attributes,
        rejectComment: spec.rejectComment,
      })
    : null;
  const decorators = [...(trivia?.attributes ?? []), ...(parts.decorator ?? [])];
  let signatureStart = node.startIndex;
  for (const d of parts.decorator ?? []) if (d.startIndex >= node.startIndex) signatureStart = d.endIndex;
  // A definition bound to a value (`const f = () => …`) ends its signature where the value's body starts.
  const body = parts.body?.[0] ?? parts.region?.[0]?.childForFieldName("body") ?? undefined;
  const signatureEnd = parts.signature
    ? Math.max(...parts.signature.map((s) => s.endIndex))
    : (body?.startIndex ?? node.endIndex);
  const signature = signatureBetween(x.source, signatureStart, signatureEnd, spec.signatureTrailing);
  const bases = (parts.base ?? []).map((b) => signatureBetween(x.source, b.startIndex, b.endIndex));
  for (const clause of parts.bases ?? []) {
    const text = x.text(clause).replace(/^(?:(?:extends|implements)\s+|[:<]\s*)/, "");
    bases.push(...splitTopLevel(text, ",").map((t) => t.replace(/\s+/g, " ")));
  }
  const def: Definition = {
    match: m,
    scope,
    kind,
    name,
    qualifiedName: "",
    parent: scope.parent,
    outer,
    startLine: (trivia?.startRow ?? outer.startPosition.row) + 1,
    endLine: endLineOf(outer),
    signature: "cap" in m.props ? cap(signature, SIGNATURE_MAX) : signature,
    docstring: trivia?.docstring ?? "",
    exported: false,
    decorators: decorators.map((d) =>
      collapseWhitespace(x.text(d).replace(/^@/, "")).replace(/^#\[\s*|\s*\]$/g, ""),
    ),
    bases,
    region: { start: (parts.region?.[0] ?? node).startIndex, end: (parts.region?.[0] ?? node).endIndex },
    inner: {},
  };
  def.exported = spec.exported(def, x);
  if (spec.define?.(def, x) === false) return null;
  def.qualifiedName ||= scope.prefix ? `${scope.prefix}.${def.name}` : def.name;
  const symbol = createSymbol(def);
  x.symbols.push(symbol);
  spec.created?.(symbol, def, x);
  if (spec.bindDefinitions) scope.frame?.locals.add(def.name);
  if (!def.region) return null;
  const isFunction = FUNCTION_KINDS.has(symbol.kind);
  return {
    kind: isFunction ? "function" : "type",
    start: def.region.start,
    end: def.region.end,
    symbol,
    prefix: def.qualifiedName,
    parent: def.qualifiedName,
    public: !isFunction && def.exported,
    frame: isFunction ? { locals: new Set(), globals: new Set(), writes: [] } : null,
    self: spec.self ?? (isFunction && scope.kind === "function" ? scope.self : null),
    data: {},
    ...def.inner,
  };
}

function openNamespace(m: Match, scope: Scope, x: Extraction): Scope | null {
  const region = m.parts.body?.[0] ?? m.node;
  const nameNode = m.parts.name?.[0];
  const name = nameNode ? x.text(nameNode).replace(/\s+/g, "") : null;
  const base: Scope = {
    ...scope,
    kind: "namespace",
    start: region.startIndex,
    end: region.endIndex,
    prefix: name ? (scope.prefix ? `${scope.prefix}.${name}` : name) : scope.prefix,
    data: {},
  };
  const custom = x.spec.namespace ? x.spec.namespace(m, scope, x) : {};
  return custom === null ? null : { ...base, ...custom };
}

function onCall(m: Match, scope: Scope, x: Extraction): void {
  if (x.spec.call?.(m, scope, x)) return;
  const owner = scope.symbol;
  const { parts } = m;
  if (!owner) return;
  let call: ExtractedCall;
  const method = parts.method?.[0];
  if (method) {
    const object = parts.receiver?.[0];
    const name = x.text(method);
    let receiver: string | null = null;
    if (object) receiver = isSimpleCallee(x.text(object)) ? x.text(object) : x.render(object);
    call = { raw: receiver ? `${receiver}.${name}` : name, name, receiver, line: lineOf(method) };
  } else {
    const fn = parts.callee?.[0];
    if (!fn) return;
    if (m.role === "new") {
      const bare = stripGenerics(x.text(fn));
      call = isSimpleCallee(bare)
        ? { raw: bare, ...splitSimpleCallee(bare), line: lineOf(fn) }
        : x.describe(fn);
      call.raw = `new ${call.raw}`;
    } else call = x.describe(fn);
  }
  owner.calls.push({ raw: call.raw, name: call.name, receiver: call.receiver, line: call.line });
  if (
    m.role === "call" &&
    (x.spec.errorCall?.(call, x, m) || isLogCall(call, x) || isErrorReportingName(call.name))
  ) {
    addErrorString(owner, x.firstMessage(parts.arguments?.[0]));
  }
}

function isLogCall(call: ExtractedCall, x: Extraction): boolean {
  const log = x.spec.log;
  if (!log) return false;
  if (log.raws?.has(call.raw)) return true;
  return (
    log.methods.has(call.name) && call.receiver !== null && log.receiver.test(lastIdentifier(call.receiver))
  );
}

function onRaise(m: Match, scope: Scope, x: Extraction): void {
  const owner = scope.symbol;
  if (!owner) return;
  for (const type of m.parts.type ?? []) {
    const text = x.text(type);
    const name = /^[\p{L}\p{N}_$]+$/u.test(text)
      ? text
      : lastIdentifier(/^[\w$.]+</.test(text) ? stripGenerics(text) : text);
    if (!x.spec.raiseName || x.spec.raiseName.test(name)) pushUnique(owner.raises, name);
  }
  const args = m.parts.arguments?.[0];
  if (args) addErrorString(owner, x.firstMessage(args));
}
