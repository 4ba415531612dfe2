/**
 * Reciprocal rank fusion: merges ranked lists whose scores are not comparable
 * (BM25 vs cosine) using ranks only. score(item) = Σ weight / (k + rank).
 */

export interface RankedList<T> {
  items: T[];
  /** Default 1. */
  weight?: number;
}

export interface Fused<T> {
  /** The item as it first appeared (best rank, earliest list on equal ranks). */
  item: T;
  score: number;
  /** 1-based rank in each input list, in list order; 0 where the item is absent. */
  ranks: number[];
}

/**
 * Fuses `lists`, deduplicated by `key` (within a list only the first occurrence
 * counts). Sorted by score, best first; equal scores keep the order in which items
 * first appear when reading all lists rank by rank (rank 1 of every list, then
 * rank 2, ...), so ties are stable and favour earlier lists.
 */
export function rrf<T>(lists: RankedList<T>[], key: (t: T) => string, k = 60): Fused<T>[] {
  if (!Number.isFinite(k) || k < 0) throw new RangeError("rrf: k must be a finite number >= 0");
  for (const list of lists) {
    const weight = list.weight ?? 1;
    if (!Number.isFinite(weight) || weight < 0) throw new RangeError("rrf: weights must be finite and >= 0");
  }

  // Rank of each key in each list (first occurrence wins).
  const rankMaps = lists.map((list) => {
    const ranks = new Map<string, { rank: number; item: T }>();
    list.items.forEach((item, index) => {
      const id = key(item);
      if (!ranks.has(id)) ranks.set(id, { rank: index + 1, item });
    });
    return ranks;
  });

  // Rank-major scan fixes the first-appearance order used to break ties.
  const fused = new Map<string, Fused<T>>();
  const longest = Math.max(0, ...lists.map((l) => l.items.length));
  for (let position = 0; position < longest; position++) {
    for (const list of lists) {
      if (position >= list.items.length) continue;
      const item = list.items[position] as T;
      const id = key(item);
      if (!fused.has(id)) fused.set(id, { item, score: 0, ranks: new Array<number>(lists.length).fill(0) });
    }
  }

  for (const [id, entry] of fused) {
    // Summed in list order so equal inputs give bit-identical scores.
    lists.forEach((list, listIndex) => {
      const hit = rankMaps[listIndex]?.get(id);
      if (!hit) return;
      entry.ranks[listIndex] = hit.rank;
      entry.score += (list.weight ?? 1) / (k + hit.rank);
    });
  }

  return [...fused.values()].sort((a, b) => b.score - a.score);
}
