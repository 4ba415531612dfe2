/**
 * Which files may resolve differently after an edit elsewhere. Each File row stores a
 * small Bloom filter of the names its symbols call or extend; when a build changes
 * the files that define a name, only symbols of files whose filter may hold that name
 * are re-resolved (and then checked exactly). A false positive costs one re-resolution,
 * never a wrong edge; a name in the file is always found.
 */
import type { ExtractedCall } from "./types.ts";

const BITS_PER_NAME = 10;
const HASHES = 7;
const MIN_BITS = 64;

/** The name a base class is looked up by: `mod.Base[T]` and `Base<T>` → `Base`. */
export function baseName(written: string): string {
  return (
    written
      .replace(/[<(].*$/, "")
      .split(/[.:]+/)
      .pop() ?? written
  );
}

/** Names a symbol refers to that resolution looks up by name: its calls and its bases. */
export function referencedNames(symbol: { calls: Pick<ExtractedCall, "name">[]; bases: string[] }): string[] {
  return [...symbol.calls.map((c) => c.name), ...symbol.bases.map(baseName)];
}

/** Two independent 32-bit hashes of a name (FNV-1a and its murmur-style finalisation). */
function hashes(name: string): [number, number] {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  let g = h ^ (h >>> 16);
  g = Math.imul(g, 0x85ebca6b);
  g ^= g >>> 13;
  g = Math.imul(g, 0xc2b2ae35);
  g ^= g >>> 16;
  return [h >>> 0, (g | 1) >>> 0];
}

/** The filter of a set of names, base64 ("" when there are none). */
export function buildNameFilter(names: Iterable<string>): string {
  const unique = new Set(names);
  if (unique.size === 0) return "";
  let bits = MIN_BITS;
  while (bits < unique.size * BITS_PER_NAME) bits *= 2;
  const bytes = new Uint8Array(bits / 8);
  for (const name of unique) {
    const [h1, h2] = hashes(name);
    for (let i = 0; i < HASHES; i++) {
      const bit = ((h1 + Math.imul(i, h2)) >>> 0) & (bits - 1);
      bytes[bit >>> 3] = (bytes[bit >>> 3] as number) | (1 << (bit & 7));
    }
  }
  return Buffer.from(bytes).toString("base64");
}

/** Names to test against many filters, hashed once. */
export class NameProbe {
  private readonly hashed: [number, number][];

  constructor(names: Iterable<string>) {
    this.hashed = [...new Set(names)].map(hashes);
  }

  get size(): number {
    return this.hashed.length;
  }

  /** Whether the filter may hold any of the names (false: it certainly holds none). */
  matches(filter: string): boolean {
    if (!filter || this.hashed.length === 0) return false;
    const bytes = Buffer.from(filter, "base64");
    const bits = bytes.length * 8;
    if (bits === 0 || (bits & (bits - 1)) !== 0) return true; // not ours: assume it may
    outer: for (const [h1, h2] of this.hashed) {
      for (let i = 0; i < HASHES; i++) {
        const bit = ((h1 + Math.imul(i, h2)) >>> 0) & (bits - 1);
        if (((bytes[bit >>> 3] as number) & (1 << (bit & 7))) === 0) continue outer;
      }
      return true;
    }
    return false;
  }
}
