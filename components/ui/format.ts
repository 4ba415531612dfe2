/** Small display formatters shared by the panels. */

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

export function formatCount(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

const STOP_REASONS: Record<string, string> = {
  "no-gaps": "nothing was missing",
  "all-gaps-unresolvable": "every remaining gap was already known to be unfindable",
  "max-passes": "the pass limit was reached",
  "budget-exhausted": "the context budget was used up",
  "no-new-context": "the last pass found no new context",
  sufficient: "the answer was judged sufficient",
};

export function describeStopReason(reason: string | null | undefined): string {
  return reason ? (STOP_REASONS[reason] ?? reason) : "";
}
