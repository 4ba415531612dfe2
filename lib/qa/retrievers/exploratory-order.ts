/**
 * The order a traced flow's steps are answered in: the spine a flow mostly runs along (at each
 * step the callee named most like the question, else the one that goes furthest), each named
 * call's chain in the question's order, then the other steps nearest the entry — constructors,
 * one-line leaves and helpers called from everywhere after the steps that carry the flow on.
 */
import type { SymbolRecord } from "../../db/code-graph.ts";
import { isConstructor } from "./conceptual.ts";
import { isCodeFunction } from "./shared.ts";
import { flatten, HELPER_FAN_IN, type FlowNode } from "./exploratory-walk.ts";

/**
 * The flow's steps as an answer lists them: the entry, the spine (at each step the callee
 * named most like the question, else the one that goes furthest), then the other steps
 * nearest the entry.
 */
export function flowOrder(flows: FlowNode[], relevant: (s: SymbolRecord) => number): FlowNode[] {
  const spine = new Set(
    flows.flatMap((f) => spineOf(f, (n) => relevant(n.symbol))).map((n) => n.symbol.qualifiedId),
  );
  return flows
    .flatMap(flatten)
    .map((n, order) => ({
      n,
      order,
      score: pivotScore(n, relevant(n.symbol)) + (spine.has(n.symbol.qualifiedId) ? SPINE_BONUS : 0),
    }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ n }) => n);
}

/**
 * A trusted flow's steps as the answer's chains read (A → B → C, then D → E for a second
 * call the question names): each flow's spine in the question's order, the lead's places
 * dealt to the chains in turn (`leadShares`) so every named call keeps its next steps before
 * the rest; then the other steps as `flowOrder` ranks them.
 */
export function chainsFirst(
  flows: FlowNode[],
  relevant: (s: SymbolRecord) => number,
  errors = false,
  inbound = false,
): FlowNode[] {
  // The chain asked about runs where nothing fails, unless the question is about errors; a
  // request handed over by the server runs where it is served, not where it is refused.
  const failing = (name: string) => ERROR_STEP.test(name) || (inbound && REFUSAL_STEP.test(name));
  const step = (n: FlowNode) => isCodeFunction(n.symbol) && (errors || !failing(n.symbol.name));
  const chains = flows.map((f) => spineOf(f, (n) => relevant(n.symbol), step, inbound).filter(step));
  const shares = leadShares(chains.map((c) => c.length));
  const lead = chains.flatMap((c, i) => c.slice(0, shares[i]));
  const leading = new Set(lead);
  return [...lead, ...flowOrder(flows, relevant).filter((n) => !leading.has(n))];
}

/**
 * How many steps of each chain lead: the lead's places dealt out one at a time to the chains in
 * turn, so a short chain (a setup call that calls nothing further) leaves its places to the
 * others.
 */
export function leadShares(lengths: number[]): number[] {
  const shares = lengths.map(() => 0);
  let left = FLOW_LEAD;
  while (left > 0 && shares.some((n, i) => n < (lengths[i] ?? 0)))
    for (let i = 0; i < lengths.length && left > 0; i++)
      if ((shares[i] ?? 0) < (lengths[i] ?? 0)) {
        shares[i] = (shares[i] ?? 0) + 1;
        left--;
      }
  return shares;
}

/** A function on a flow's error path (`yaml_parser_set_parser_error`, `throwError`, `panicf`). */
const ERROR_STEP = /error|exception|panic|fail|abort|throw|raise/i;

/** A server's refusal of a request it was handed (`NotFoundHandler`, `methodNotAllowedHandler`). */
const REFUSAL_STEP = /not_?found|not_?allowed|forbidden/i;

/** How many of a trusted flow's steps lead the ranked symbols. */
export const FLOW_LEAD = 5;

/**
 * The entry, then the steps nearest to it (branch points before plain steps); a step named
 * like the question counts as one two levels nearer, and a helper called from everywhere
 * (logging, error wrapping) that the question does not name as one two levels further.
 */
export function pivotScore(
  n: Pick<FlowNode, "depth" | "children" | "sideLine"> & { symbol: StepShape },
  relevance: number,
): number {
  if (n.depth === 0) return 100;
  const helper = relevance === 0 && n.symbol.fanIn >= HELPER_FAN_IN ? 6 : 0;
  // A constructor or a one-line leaf on the way is a step of the flow, not one it runs along, nor
  // is a check or an error handler's call beside it.
  const minor = minorStep(n) || n.sideLine ? 6 : 0;
  const named = minor ? Math.min(1, relevance) : Math.min(2, relevance);
  return 10 - 3 * n.depth + (n.children.length > 1 ? 1 : 0) + 6 * named - helper - minor;
}

type StepShape = Pick<SymbolRecord, "fanIn"> &
  Partial<
    Pick<SymbolRecord, "name" | "qualifiedName" | "kind" | "language" | "fanOut" | "startLine" | "endLine">
  >;

/**
 * A step that carries no flow on: a constructor (`TypeSpec.TypeSpec`, `NewServer`), or a
 * function of one statement that calls nothing further (a getter, a list copied, a value
 * put in a context).
 */
export function minorStep(n: { children: unknown[]; symbol: StepShape }): boolean {
  const s = n.symbol;
  if (s.name === undefined || s.qualifiedName === undefined || s.kind === undefined) return false;
  if (isConstructor({ name: s.name, qualifiedName: s.qualifiedName, kind: s.kind, language: s.language }))
    return true;
  const lines = (s.endLine ?? 0) - (s.startLine ?? 0);
  return n.children.length === 0 && s.fanOut === 0 && lines <= MINOR_LINES;
}

/** Signature, one statement, end. */
const MINOR_LINES = 2;

/**
 * The chain a flow mostly runs along, from the entry down: at each step the callee named
 * most like the question (one that calls nothing counting half: the chain would end there),
 * else the one whose own walk goes furthest (a helper called from everywhere never). Its steps
 * are what "A → B → C" answers list in order, so they rank before the other callees of the entry. With `passDeadEnds` (a request handed over by the
 * server), a dead end keeps its place but the chain goes on past it in the callee that calls
 * further.
 */
export function spineOf<
  N extends { children: N[]; symbol: StepShape; mainLine?: boolean; endward?: boolean; sideLine?: boolean },
>(root: N, relevance: (n: N) => number, steps: (n: N) => boolean = () => true, passDeadEnds = false): N[] {
  const size = (n: N): number => 1 + n.children.reduce((t, c) => t + size(c), 0);
  const out: N[] = [root];
  let at = root;
  for (;;) {
    const ranked = at.children
      .filter((c) => steps(c) && (c.symbol.fanIn < HELPER_FAN_IN || relevance(c) > 0))
      .map((c, order) => ({
        c,
        order,
        key:
          (c.endward ? ENDWARD : 0) -
          (c.sideLine ? SIDE_LINE : 0) +
          namingWeight(c) * (relevance(c) + (c.mainLine ? MAIN_LINE_NAMING : 0)) * 100 +
          size(c),
      }))
      .sort((a, b) => b.key - a.key || a.order - b.order)
      .map((x) => x.c);
    const best = ranked[0];
    if (!best) return out;
    out.push(best);
    const next = passDeadEnds && deadEnd(best) ? ranked.find((c) => !deadEnd(c)) : best;
    if (!next) return out;
    if (next !== best) out.push(next);
    at = next;
  }
}

/**
 * How much a callee's naming counts toward the spine: a constructor or one-line leaf little, a
 * callee that calls nothing half, any other callee fully. The chain would end at one that calls
 * nothing: for "how do my handlers get registered", a limits check named `checkHandlerRegistration`
 * that calls nothing gives way to `addHandlerClasses`, which goes on to register them.
 */
function namingWeight(n: { children: unknown[]; symbol: StepShape }): number {
  if (minorStep(n)) return 0.25;
  return deadEnd(n) ? DEAD_END_NAMING : 1;
}

/** What the naming of a callee that calls nothing counts for, against one that carries the flow on. */
const DEAD_END_NAMING = 0.5;

/**
 * A callee that calls nothing the index knows (a value put in a request's context, a getter):
 * named like the question it still takes its place in the chain, but a request's chain goes on
 * past it in the step that calls the next (`ServeHTTP` → `requestWithVars`, then `Match` →
 * `Route.Match`).
 */
function deadEnd(n: { children: unknown[]; symbol: StepShape }): boolean {
  return n.children.length === 0 && n.symbol.fanOut === 0;
}

/**
 * What a step on the main line (a call its caller returns through, the reader of what its caller
 * stored) counts for, as if named like the question by one word and a half more: the flow goes
 * on there rather than in a side branch named alike.
 */
const MAIN_LINE_NAMING = 1.5;

/**
 * A step called only in its caller's condition or error handler comes after every step of its
 * caller's main line, whatever it is named: the flow goes on where the work is done.
 */
const SIDE_LINE = 10_000;

/** A step on the line to where the question says the flow ends leads the spine whatever it is named. */
const ENDWARD = 100_000;

/** Enough for a spine step three calls deep to rank before the entry's other callees. */
const SPINE_BONUS = 8;
