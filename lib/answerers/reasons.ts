/**
 * Why context was picked, said once: a reason is a "; "-separated list of parts
 * ("entry point; matches the question's terms"), and a list of items that share parts
 * states those once for the list and each item only what is its own.
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
