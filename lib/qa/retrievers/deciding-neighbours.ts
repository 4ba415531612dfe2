/**
 * The deciding callees of the leading functions. The condition or formula a question asks
 * about often lives one call below what ranks first: the public entry, the option or the
 * wrapper that names the thing (`if as.systemOverloaded() || as.stillHot()` in
 * `shouldDrop`, `if err := b.accept(); err != nil` in `doReq`). A callee a leading
 * function tests in one of its conditions, and whose own condition and formula lines
 * carry the question's words, comes up just below that function, which keeps its place —
 * and into the leading few only when it decides more of the question than the symbol it
 * pushes out of them. A callee called in the branch of a condition carrying the question's
 * words is what that decision does (`if free == self.opts.max_open {
 * self.stack_list[oldest].close(); }`): it weighs those words, as a tested callee weighs
 * its own conditions'. A callee merely called (a logger, a step of the work) is left where
 * it is: one hop brings up too much that decides nothing. A long function's calls are read
 * far down, as the deciding one can come late in it. A leading declaration (an
 * interface's or abstract method, which calls nothing) gives way to its implementation
 * (at most two), which takes its place with the declaration kept just below.
 *
 * The partner can also stand one call above: the function calling a leading one under its
 * conditions (`if handleBOM(quad)` in `detectEncoding`, `if route.Match(req, match)` in the
 * router's `Match`) chooses between the leading functions or decides when the leading one
 * is taken. It comes up below the leading function it calls when it calls two or more of
 * the leading few so (weighing its conditions' words once for each), or when the condition
 * at the call carries question words besides the called function's own name. The callers
 * of a function called from more than three places (a helper, a logger) are none of them
 * its partner.
 *
 * Among the leading few, a function that only passes the value along (an entry point the
 * question names as the user calls it, a constructor or factory, a getter, a wrapper) and
 * whose condition and formula lines carry little of the question decides little of what
 * it asks: it gives its place to the leading functions that do (`decidingFirst`).
 */
import "server-only";
import {
  callEdgesOfMany,
  inheritorsOf,
  type EdgeRecord,
  symbolsByQualifiedIds,
  type SymbolRecord,
} from "../../db/code-graph.ts";
import { bodyStart } from "../../answerers/body-shape.ts";
import { decidingWeight, lineWeight, wordStems, type FocusQuery } from "../focus.ts";
import type { SourceReader } from "../context.ts";
import { isCodeFunction, isTestSymbol, type Ranked } from "./shared.ts";

/** How many leading symbols have their neighbours read. */
const LEADERS = 5;
/** How many neighbours may come up in all (each below a different leading function). */
const ADDED = 2;
/** Calls read per leading function (a long function's deciding call can come late in it). */
const CALLEES = 160;
/** A callee ranks just below the function calling it; an implementation just above its declaration. */
const BELOW = 0.97;
const ABOVE = 1.001;

/** A function one call below a leading one. */
export interface Neighbour {
  symbol: SymbolRecord;
  /** the leading function's qualified id */
  leader: string;
  /** implements the leading declaration (stands in its place); else called in one of its conditions */
  implements?: boolean;
  /** called outside the leading function's conditions, in the branch of one or after it */
  untested?: boolean;
  /** the question's words on the conditions at the call (its line and the two above it) */
  site?: number;
  /** calls the leading function (and `leaders` of the leading few in all) under one of its conditions */
  calling?: boolean;
  leaders?: number;
}

/**
 * A line that tests something (a call on it decides the leader's outcome): a condition, a
 * guard, a returned boolean; comparisons spaced as operators (`<T>` and `=>` are not).
 */
const TESTING =
  /^\s*(?:}\s*)?(?:if|elif|else\s+if|while|unless|until|when|case|switch|match|guard|return)\b|\s\?\s.*\s:\s|&&|\|\||\s(?:[<>]=?|[!=]==?)\s|\bif\b|\bunless\b/;

/**
 * The neighbours worth bringing up, best first: those whose own conditions and formulas
 * carry the question's words, at most one per leading function.
 */
export function decidingNeighbours(
  neighbours: Neighbour[],
  weightOf: (symbol: SymbolRecord) => number,
): { neighbour: Neighbour; weight: number }[] {
  const chosen = new Map<string, { neighbour: Neighbour; weight: number }>();
  for (const n of neighbours) {
    const weight = weightOf(n.symbol);
    const key = `${n.calling ? "caller" : "callee"} ${n.leader}`;
    const best = chosen.get(key);
    if (weight > 0 && (!best || weight > best.weight)) chosen.set(key, { neighbour: n, weight });
  }
  return [...chosen.values()].sort((a, b) => b.weight - a.weight).slice(0, ADDED);
}

/**
 * The callees the leading functions test in one of their conditions, and the
 * implementations of the leading declarations (tests aside).
 */
async function neighboursOf(
  generationId: string,
  reader: SourceReader,
  leaders: Map<string, SymbolRecord>,
  ranked: Set<string>,
  query: FocusQuery,
): Promise<Neighbour[]> {
  const [{ callees, callers }, implementing] = await Promise.all([
    callEdgesOfMany(generationId, [...leaders.keys()], { callees: CALLEES, callers: CALLERS }),
    implementations(generationId, leaders, ranked),
  ]);
  const tested = new Map<string, string>();
  const untested = new Map<string, string>();
  const sites = new Map<string, number>();
  for (const [leader, edges] of callees) {
    const from = leaders.get(leader);
    const lines = await reader.lines(from?.path ?? "");
    for (const e of edges) {
      if (!e.dstId || e.dstId === leader || ranked.has(e.dstId) || tested.has(e.dstId)) continue;
      if (TESTING.test(lines?.[e.line - 1] ?? "")) {
        tested.set(e.dstId, leader);
        untested.delete(e.dstId);
        continue;
      }
      const owner = untested.get(e.dstId);
      if (owner && owner !== leader) continue;
      untested.set(e.dstId, leader);
      const site = lines && from ? siteWeight(lines, from, e.line, query) : 0;
      sites.set(e.dstId, Math.max(sites.get(e.dstId) ?? 0, site));
    }
  }
  const callingIds = [...new Set([...callers.values()].flat().map((e) => e.srcId))];
  const ids = [...tested.keys(), ...untested.keys(), ...callingIds];
  const symbols = ids.length ? await symbolsByQualifiedIds(generationId, ids) : [];
  const calling = await callingNeighbours(reader, leaders, callers, symbols, ranked, query);
  const called = symbols.flatMap((symbol): Neighbour[] => {
    const id = symbol.qualifiedId;
    const leader = tested.get(id) ?? untested.get(id);
    if (!leader || !isCodeFunction(symbol)) return [];
    return [
      tested.has(id) ? { symbol, leader } : { symbol, leader, untested: true, site: sites.get(id) ?? 0 },
    ];
  });
  return [...called, ...implementing, ...calling];
}

/** Callers read per leading function. */
const CALLERS = 40;
/** A function called from more places than this is a utility: none of its callers is its partner. */
const CALLED_BY = 3;

/**
 * The functions calling a leading function under one of their conditions (`if
 * handleBOM(quad)`, a call in the branch of an `if`): what chooses between the leading
 * functions, or decides when the leading one runs. Each is counted below the best-ranked
 * leading function it calls, with how many of the leading few it calls so.
 */
async function callingNeighbours(
  reader: SourceReader,
  leaders: Map<string, SymbolRecord>,
  callers: Map<string, EdgeRecord[]>,
  symbols: SymbolRecord[],
  ranked: Set<string>,
  query: FocusQuery,
): Promise<Neighbour[]> {
  const byId = new Map(symbols.map((s) => [s.qualifiedId, s]));
  const found = new Map<string, { symbol: SymbolRecord; leaders: string[]; site: number }>();
  for (const [leader, edges] of callers) {
    const code = new Set(
      edges.flatMap((e) => {
        const s = byId.get(e.srcId);
        return s && isCodeFunction(s) ? [s.qualifiedId] : [];
      }),
    );
    if (code.size > CALLED_BY) continue;
    for (const e of edges) {
      const symbol = byId.get(e.srcId);
      if (!symbol || ranked.has(e.srcId) || leaders.has(e.srcId)) continue;
      if (!isCodeFunction(symbol) || !/[A-Za-z]/.test(symbol.name)) continue;
      const lines = await reader.lines(symbol.path);
      if (!lines || !underCondition(lines, symbol, e.line)) continue;
      const entry = found.get(symbol.qualifiedId) ?? { symbol, leaders: [], site: 0 };
      if (!entry.leaders.includes(leader)) entry.leaders.push(leader);
      const own = new Set(wordStems(leaders.get(leader)?.name ?? ""));
      entry.site = Math.max(entry.site, callingSite(lines, symbol, e.line, query, own));
      found.set(symbol.qualifiedId, entry);
    }
  }
  const order = [...leaders.keys()];
  return [...found.values()].map(({ symbol, leaders: called, site }) => ({
    symbol,
    leader: called.sort((a, b) => order.indexOf(a) - order.indexOf(b))[0] as string,
    calling: true,
    leaders: called.length,
    site,
  }));
}

/** Whether a call at `line` is tested, or made in the branch of a condition just above it, inside `caller`'s body. */
function underCondition(lines: readonly string[], caller: SymbolRecord, line: number): boolean {
  for (let l = Math.max(caller.startLine + 1, line - SITE_ABOVE); l <= line; l++)
    if (TESTING.test(lines[l - 1] ?? "")) return true;
  return false;
}

/** Lines above a call read for the conditions it is called under. */
const SITE_ABOVE = 2;

/**
 * The question's words on the condition lines at a call: its own line and the two above
 * it, within the calling function's body.
 */
function siteWeight(lines: readonly string[], caller: SymbolRecord, line: number, query: FocusQuery): number {
  let n = 0;
  for (let l = Math.max(caller.startLine + 1, line - SITE_ABOVE); l <= line; l++)
    if (TESTING.test(lines[l - 1] ?? "")) n += lineWeight(lines, query, l);
  return n;
}

/**
 * The question's words on the condition lines at a call of a leading function, its own
 * name's words aside: `if isQuoted(name)` says nothing more of a question about quoting
 * than the leading `isQuoted` does.
 */
function callingSite(
  lines: readonly string[],
  caller: SymbolRecord,
  line: number,
  query: FocusQuery,
  own: Set<string>,
): number {
  const words = new Set<string>();
  for (let l = Math.max(caller.startLine + 1, line - SITE_ABOVE); l <= line; l++) {
    const text = lines[l - 1] ?? "";
    if (!TESTING.test(text)) continue;
    for (const t of wordStems(text)) if (query.terms.has(t) && !own.has(t)) words.add(t);
  }
  return words.size;
}

/** A declaration with more implementations than this stands for too many to bring one up. */
const IMPLEMENTATIONS = 2;

/**
 * The implementations of the leading declarations (an interface's or abstract method,
 * which calls nothing): what runs when they are called, so they stand where a tested
 * callee would (`IValidationRule.ApplyCondition` → `RuleBase.ApplyCondition`).
 */
async function implementations(
  generationId: string,
  leaders: Map<string, SymbolRecord>,
  ranked: Set<string>,
): Promise<Neighbour[]> {
  const ownerOf = (s: SymbolRecord) => `${s.path}::${s.parentId}`;
  const declared = [...leaders.values()].filter((s) => s.kind === "method" && s.fanOut === 0 && s.parentId);
  if (declared.length === 0) return [];
  const inheritors = await inheritorsOf(generationId, [...new Set(declared.map(ownerOf))]);
  const ids = new Map(
    declared.map((d) => [
      d.qualifiedId,
      inheritors.filter((i) => i.dstId === ownerOf(d)).map((i) => `${i.srcId}.${d.name}`),
    ]),
  );
  const symbols = new Map(
    (await symbolsByQualifiedIds(generationId, [...ids.values()].flat())).map((s) => [s.qualifiedId, s]),
  );
  return [...ids].flatMap(([leader, list]) => {
    const found = list.flatMap((id) => symbols.get(id) ?? []);
    if (found.length > IMPLEMENTATIONS) return [];
    return found
      .filter((s) => !ranked.has(s.qualifiedId) && !isTestSymbol(s))
      .map((symbol) => ({ symbol, leader, implements: true }));
  });
}

/** How many leading symbols are put in order of whether they decide the question. */
export const DECIDING_PLACES = 5;

/** A function passing the value along decides less than this share of the best of the others. */
const PASSING_SHARE = 0.5;

/**
 * The leading few with the functions that pass the value along (`passesOn`) and decide
 * little of what the question asks (`weight` under half the best of the other leading
 * functions) after the others, each in rank order. A function carrying the question's
 * words in no condition can still do the work (an increment, a replacement), so only what
 * passes the value along gives way, and only to a function that decides. A demoted
 * function scores just below the last symbol it gave way to; the rest of the ranking is
 * left as it is.
 */
export function decidingFirst(
  ranked: Ranked[],
  weight: (symbol: SymbolRecord) => number | null,
  passesOn: (symbol: SymbolRecord) => boolean,
): Ranked[] {
  const head = ranked.slice(0, DECIDING_PLACES);
  const symbols = head.flatMap((r) => r.candidate.symbol ?? []);
  const best = Math.max(0, ...symbols.filter((s) => !passesOn(s)).map((s) => weight(s) ?? 0));
  // What `weight` cannot read (a type, a test) keeps its place.
  const idle = (r: Ranked) => {
    const s = r.candidate.symbol;
    const w = s ? weight(s) : null;
    return s !== null && s !== undefined && w !== null && passesOn(s) && w < best * PASSING_SHARE;
  };
  const deciding = head.filter((r) => !idle(r));
  const demoted = head.filter(idle);
  if (demoted.length === 0 || deciding.length === 0 || deciding.every((r, i) => r === head[i])) return ranked;
  const floor = deciding[deciding.length - 1]?.score ?? 0;
  const after = demoted.map((r, i) => ({ ...r, score: Math.min(r.score, floor * (0.99 - 0.01 * i)) }));
  return [...deciding, ...after, ...ranked.slice(DECIDING_PLACES)];
}

/**
 * How much of the question a function's body decides (its condition and formula lines'
 * words, `decidingWeight`), from the source the reader holds; null for what is not a
 * function of the code or whose file cannot be read.
 */
export async function decidingWeights(
  reader: SourceReader,
  symbols: SymbolRecord[],
  query: FocusQuery,
): Promise<(symbol: SymbolRecord) => number | null> {
  const files = [...new Set(symbols.map((s) => s.path))];
  const texts = new Map(await Promise.all(files.map(async (f) => [f, await reader.lines(f)] as const)));
  return (s) => {
    const lines = isCodeFunction(s) ? texts.get(s.path) : undefined;
    if (!lines) return null;
    const from = s.startLine + bodyStart(lines.slice(s.startLine - 1, s.endLine));
    return decidingWeight(lines, from, s.endLine, query);
  };
}

/**
 * The ranking with the deciding callees of its leading functions brought up, each just
 * below the function calling it (see the module header).
 */
export async function withDecidingNeighbours(
  generationId: string,
  reader: SourceReader,
  ranked: Ranked[],
  query: FocusQuery,
): Promise<Ranked[]> {
  const leaders = new Map<string, SymbolRecord>();
  for (const r of ranked.slice(0, LEADERS)) {
    const s = r.candidate.symbol;
    if (s && isCodeFunction(s)) leaders.set(s.qualifiedId, s);
  }
  if (leaders.size === 0) return ranked;
  const top = new Set(
    ranked.slice(0, LEADERS).map((r) => r.candidate.symbol?.qualifiedId ?? r.candidate.key),
  );
  const neighbours = await neighboursOf(generationId, reader, leaders, top, query);
  if (neighbours.length === 0) return ranked;
  // A type or a test decides nothing itself (what decides is a function of the code), so
  // only the functions read here are weighed.
  const weights = await decidingWeights(
    reader,
    [...leaders.values(), ...neighbours.map((n) => n.symbol)],
    query,
  );
  // A callee called outside the conditions counts only under a condition carrying the
  // question's words, and weighs them besides its own.
  const site = new Map(
    neighbours.flatMap((n) =>
      n.untested || (n.calling && (n.leaders ?? 0) < 2) ? [[n.symbol.qualifiedId, n.site ?? 0] as const] : [],
    ),
  );
  // A function calling several of the leading ones under its conditions chooses between them.
  const calls = new Map(
    neighbours.flatMap((n) => (n.calling ? [[n.symbol.qualifiedId, n.leaders ?? 1] as const] : [])),
  );
  const weightOf = (s: SymbolRecord) => {
    const at = site.get(s.qualifiedId);
    return at === 0 ? 0 : ((weights(s) ?? 0) + (at ?? 0)) * (calls.get(s.qualifiedId) ?? 1);
  };
  const chosen = decidingNeighbours(neighbours, weightOf);
  if (chosen.length === 0) return ranked;
  const out = ranked.map((r) => ({ ...r, reasons: [...r.reasons] }));
  const byId = new Map(out.map((r) => [r.candidate.symbol?.qualifiedId ?? r.candidate.key, r]));
  for (const { neighbour, weight } of chosen) {
    const leader = byId.get(neighbour.leader);
    if (!leader) continue;
    // Coming up into the leading few pushes one out: only for a neighbour deciding more than it.
    const place = out.indexOf(leader) + (neighbour.implements ? 0 : 1);
    const pushed = out[LEADERS - 1]?.candidate.symbol;
    if (place < LEADERS && pushed && weightOf(pushed) >= weight) continue;
    // An implementation does what its declaration only names: it takes the declaration's place.
    const score = leader.score * (neighbour.implements ? ABOVE : BELOW);
    const name = neighbour.leader.split("::").pop() ?? neighbour.leader;
    const reason = neighbour.implements
      ? `implements ${name}`
      : neighbour.calling
        ? `calls ${name} under a condition`
        : neighbour.untested
          ? `called by ${name} under a condition carrying the question`
          : `called by ${name}; its conditions carry the question`;
    const existing = byId.get(neighbour.symbol.qualifiedId);
    if (existing) {
      if (existing.score < score) {
        existing.score = score;
        existing.reasons.push(reason);
        out.sort((a, b) => b.score - a.score);
      }
      continue;
    }
    const added: Ranked = {
      candidate: { key: neighbour.symbol.qualifiedId, symbol: neighbour.symbol, chunk: null, reason },
      score,
      reasons: [reason],
    };
    byId.set(neighbour.symbol.qualifiedId, added);
    out.push(added);
    out.sort((a, b) => b.score - a.score);
  }
  return out;
}
