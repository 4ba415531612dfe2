/**
 * The deciding caller of a diagnostic lead: where an error is raised or a status written
 * is half the answer; the other half is the caller under whose condition that happens
 * (`if rctx.methodNotAllowed { mx.MethodNotAllowedHandler().ServeHTTP(w, r) }`). Found
 * among the definitions the answer holds, in their order: a direct caller whose call is
 * guarded (an `if`, a `case` arm), else one reaching the lead through a step between (a
 * handler's getter) under a condition, else the first caller. Pure.
 */
import type { ContextItem } from "./contract.ts";
import { conditionOf, isAuxiliary } from "./evidence-reading.ts";
import { isTestSymbol } from "./lead-definition.ts";

/** How many of the answer's leading definitions are read for a caller. */
const READ = 8;

export interface DecidingCaller {
  item: ContextItem;
  /** the condition the call is made under, when one guards it */
  condition: string | null;
}

/** The last segment of a qualified name, without an overload mark (`Mux.routeHTTP` → `routeHTTP`). */
function shortName(item: ContextItem): string {
  const name = (item.facts?.qualifiedName ?? "").replace(/#\d+$/, "");
  return (name.split(/[.:#]/).filter(Boolean).at(-1) ?? name).replace(/[?!]$/, "");
}

/** The line of `text`, after its signature, that calls `name`, as the caller wrote it. */
function callOf(text: string, name: string): string | null {
  if (!/^[\w$]+$/.test(name) || name.length < 3) return null;
  const call = new RegExp(`(?<![\\w$])${name.replace(/\$/g, "\\$")}\\s*[(!]`);
  const lines = text.split("\n");
  const line = lines.slice(1).find((l) => call.test(l) && !/^\s*(?:\/\/|#|\*|\/\*)/.test(l));
  return line ? line.trim() : null;
}

/**
 * The caller of `lead` among the answer's leading definitions: a direct caller whose call
 * is guarded, else a guarded caller through one definition between (itself among them),
 * else the first that calls it.
 */
export function decidingCaller(lead: ContextItem, symbols: ContextItem[]): DecidingCaller | null {
  const leads = symbols
    .filter((s) => s.facts && s !== lead && !isAuxiliary(s.path ?? "") && !isTestSymbol(s))
    .filter((s) => s.facts?.qualifiedName !== lead.facts?.qualifiedName)
    .slice(0, READ);
  const target = shortName(lead);
  const between = leads.filter((s) => callOf(s.text, target));
  const found: (DecidingCaller & { direct: boolean })[] = [];
  for (const s of leads) {
    const direct = callOf(s.text, target);
    const via = direct ? null : between.find((m) => m !== s && callOf(s.text, shortName(m)));
    const line = direct ?? (via ? callOf(s.text, shortName(via)) : null);
    if (!line) continue;
    found.push({ item: s, condition: guardOf(s.text, line), direct: direct !== null });
  }
  // A guarded direct call decides first; else a guarded call through a step between (a
  // getter handing the lead on); else the first caller.
  const chosen = found.find((f) => f.direct && f.condition) ?? found.find((f) => f.condition) ?? found[0];
  return chosen ? { item: chosen.item, condition: chosen.condition } : null;
}

/** A `case X:` / `when X` arm (C-family, PHP, Go, Ruby) a line runs in. */
const CASE_ARM = /^\s*(?:case|when)\s+(.+?)\s*:?\s*$/;

/**
 * The condition a call runs under: an enclosing `if`/`while`/`unless` (conditionOf), else
 * the `case` arm it sits in (`case RoutingResults::METHOD_NOT_ALLOWED:` → its value).
 */
function guardOf(text: string, line: string): string | null {
  const plain = conditionOf(text, line);
  if (plain) return plain;
  const lines = text.split("\n");
  const at = lines.findIndex((l) => l.includes(line.slice(0, 40)));
  const indent = (l: string) => l.length - l.trimStart().length;
  const depth = indent(lines[at] ?? "");
  for (let i = at - 1; i > 0 && at - i <= 8; i--) {
    const above = lines[i] ?? "";
    if (!above.trim() || indent(above) >= depth) continue;
    return CASE_ARM.exec(above)?.[1] ?? null;
  }
  return null;
}
