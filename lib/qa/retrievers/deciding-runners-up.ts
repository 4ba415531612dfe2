/**
 * Runners-up that decide. The leading five can hold a function whose conditions and formulas
 * carry none of the question's words (a helper named like the topic, a step of the work) or a
 * type the question does not name, while the function testing what is asked ranks sixth to
 * tenth (a router's `findRoute` behind its `Mux` methods). A function of ranks six to ten
 * whose deciding weight (`decidingWeight`: the question's words on its condition and formula
 * lines) is at least the best of the leading five takes the place of one there that decides
 * nothing of it; the one giving way comes just after the five. Functions with some weight or
 * named with one of the question's words, types the question names and what cannot be
 * weighed (tests, text) keep their places.
 */
import type { SymbolRecord } from "../../db/code-graph.ts";
import { TYPE_KINDS, type Ranked } from "./shared.ts";
import { wordStems } from "../focus.ts";

/** The leading places a runner-up may come into. */
const LEADING = 5;
/** How far down a runner-up is looked for. */
export const RUNNERS_UP = 10;

/**
 * The ranking with deciding runners-up (ranks six to ten) in the places of leading symbols
 * that decide nothing of the question, best weight first, each taking the lowest such place;
 * scores stay in descending order (each place keeps the score it had).
 * `weight` is null for what is not a function of the code (a type, a test); `named` holds
 * the code names the question writes, lowercase; `asked` the stems of the question's words.
 */
export function decidingRunnersUp(
  ranked: Ranked[],
  weight: (symbol: SymbolRecord) => number | null,
  named: Set<string>,
  asked: Set<string>,
): Ranked[] {
  if (ranked.length <= LEADING) return ranked;
  const head = ranked.slice(0, LEADING);
  const weightAt = (r: Ranked) => (r.candidate.symbol ? weight(r.candidate.symbol) : null);
  const best = Math.max(0, ...head.map((r) => weightAt(r) ?? 0));
  const idle = head.filter((r) => decidesNothing(r, weightAt(r), named, asked));
  if (idle.length === 0) return ranked;
  const runners = ranked
    .slice(LEADING, RUNNERS_UP)
    .map((r) => ({ r, w: weightAt(r) }))
    .filter((x): x is { r: Ranked; w: number } => x.w !== null && x.w > 0 && x.w >= best)
    .sort((a, b) => b.w - a.w);
  if (runners.length === 0) return ranked;
  const order = [...head];
  const outs: Ranked[] = [];
  const ins = new Set<Ranked>();
  for (const { r } of runners.slice(0, idle.length)) {
    // The lowest-ranked idle place goes first: the index trusted it least.
    const out = idle.pop() as Ranked;
    order[order.indexOf(out)] = r;
    outs.unshift(out);
    ins.add(r);
  }
  const rest = ranked.slice(LEADING).filter((r) => !ins.has(r));
  const reordered = [...order, ...outs, ...rest];
  return reordered.map((r, i) => {
    const score = ranked[i]?.score ?? r.score;
    if (!ins.has(r)) return { ...r, score };
    return {
      ...r,
      score,
      reasons: [...r.reasons, "its conditions carry the question; a leading one's carry none"],
    };
  });
}

/**
 * A leading symbol deciding nothing asked: a function weighing 0 whose name carries none of
 * the question's words (`pytest_collect_file` for a question about collecting defines what
 * is asked, however little its conditions say), or a type the question does not name.
 */
function decidesNothing(r: Ranked, weight: number | null, named: Set<string>, asked: Set<string>): boolean {
  const s = r.candidate.symbol;
  if (!s) return false;
  if (TYPE_KINDS.has(s.kind)) return !named.has(s.name.replace(/#\d+$/, "").toLowerCase());
  return weight === 0 && !wordStems(s.name).some((t) => asked.has(t));
}
