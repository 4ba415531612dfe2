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
import type { ExtractedCall, SymbolKind } from "../types";
import {
  addErrorString,
  isErrorSuperCall,
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
  SIGNATURE_MAX,
  signatureBetween,
  splitSimpleCallee,
  splitTopLevel,
} from "./common";
import {
  Extraction,
  stripGenerics,
  type Definition,
  type LanguageSpec,
  type Match,
  type Render,
  type Scope,
} from "./extraction.ts";

const PARTS = new Set(
  (
    "name body outer decorator base bases signature callee receiver method arguments type " +
    "module alias bind wildcard value parameters region default names"
  ).split(" "),
);

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
    (x.spec.errorCall?.(call, x, m) ||
      isLogCall(call, x) ||
      isErrorReportingName(call.name) ||
      isErrorSuperCall(call, owner, x.symbols))
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
    // A raised constant holding a message (`raise MISSING_ADAPTER_ERROR`) is no type.
    if (x.messageOf(type) !== null) {
      if (x.spec.messageRaise) pushUnique(owner.raises, x.spec.messageRaise);
      continue;
    }
    const text = x.text(type);
    const name = /^[\p{L}\p{N}_$]+$/u.test(text)
      ? text
      : lastIdentifier(/^[\w$.]+</.test(text) ? stripGenerics(text) : text);
    if (!x.spec.raiseName || x.spec.raiseName.test(name)) pushUnique(owner.raises, name);
  }
  const args = m.parts.arguments?.[0];
  if (args) addErrorString(owner, x.firstMessage(args));
}
