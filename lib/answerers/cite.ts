/**
 * How an answer cites a context item: `path:start-end` of the lines that answer — the
 * item's focus when it has one (the matched lines of a long function), else the item's
 * own span (a function, a section). Every answerer writes citations through this, so
 * they point where the retrieval found the answer.
 */
import type { ContextItem } from "./contract.ts";

export function citeItem(item: Pick<ContextItem, "path" | "startLine" | "endLine" | "focus">): string {
  if (!item.path) return "";
  const span = item.focus ?? item;
  return `${item.path}:${span.startLine}-${span.endLine}`;
}
