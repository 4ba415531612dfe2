/**
 * Co-occurrence counts of word pairs, the raw material of term associations: how often
 * two words of a vocabulary appear near each other. Millions of pairs are counted, so
 * they live in an open-addressing table over typed arrays (a Map of that many entries
 * costs gigabytes); a pair of word ids (both below 65536) is one 32-bit key.
 */

/** Vocabularies are at most this large: two ids make one 32-bit key. */
export const MAX_VOCABULARY = 65_536;

export class PairCounts {
  private keys: Uint32Array;
  private values: Float32Array;
  private mask: number;
  size = 0;

  constructor(capacity = 1 << 16) {
    let slots = 1;
    while (slots < capacity * 2) slots <<= 1;
    this.keys = new Uint32Array(slots);
    this.values = new Float32Array(slots);
    this.mask = slots - 1;
  }

  /** Adds `weight` to the unordered pair (a, b); a pair of a word with itself is not counted. */
  add(a: number, b: number, weight = 1): void {
    if (a === b) return;
    // The smaller id first, so (a, b) and (b, a) are one pair; key 0 never occurs (b > a >= 0).
    const key = a < b ? a * MAX_VOCABULARY + b : b * MAX_VOCABULARY + a;
    let slot = Math.imul(key, 0x9e3779b1) >>> 0;
    for (;;) {
      slot &= this.mask;
      const k = this.keys[slot] as number;
      if (k === key) {
        this.values[slot] = (this.values[slot] as number) + weight;
        return;
      }
      if (k === 0) {
        this.keys[slot] = key;
        this.values[slot] = weight;
        if (++this.size * 2 > this.mask) this.grow();
        return;
      }
      slot++;
    }
  }

  /** Calls `visit` once per pair (the smaller id first). */
  forEach(visit: (a: number, b: number, count: number) => void): void {
    for (let slot = 0; slot <= this.mask; slot++) {
      const key = this.keys[slot] as number;
      if (key === 0) continue;
      visit(Math.floor(key / MAX_VOCABULARY), key % MAX_VOCABULARY, this.values[slot] as number);
    }
  }

  private grow(): void {
    const { keys, values } = this;
    this.keys = new Uint32Array(keys.length * 2);
    this.values = new Float32Array(keys.length * 2);
    this.mask = this.keys.length - 1;
    this.size = 0;
    for (let slot = 0; slot < keys.length; slot++) {
      const key = keys[slot] as number;
      if (key === 0) continue;
      let target = Math.imul(key, 0x9e3779b1) >>> 0;
      for (;;) {
        target &= this.mask;
        if (this.keys[target] === 0) break;
        target++;
      }
      this.keys[target] = key;
      this.values[target] = values[slot] as number;
      this.size++;
    }
  }
}

/**
 * Counts the pairs of a word sequence (ids, -1 for words outside the vocabulary) within
 * `window` positions of each other, nearer pairs counting more (1 / distance), and the
 * pairs of each name word with the sequence's first `nameReach` words: a function's
 * name and its docstring and first lines describe the same thing.
 */
export function countPairs(
  counts: PairCounts,
  ids: ArrayLike<number>,
  nameIds: ArrayLike<number>,
  options: { window: number; nameReach: number; weight?: number },
): void {
  const weight = options.weight ?? 1;
  for (let i = 0; i < ids.length; i++) {
    const a = ids[i] as number;
    if (a < 0) continue;
    const end = Math.min(ids.length, i + options.window + 1);
    for (let j = i + 1; j < end; j++) {
      const b = ids[j] as number;
      if (b >= 0) counts.add(a, b, weight / (j - i));
    }
  }
  const reach = Math.min(ids.length, options.nameReach);
  for (let n = 0; n < nameIds.length; n++) {
    const a = nameIds[n] as number;
    if (a < 0) continue;
    for (let i = 0; i < reach; i++) {
      const b = ids[i] as number;
      if (b >= 0) counts.add(a, b, weight * 0.5);
    }
  }
}
