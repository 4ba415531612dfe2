/**
 * A vector collection in memory: ids, payloads and unit vectors in one contiguous
 * Float32Array, upserts in place, deletes by predicate, and exact top-k search by dot
 * product (recall 1.0). The embedded store (vector-store-embedded.ts) loads collection
 * files into these.
 */
import { matchesFilter, type Payload, type PayloadFilter, type VectorHit } from "./vector-store-contract.ts";
function dot(data: Float32Array, offset: number, query: Float32Array, dims: number): number {
  // Four accumulators let the CPU overlap the multiply-adds.
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < dims; i += 4) {
    s0 += (data[offset + i] as number) * (query[i] as number);
    s1 += (data[offset + i + 1] as number) * (query[i + 1] as number);
    s2 += (data[offset + i + 2] as number) * (query[i + 2] as number);
    s3 += (data[offset + i + 3] as number) * (query[i + 3] as number);
  }
  for (; i < dims; i++) s0 += (data[offset + i] as number) * (query[i] as number);
  return s0 + s1 + s2 + s3;
}

export function squaredNorm(vector: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += (vector[i] as number) * (vector[i] as number);
  return sum;
}

/** The unit vector of `vector` (zero stays zero): stored so that cosine similarity is a dot product. */
export function normalized(vector: Float32Array): Float32Array {
  const sum = squaredNorm(vector);
  const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  const out = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = (vector[i] as number) * scale;
  return out;
}

export class Collection {
  ids: string[] = [];
  payloads: Payload[] = [];
  readonly slots = new Map<string, number>();
  data: Float32Array;
  size = 0;

  constructor(
    readonly name: string,
    readonly dims: number,
    capacity = 1024,
  ) {
    this.data = new Float32Array(Math.max(1, capacity) * dims);
  }

  /** Puts a unit vector read from `source` at `offset`. */
  put(id: string, source: Float32Array, offset: number, payload: Payload): void {
    let slot = this.slots.get(id);
    if (slot === undefined) {
      slot = this.size++;
      if (this.size * this.dims > this.data.length) this.grow();
      this.slots.set(id, slot);
      this.ids[slot] = id;
    }
    this.payloads[slot] = payload;
    this.data.set(source.subarray(offset, offset + this.dims), slot * this.dims);
  }

  private grow(): void {
    const capacity = Math.ceil((this.data.length / this.dims) * 1.5) + 1024;
    const data = new Float32Array(capacity * this.dims);
    data.set(this.data);
    this.data = data;
  }

  /** Compacts in place, keeping the survivors' relative order. */
  removeWhere(doomed: (id: string, payload: Payload) => boolean): string[] {
    const { dims, data, ids, payloads, slots } = this;
    const removed: string[] = [];
    let write = 0;
    for (let read = 0; read < this.size; read++) {
      const id = ids[read] as string;
      const payload = payloads[read] as Payload;
      if (doomed(id, payload)) {
        slots.delete(id);
        removed.push(id);
        continue;
      }
      if (write !== read) {
        data.copyWithin(write * dims, read * dims, (read + 1) * dims);
        ids[write] = id;
        payloads[write] = payload;
        slots.set(id, write);
      }
      write++;
    }
    this.size = write;
    ids.length = write;
    payloads.length = write;
    return removed;
  }

  /** Exact top-k by dot product; on equal scores the earlier-inserted item wins. */
  search(query: Float32Array, k: number, filter: PayloadFilter | undefined): VectorHit[] {
    const { data, dims, size, payloads, ids } = this;
    const n = Math.min(k, size);
    const topScores = new Float64Array(n);
    const topSlots = new Int32Array(n);
    let filled = 0;
    for (let slot = 0; slot < size; slot++) {
      if (filter && !matchesFilter(payloads[slot] as Payload, filter)) continue;
      const score = dot(data, slot * dims, query, dims);
      if (filled === n && score <= (topScores[n - 1] as number)) continue;
      let i = filled < n ? filled++ : n - 1;
      while (i > 0 && (topScores[i - 1] as number) < score) {
        topScores[i] = topScores[i - 1] as number;
        topSlots[i] = topSlots[i - 1] as number;
        i--;
      }
      topScores[i] = score;
      topSlots[i] = slot;
    }
    const hits: VectorHit[] = [];
    for (let i = 0; i < filled; i++) {
      const slot = topSlots[i] as number;
      hits.push({ id: ids[slot] as string, score: topScores[i] as number, payload: { ...payloads[slot] } });
    }
    return hits;
  }
}
