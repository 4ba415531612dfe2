/**
 * The deciding caller of a diagnostic lead: where an error is raised or a status written
 * is half the answer; the other half is the caller under whose condition that happens
 * (`if rctx.methodNotAllowed { mx.MethodNotAllowedHandler().ServeHTTP(w, r) }`). Found
 * among the definitions the answer holds, in their order, directly or through one
 * definition between (a handler's getter), the call guarded by a condition first. Pure.
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
 * The caller of `lead` among the answer's leading definitions whose call is guarded by a
 * condition, else the first that calls it; a caller through one definition between
 * counts when that definition is itself among them.
 */
export function decidingCaller(lead: ContextItem, symbols: ContextItem[]): DecidingCaller | null {
  const leads = symbols
    .filter((s) => s.facts && s !== lead && !isAuxiliary(s.path ?? "") && !isTestSymbol(s))
    .filter((s) => s.facts?.qualifiedName !== lead.facts?.qualifiedName)
    .slice(0, READ);
  const target = shortName(lead);
  const between = leads.filter((s) => callOf(s.text, target));
  const found: DecidingCaller[] = [];
  for (const s of leads) {
    const direct = callOf(s.text, target);
    const via = direct ? null : between.find((m) => m !== s && callOf(s.text, shortName(m)));
    const line = direct ?? (via ? callOf(s.text, shortName(via)) : null);
    if (!line) continue;
    found.push({ item: s, condition: conditionOf(s.text, line) });
  }
  return found.find((f) => f.condition) ?? found[0] ?? null;
}
