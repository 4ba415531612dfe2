/**
 * Following a flow through the call graph: forward from an entry (callees that do the
 * work before leaves and general helpers, overridden methods of the class the question
 * names, calls the index left unresolved followed to the one function of that name in the
 * caller's folder, declarations to the implementations they dispatch to), backward to
 * callers, and drawing the flows found.
 */
import "server-only";
import {
  ancestorsOf,
  callersOf,
  calleesOf,
  inheritorsOf,
  symbolsByName,
  symbolsByQualifiedName,
  symbolsByQualifiedIds,
  type SymbolRecord,
} from "../../db/code-graph.ts";
import type { DiagramPart } from "../types.ts";
import { capGraph, diagramPart, type GraphEdge, type GraphNode } from "../../diagrams/graph.ts";
import type { SourceReader } from "../context.ts";
import { isCheck, sideCalls } from "./exploratory-branches.ts";
import { returnedClosures } from "./exploratory-closures.ts";
import { unresolvedCallees } from "./exploratory-unresolved.ts";
import { isMacro, macroCallees, throughMacros } from "./exploratory-macros.ts";
import { isTestSymbol, storedCalls } from "./shared.ts";

export interface FlowNode {
  symbol: SymbolRecord;
  depth: number;
  children: FlowNode[];
  /**
   * where the flow's main line goes on: called where its caller returns (`return
   * mx.tree.InsertRoute(…)`), or reading what its caller stored
   */
  mainLine?: boolean;
  /** on the line to the step the question says the flow ends at (`walkToEnd`) */
  endward?: boolean;
  /**
   * called only off its caller's main line: in a condition, an error handler or a block that
   * returns early (`exploratory-branches.ts`)
   */
  sideLine?: boolean;
}

/** Callers from this many places make a function a general helper rather than a step of one flow. */
export const HELPER_FAN_IN = 25;

/**
 * Which of a function's callees a walk follows first, among those the question does not
 * name: a step that goes on calling (0) before a leaf (1), and a helper called from
 * everywhere (logging, error wrapping, a getter) last (2). The flow a question asks to
 * follow runs through the functions that do the work, not the first call written.
 */
export function calleeRank(s: Pick<SymbolRecord, "fanIn" | "fanOut">): number {
  if (s.fanIn >= HELPER_FAN_IN) return 2;
  return s.fanOut > 0 ? 0 : 1;
}

interface WalkOptions {
  useGraph: boolean;
  /** how much a symbol's name bears on the question (0 = not at all) */
  relevant: (s: SymbolRecord) => number;
  /** how much a symbol's own name, not its class's, bears on the question */
  named?: (s: SymbolRecord) => number;
  /** whether the walk may go into a file (tests, docs and vendored code only when asked about) */
  walks: (path: string) => boolean;
  /**
   * The class the walk runs in when the question names an inherited method on it
   * (`PoolManager.request`, defined on `RequestMethods`): a call to a method that class
   * overrides goes to its own version, as dispatch on `self` would.
   */
  dispatch: SymbolRecord | null;
  /** which callees the walk may follow at all (all when absent) */
  only?: (s: SymbolRecord) => boolean;
  /** the indexed text, for the calls written in a macro's body */
  reader: SourceReader;
  /** the deepest the walk goes, levels passed through thin wrappers included */
  depthCap: number;
  /** the functions that read what a step stores (`exploratory-state.ts`), where the flow goes on */
  stateReaders?: (step: SymbolRecord, seen: ReadonlySet<string>) => Promise<SymbolRecord[]>;
}

/**
 * Callees replaced by the dispatch class's own methods of the same name, where it has them:
 * only a method of one of its ancestors (a call on `self` the index resolved to the base
 * class's version) runs as the dispatch class's own. A same-named method of another class
 * (`PoolManager.urlopen` calling `conn.urlopen(…)`, a connection pool's) is a call on
 * another object and stays that object's. When the index knows none of the dispatch
 * class's ancestors, only a declaration that calls nothing is replaced. Only a step of the
 * dispatch class or of an ancestor runs with `self` the dispatch class's object: once the
 * flow has gone on into another object's method, its calls are that object's.
 */
export async function overridden(
  generationId: string,
  callees: SymbolRecord[],
  dispatch: SymbolRecord | null,
  caller?: SymbolRecord,
): Promise<SymbolRecord[]> {
  if (!dispatch) return callees;
  const ancestors = await ancestorTypes(generationId, dispatch.qualifiedId);
  const onSelf = (s: SymbolRecord) =>
    s.qualifiedName.startsWith(`${dispatch.qualifiedName}.`) ||
    (!!s.parentId && ancestors.has(`${s.path}::${s.parentId}`));
  if (caller && caller.kind === "method" && ancestors.size > 0 && !onSelf(caller)) return callees;
  const inherited = (c: SymbolRecord) =>
    ancestors.size > 0 ? !!c.parentId && ancestors.has(`${c.path}::${c.parentId}`) : c.fanOut === 0;
  const out: SymbolRecord[] = [];
  for (const c of callees) {
    const own =
      c.kind === "method" && !c.qualifiedName.startsWith(`${dispatch.qualifiedName}.`) && inherited(c)
        ? (await symbolsByQualifiedName(generationId, `${dispatch.qualifiedName}.${c.name}`, 1))[0]
        : undefined;
    out.push(own ?? c);
  }
  return out;
}

/**
 * A type's ancestors, up to ANCESTOR_LEVELS levels up (their ids). Every step of a walk asks
 * for the same dispatch class's, and a generation's index never changes: each is read once.
 */
export function ancestorTypes(generationId: string, typeId: string): Promise<Set<string>> {
  const key = `${generationId}\0${typeId}`;
  const hit = ancestorCache.get(key);
  if (hit) return hit;
  const loading = (async () => {
    const out = new Set<string>();
    let level = [typeId];
    for (let i = 0; i < ANCESTOR_LEVELS && level.length > 0; i++) {
      level = (await ancestorsOf(generationId, level)).filter((id) => !out.has(id) && id !== typeId);
      for (const id of level) out.add(id);
    }
    return out;
  })();
  loading.catch(() => ancestorCache.delete(key));
  ancestorCache.set(key, loading);
  while (ancestorCache.size > ANCESTOR_CACHE)
    ancestorCache.delete(ancestorCache.keys().next().value as string);
  return loading;
}

const ANCESTOR_LEVELS = 4;
const ANCESTOR_CACHE = 64;
const ancestorCache = new Map<string, Promise<Set<string>>>();

/** A declaration with more implementations than this is dispatched too widely to follow one. */
const MAX_IMPLEMENTATIONS = 2;

/**
 * Methods that call nothing (an abstract or interface method, a trait's required method,
 * a base class's empty hook) replaced by their implementations in the types that extend,
 * implement or use their type, when there are at most MAX_IMPLEMENTATIONS that do some
 * work where the walk goes (a test's fake implementation is none): a call through the declaration runs one of them (`ClientTrait.get` calls the
 * trait's abstract `request`, which `Client` implements), so the flow goes on there.
 */
export async function implemented(
  generationId: string,
  callees: SymbolRecord[],
  walks: (path: string) => boolean = () => true,
  reader?: SourceReader,
): Promise<SymbolRecord[]> {
  const ownerOf = (c: SymbolRecord) => `${c.path}::${c.parentId}`;
  const declared = callees.filter((c) => c.kind === "method" && c.fanOut === 0 && c.parentId);
  if (declared.length === 0) return callees;
  const inheritors = await inheritorsOf(generationId, [...new Set(declared.map(ownerOf))]);
  if (inheritors.length === 0) return namedImplementations(generationId, callees, declared, walks, reader);
  // Each declaration's possible implementations: the inheritors' members of its name.
  const candidates = new Map(
    declared.map((c) => [
      c,
      inheritors.filter((i) => i.dstId === ownerOf(c)).map((i) => `${i.srcId}.${c.name}`),
    ]),
  );
  const working = new Map(
    (await symbolsByQualifiedIds(generationId, [...candidates.values()].flat()))
      .filter((s) => s.fanOut > 0 && walks(s.path))
      .map((s) => [s.qualifiedId, s]),
  );
  const unimplemented = declared.filter((c) => !(candidates.get(c) ?? []).some((id) => working.has(id)));
  const out = callees.flatMap((c) => {
    const ids = candidates.get(c);
    if (!ids) return [c];
    const mine = ids.flatMap((id) => working.get(id) ?? []);
    return mine.length > 0 && mine.length <= MAX_IMPLEMENTATIONS ? mine : [c];
  });
  return unimplemented.length ? namedImplementations(generationId, out, unimplemented, walks, reader) : out;
}

/**
 * Declarations no type is known to extend (a protocol or interface implemented structurally, as
 * Python's `Protocol` and Go's interfaces are) replaced by the one method of their name in the type
 * named as the abstract one without its abstract prefix or suffix (`BaseHTTPConnection.request` →
 * `HTTPConnection.request`, `IMediator.Send` → `Mediator.Send`).
 */
async function namedImplementations(
  generationId: string,
  callees: SymbolRecord[],
  declared: SymbolRecord[],
  walks: (path: string) => boolean,
  reader?: SourceReader,
): Promise<SymbolRecord[]> {
  const replaced = new Map<SymbolRecord, SymbolRecord[]>();
  for (const c of declared) {
    const owner = ownerName(c);
    const concrete = owner.replace(ABSTRACT_NAME, "");
    if (concrete === owner || concrete.length < 2) {
      const mine = reader ? await overridesOfHook(generationId, c, walks, reader) : [];
      if (mine.length > 0) replaced.set(c, mine);
      continue;
    }
    const space = namespaceOf(c);
    const found = (await symbolsByName(generationId, c.name, 50)).filter(
      (s) =>
        s.kind === "method" &&
        s.fanOut > 0 &&
        ownerName(s) === concrete &&
        nested(space, namespaceOf(s)) &&
        !isTestSymbol(s) &&
        walks(s.path),
    );
    if (found.length === 1) replaced.set(c, [found[0] as SymbolRecord]);
  }
  return replaced.size ? callees.flatMap((c) => replaced.get(c) ?? [c]) : callees;
}

/**
 * A hook a base class or mixin declares for others to fill in — its body empty or only raising
 * that it is not implemented (`def dispatch(...) raise NotImplementedError end`) — replaced by
 * the methods of its name that do the work elsewhere in the code (`Thor.dispatch`), when there
 * are at most MAX_IMPLEMENTATIONS: the types that fill it in are not always known to extend its
 * type (a Ruby module extended at run time, a duck-typed Python base).
 */
async function overridesOfHook(
  generationId: string,
  declared: SymbolRecord,
  walks: (path: string) => boolean,
  reader: SourceReader,
): Promise<SymbolRecord[]> {
  const lines = await reader.lines(declared.path);
  if (!lines || !hookBody(lines.slice(declared.startLine - 1, declared.endLine))) return [];
  const found = (await symbolsByName(generationId, declared.name, 50)).filter(
    (s) =>
      s.kind === "method" &&
      s.fanOut > 0 &&
      s.qualifiedId !== declared.qualifiedId &&
      !isTestSymbol(s) &&
      walks(s.path),
  );
  return found.length <= MAX_IMPLEMENTATIONS ? found : [];
}

/**
 * A definition that leaves its work to others: past its signature, nothing but a statement saying
 * it is not implemented (`raise NotImplementedError`, `throw new UnsupportedOperationException()`,
 * `unimplemented!()`), `pass` or `...`, comments and the closing `end` or `}`. An empty body is a
 * no-op hook as often as a declaration, and stays.
 */
export function hookBody(definition: readonly string[]): boolean {
  const code = definition.map((l) => l.trim()).filter((l) => l !== "" && !/^(?:#|\/\/|\/\*|\*|@)/.test(l));
  const body = code.slice(1).filter((l) => !/^(?:end|[{}()\s]+|pass|\.\.\.)$/.test(l));
  return body.length > 0 && body.length <= 2 && body.every((l) => NOT_IMPLEMENTED.test(l));
}

/** A statement saying a method is left for others to implement. */
const NOT_IMPLEMENTED =
  /\b(?:NotImplementedError|NotImplemented|UnsupportedOperationException|NotImplementedException|unimplemented!|todo!)|\bthrow new Error\(\s*["'`](?:not implemented|abstract)/i;

/** The prefix or suffix naming an abstract type after the one that does the work. */
const ABSTRACT_NAME = /^(?:Base|Abstract)(?=[A-Z])|^I(?=[A-Z][a-z])|(?:Protocol|Interface|Base|Abstract)$/;

/** What a method's class is declared in, by its qualified name (`Slim.Interfaces.Resolver.resolve` → `Slim.Interfaces`). */
function namespaceOf(s: Pick<SymbolRecord, "qualifiedName">): string {
  return s.qualifiedName.split(".").slice(0, -2).join(".");
}

/** One namespace holds the other (`Slim` and `Slim.Interfaces`; not `App.Store` and `App.Repository`). */
function nested(a: string, b: string): boolean {
  const within = (x: string, y: string) => x === y || y === "" || x.startsWith(`${y}.`);
  return within(a, b) || within(b, a);
}

/** The class a method belongs to, by its qualified name (`Faraday.RackBuilder.build_env` → `RackBuilder`). */
function ownerName(s: Pick<SymbolRecord, "qualifiedName">): string {
  const parts = s.qualifiedName.split(".");
  return parts.length > 1 ? (parts[parts.length - 2] as string) : "";
}

/**
 * The functions a step calls, in call order, that the walk may go into and has not been to:
 * resolved calls, unresolved ones resolved in the caller's folder or class, and through macros.
 */
async function directCallees(
  generationId: string,
  symbol: SymbolRecord,
  reader: SourceReader,
  walks: (path: string) => boolean,
  seen: ReadonlySet<string>,
): Promise<SymbolRecord[]> {
  // Vendored and example code is not part of the flow a question follows, nor are tests.
  const edges = (await calleesOf(generationId, symbol.qualifiedId, 40)).filter(
    (e) => e.dstId && e.confidence >= 0.4 && walks(e.dstPath ?? ""),
  );
  const ids = [
    ...new Set([
      ...edges.map((e) => e.dstId as string),
      ...(await unresolvedCallees(generationId, symbol, edges, walks, reader)),
      ...(await returnedClosures(generationId, symbol, reader)),
    ]),
  ].filter((id) => !seen.has(id));
  // A macro's calls are its caller's: the walk goes through it to the functions its body calls.
  const written = [
    ...(isMacro(symbol) ? await macroCallees(generationId, symbol, reader, walks) : []),
    ...(await symbolsInIdOrder(generationId, ids)),
  ];
  return (await throughMacros(generationId, written, reader, walks)).filter(
    (s) => !seen.has(s.qualifiedId) && !isOwnStub(s, symbol),
  );
}

/** A declaration of the step's own name in its file that calls nothing (`retry()` inside `retry`, resolved to its `@overload` stub). */
function isOwnStub(callee: SymbolRecord, step: SymbolRecord): boolean {
  return (
    callee.qualifiedName === step.qualifiedName &&
    callee.path === step.path &&
    callee.fanOut === 0 &&
    callee.qualifiedId !== step.qualifiedId
  );
}

export async function walkForward(
  generationId: string,
  symbol: SymbolRecord,
  depth: number,
  maxDepth: number,
  maxCallees: number,
  seen: Set<string>,
  options: WalkOptions,
): Promise<FlowNode> {
  seen.add(symbol.qualifiedId);
  const node: FlowNode = { symbol, depth, children: [] };
  if (!options.useGraph || depth >= maxDepth) return node;
  const direct = await directCallees(generationId, symbol, options.reader, options.walks, seen);
  // Callees that bear on the question first, then the main line (what the step returns), then
  // the steps that carry the flow on, in call order.
  const written = await writtenLines(symbol, options.reader);
  const tails = mainLine(written.tails, direct);
  const tail = (s: SymbolRecord) => (tails.has(s.name) ? 0 : 1);
  // A call in a condition or an error handler is a side branch: the question naming it by its
  // own name still puts it first, its class's name alone does not.
  const side = (s: SymbolRecord) =>
    (written.sides.handlers.has(s.name) || (written.sides.conditions.has(s.name) && isCheck(s))) &&
    !options.named?.(s);
  const relevance = (s: SymbolRecord) => (side(s) ? 0 : options.relevant(s));
  const callees = (
    await implemented(
      generationId,
      await overridden(generationId, direct, options.dispatch, symbol),
      options.walks,
      options.reader,
    )
  )
    .filter((s) => !options.only || options.only(s))
    .map((s, order) => ({ s, order, relevance: relevance(s) }))
    .sort(
      (a, b) =>
        b.relevance - a.relevance ||
        Number(side(a.s)) - Number(side(b.s)) ||
        tail(a.s) - tail(b.s) ||
        calleeRank(a.s) - calleeRank(b.s) ||
        a.order - b.order,
    )
    .slice(0, maxCallees)
    .map((x) => x.s);
  // A step that only hands on to one callee (a thin overload, a class method delegating to
  // the instance's, a `Must…` wrapper) costs the walk no level of its own: the flow's working
  // steps lie beyond it, up to WRAPPER_LEVELS levels past the walk's depth.
  const through = callees.length === 1 && direct.length === 1 && maxDepth < options.depthCap;
  // A step that stores state hands the flow on to the code reading it: the readers come first and,
  // like a thin wrapper's callee, cost the walk no level.
  const readers = (options.stateReaders ? await options.stateReaders(symbol, seen) : []).filter(
    (s) => options.walks(s.path) && (!options.only || options.only(s)),
  );
  for (const r of readers) seen.add(r.qualifiedId);
  for (const r of readers)
    node.children.push({
      ...(await walkForward(
        generationId,
        r,
        depth + 1,
        Math.min(maxDepth + 1, options.depthCap),
        maxCallees,
        seen,
        options,
      )),
      mainLine: true,
    });
  for (const callee of callees) {
    if (seen.has(callee.qualifiedId)) continue;
    const child = await walkForward(
      generationId,
      callee,
      depth + 1,
      through && readers.length === 0 ? maxDepth + 1 : maxDepth,
      maxCallees <= 1 ? 1 : Math.max(2, Math.floor(maxCallees / 3)),
      seen,
      options,
    );
    if (tails.has(callee.name)) child.mainLine = true;
    else if (side(callee)) child.sideLine = true;
    node.children.push(child);
  }
  return node;
}

/**
 * The line from a flow's entry to the step the question says it ends at ("… until a connection
 * sends the request"): a search down the call graph, level by level, through the callees that
 * bear most on the end clause (`endScore`, named by the step's own name or its class's) and the
 * question, for the step named best like the end; then on through callees named at least as
 * well (`_make_request` → the connection's `request`). The line found is grafted onto the walked
 * tree as its main line (`endward`), steps already walked elsewhere moved onto it, so the chain
 * the answer lists reaches the end while the tree keeps its breadth.
 */
export async function walkToEnd(
  generationId: string,
  root: FlowNode,
  end: {
    /** how well a step is named like the end clause, its class's name counting too */
    score: (s: SymbolRecord) => number;
    /** the same by the step's own name only */
    own: (s: SymbolRecord) => number;
  },
  seen: Set<string>,
  options: WalkOptions,
): Promise<boolean> {
  if (!options.useGraph) return false;
  const { score: endScore } = end;
  const parent = new Map<string, SymbolRecord>();
  const visited = new Set([root.symbol.qualifiedId]);
  const named = (s: SymbolRecord) => (end.own(s) > 0 ? endScore(s) : 0);
  let best: { s: SymbolRecord; score: number } | null = null;
  let bestLevel = 0;
  let frontier = [root.symbol];
  // A step's callees as the walk reads them: dispatched to overrides and implementations.
  const calleesOf = async (s: SymbolRecord, excluded: Set<string>) =>
    implemented(
      generationId,
      await overridden(
        generationId,
        await directCallees(generationId, s, options.reader, options.walks, excluded),
        options.dispatch,
        s,
      ),
      options.walks,
      options.reader,
    );
  const expand = async (s: SymbolRecord) =>
    (await calleesOf(s, visited)).filter((c) => !visited.has(c.qualifiedId) && !isTestSymbol(c));
  let expansions = 0;
  for (let level = 1; level <= END_LEVELS && frontier.length > 0 && expansions < END_EXPANSIONS; level++) {
    const next: SymbolRecord[] = [];
    for (const s of frontier.slice(0, Math.max(0, END_EXPANSIONS - expansions))) {
      expansions++;
      for (const c of await expand(s)) {
        if (visited.has(c.qualifiedId)) continue;
        visited.add(c.qualifiedId);
        parent.set(c.qualifiedId, s);
        next.push(c);
        const score = named(c);
        // On a tie the step that goes on calling, not a check or getter on the way (`response_redirects?`).
        if (
          score > (best?.score ?? 0) ||
          (best && score === best.score && level === bestLevel && c.fanOut > best.s.fanOut)
        ) {
          best = { s: c, score };
          bestLevel = level;
        }
      }
    }
    frontier = next
      .filter((c) => c.fanOut > 0 && (c.fanIn < HELPER_FAN_IN || endScore(c) > 0))
      .map((c, order) => ({ c, order, key: 2 * endScore(c) + options.relevant(c) }))
      .sort((a, b) => b.key - a.key || a.order - b.order)
      .slice(0, END_BEAM)
      .map((x) => x.c);
  }
  if (!best) return false;
  const found = best;
  // On past a step, while a callee is named at least as well as the step found: the search's
  // own visits do not stop it (the connection's `request` one level past `_make_request`).
  const onPast = async (from: SymbolRecord, line: SymbolRecord[]) => {
    const taken = new Set([...seen, ...line.map((s) => s.qualifiedId)]);
    for (let i = 0, at = from; i < END_BEYOND; i++) {
      const on = (await calleesOf(at, taken)).find(
        (c) => !taken.has(c.qualifiedId) && !isTestSymbol(c) && named(c) >= found.score,
      );
      if (!on) break;
      taken.add(on.qualifiedId);
      line.push(on);
      at = on;
    }
    return line;
  };
  // A walk that already reached a step named as well as the one found needs no line of its own;
  // where it stopped there, it goes on past it.
  const reached = flatten(root).filter((n) => n.depth > 0 && named(n.symbol) >= found.score);
  if (reached.length > 0) {
    const last = reached.find((n) => n.children.length === 0 && n.symbol.fanOut > 0);
    if (!last || reached.some((n) => n.children.length > 0)) return false;
    const more = await onPast(last.symbol, []);
    if (more.length === 0) return false;
    graft(last, more);
    for (const s of more) seen.add(s.qualifiedId);
    return true;
  }
  const line: SymbolRecord[] = [];
  for (let s: SymbolRecord | undefined = found.s; s && s !== root.symbol; s = parent.get(s.qualifiedId))
    line.unshift(s);
  await onPast(found.s, line);
  graft(root, line);
  for (const s of line) seen.add(s.qualifiedId);
  return true;
}

/** How many levels below the entry the end is looked for. */
const END_LEVELS = 6;
/** How many steps of a level the search goes on from. */
const END_BEAM = 8;
/** How many steps the search looks into in all, so an answer stays fast. */
const END_EXPANSIONS = 30;
/** How many steps past the one found the line goes on through callees named as well. */
const END_BEYOND = 2;

/**
 * Puts `line` (steps from below the root down) onto the tree as its main line: each step the
 * first child of the one before, taken from wherever the walk had put it (with what it calls).
 */
export function graft(root: FlowNode, line: SymbolRecord[]): void {
  let at = root;
  for (const s of line) {
    let child = at.children.find((c) => c.symbol.qualifiedId === s.qualifiedId);
    if (child) at.children.splice(at.children.indexOf(child), 1);
    else child = detach(root, s.qualifiedId) ?? { symbol: s, depth: 0, children: [] };
    redepth(child, at.depth + 1);
    child.endward = true;
    at.children.unshift(child);
    at = child;
  }
}

/** Takes the node of a symbol out of the tree, with its subtree. */
function detach(node: FlowNode, qualifiedId: string): FlowNode | null {
  const i = node.children.findIndex((c) => c.symbol.qualifiedId === qualifiedId);
  if (i >= 0) return node.children.splice(i, 1)[0] ?? null;
  for (const c of node.children) {
    const found = detach(c, qualifiedId);
    if (found) return found;
  }
  return null;
}

function redepth(node: FlowNode, depth: number): void {
  node.depth = depth;
  for (const c of node.children) redepth(c, depth + 1);
}

/**
 * The calls a step returns through that mark its main line: none when most of its callees are
 * returned through (a `switch` dispatching every state with `return parse_x(…)`), which says
 * nothing about which one the flow takes.
 */
function mainLine(tails: Set<string>, callees: SymbolRecord[]): Set<string> {
  const names = new Set(callees.map((c) => c.name));
  const returned = [...names].filter((n) => tails.has(n)).length;
  return returned * 2 > names.size ? new Set() : tails;
}

/**
 * The names a function calls where it returns (`return mx.tree.InsertRoute(method, pattern, h)`,
 * `return sign(payload, key, provider)`): what it hands its result on to is where its flow goes
 * on, while a call under a guard before it (`if mx.handler == nil { mx.updateRouteHandler() }`)
 * is a side branch.
 */
function tailCalls(lines: readonly string[], calls: { name: string; line: number }[]): Set<string> {
  return new Set(calls.filter((c) => /^return\b/.test((lines[c.line - 1] ?? "").trim())).map((c) => c.name));
}

/** The calls a step returns through (`tailCalls`), and those it makes only off its main line (`sideCalls`). */
async function writtenLines(
  symbol: SymbolRecord,
  reader: SourceReader,
): Promise<{ tails: Set<string>; sides: ReturnType<typeof sideCalls> }> {
  const none = {
    tails: new Set<string>(),
    sides: { conditions: new Set<string>(), handlers: new Set<string>() },
  };
  const calls = storedCalls(symbol.calls);
  if (calls.length === 0) return none;
  const lines = await reader.lines(symbol.path);
  if (!lines) return none;
  return { tails: tailCalls(lines, calls), sides: sideCalls(lines, calls, symbol.startLine) };
}

/**
 * Callers of `symbol`, then their callers: a tree whose children are callers (so
 * `renderFlow` draws it upward). Only resolved edges of fair confidence, strongest
 * first, tests last.
 */
export async function walkBackward(
  generationId: string,
  symbol: SymbolRecord,
  depth: number,
  maxDepth: number,
  maxCallers: number,
  walks: (path: string) => boolean,
  seen = new Set<string>([symbol.qualifiedId]),
): Promise<FlowNode> {
  const node: FlowNode = { symbol, depth, children: [] };
  if (depth >= maxDepth) return node;
  // Code only, unless the question is about tests: a test calling X says less about how X is
  // used than the code does (and a test has no callers worth walking).
  const edges = (await callersOf(generationId, symbol.qualifiedId, 40)).filter(
    (e) => e.confidence >= 0.4 && walks(e.srcPath),
  );
  const ids = [...new Set(edges.map((e) => e.srcId))].filter((id) => !seen.has(id)).slice(0, maxCallers);
  ids.forEach((id) => seen.add(id));
  const callers = await symbolsInIdOrder(generationId, ids);
  for (const caller of callers) {
    node.children.push(
      await walkBackward(generationId, caller, depth + 1, maxDepth, Math.max(2, maxCallers - 3), walks, seen),
    );
  }
  return node;
}

/** The symbols with these ids, in the order of the ids (edges come ranked; the query does not keep it). */
async function symbolsInIdOrder(generationId: string, ids: string[]): Promise<SymbolRecord[]> {
  const order = new Map(ids.map((id, i) => [id, i]));
  const symbols = await symbolsByQualifiedIds(generationId, ids);
  return symbols.sort((a, b) => (order.get(a.qualifiedId) ?? 0) - (order.get(b.qualifiedId) ?? 0));
}

export function flatten(node: FlowNode): FlowNode[] {
  return [node, ...node.children.flatMap(flatten)];
}

/**
 * A call tree as indented lines; `arrow` says how a child relates to its parent (→ callee, ←
 * caller; ⇒ a callee on the line to where the question says the flow ends, ↪ one called only
 * under a check or in an error handler).
 */
export function renderFlow(node: FlowNode, indent = "", arrow = "→"): string {
  const s = node.symbol;
  // A step on the line to where the question says the flow ends is drawn `⇒`, one called only
  // under a check or in an error handler `↪`.
  const drawn = arrow !== "→" ? arrow : node.endward ? "⇒" : node.sideLine ? "↪" : arrow;
  const line = `${indent}${indent ? `${drawn} ` : ""}${s.qualifiedName}()  [${s.path}:${s.startLine}-${s.endLine}]`;
  return [line, ...node.children.map((c) => renderFlow(c, `${indent}    `, arrow))].join("\n");
}

/** The call tree as a diagram: nodes in walk order (the entry first), the rest grouped by file. */
export function flowDiagram(flows: FlowNode[], callerTrees: FlowNode[] = []): DiagramPart {
  const symbols = new Map<string, SymbolRecord>();
  for (const n of [...flows, ...callerTrees].flatMap(flatten)) symbols.set(n.symbol.qualifiedId, n.symbol);
  const ids = new Map([...symbols.keys()].map((qid, i) => [qid, `f${i}`]));
  const id = (n: FlowNode) => ids.get(n.symbol.qualifiedId) as string;
  const edges: GraphEdge[] = [];
  const link = (from: string, to: string) => {
    if (!edges.some((e) => e.from === from && e.to === to)) edges.push({ from, to, weight: 1 });
  };
  const visit = (n: FlowNode) => n.children.forEach((c) => (link(id(n), id(c)), visit(c)));
  flows.forEach(visit);
  // Caller trees point the other way: a caller's arrow goes into what it calls.
  const visitCallers = (n: FlowNode) => n.children.forEach((c) => (link(id(c), id(n)), visitCallers(c)));
  callerTrees.forEach(visitCallers);
  const nodes: GraphNode[] = [...symbols.values()].map((s) => ({
    id: ids.get(s.qualifiedId) as string,
    label: s.qualifiedName,
    path: s.path,
    startLine: s.startLine,
    endLine: s.endLine,
    shape: "box",
    group: null,
    folder: s.path,
    noun: "functions",
  }));
  const { graph } = capGraph({ direction: "TD", groups: [], nodes, edges });
  return diagramPart(
    "call-flow",
    callerTrees.some((t) => t.children.length > 0)
      ? "Callers and call flow of the entry point"
      : "Call flow from the entry point",
    graph,
  );
}
