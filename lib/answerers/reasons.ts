/**
 * Why context was picked, said once: a reason is a "; "-separated list of parts
 * ("entry point; matches the question's terms"). A list states the parts every item
 * shares once for the list, then groups its items by the rest of their reason, so each
 * kind of reason is said once however many items have it.
 */

export function reasonParts(reason: string): string[] {
  return reason
    .split(";")
    .map((p) => p.trim())
    .filter(Boolean);
}

export interface SharedReasons {
  /** parts every item has (empty for fewer than two items) */
  shared: string[];
  /** each item's other parts, in the order given */
  own: string[][];
}

export function splitSharedReasons(reasons: string[]): SharedReasons {
  const parts = reasons.map(reasonParts);
  const shared =
    parts.length < 2 ? [] : (parts[0] ?? []).filter((p) => parts.every((list) => list.includes(p)));
  return { shared, own: parts.map((list) => list.filter((p) => !shared.includes(p))) };
}

export interface ReasonGroup<T> {
  /** the reason these items share beyond the list's shared parts ("" for none) */
  reason: string;
  items: T[];
}

/**
 * Items grouped by their own reason (after the parts every item shares), groups in the
 * order their first item comes, items in their order within a group.
 */
export function groupByReason<T>(
  items: T[],
  reasonOf: (item: T) => string,
): { shared: string[]; groups: ReasonGroup<T>[] } {
  const { shared, own } = splitSharedReasons(items.map(reasonOf));
  // The same parts in another order are the same reason.
  const groups = new Map<string, ReasonGroup<T>>();
  items.forEach((item, i) => {
    const parts = own[i] ?? [];
    const key = [...parts].sort().join("\n");
    const group = groups.get(key) ?? { reason: parts.join("; "), items: [] };
    group.items.push(item);
    groups.set(key, group);
  });
  return { shared, groups: [...groups.values()] };
}
