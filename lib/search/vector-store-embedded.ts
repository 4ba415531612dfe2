/**
 * The embedded vector store: one file per collection under a folder, loaded lazily
 * into a contiguous Float32Array and searched exactly (recall 1.0; fast enough
 * below ~50k vectors per collection). Files are replaced atomically (temp file,
 * fsync, rename), so a crash mid-write leaves the previous file intact.
 *
 * One writer process per folder. Other processes may read collections whose
 * generation has flipped (they are complete and no longer written), but they
 * cache what they load and do not see later writes to the same collection.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { crc32 } from "node:zlib";
import { WayfinderError } from "../errors.ts";
import {
  COLLECTION_NAME,
  assertCollectionName,
  assertDimensions,
  assertFilter,
  collectionNotFound,
  dimensionMismatch,
  matchesFilter,
  type Payload,
  type PayloadFilter,
  type VectorHit,
  type VectorItem,
  type VectorStore,
} from "./vector-store.ts";

export interface EmbeddedVectorStoreOptions {
  dir: string;
  /**
   * Write a collection once at least this many items changed since its last
   * write, or once changes reach its size at that write, whichever is larger:
   * the doubling keeps total bytes written linear in the final size.
   */
  flushEvery?: number;
  /** Write changed collections this long after the last change; false: only on flush()/close(). */
  flushDelayMs?: number | false;
  /** Items applied per synchronous step of an upsert; searches get the event loop between steps. */
  batchSize?: number;
}

const EXTENSION = ".wfv";
const MAGIC = Buffer.from("WFVEC001", "latin1");
const HEADER_BYTES = 32;
const LITTLE_ENDIAN = os.endianness() === "LE";

// ---------------------------------------------------------------------------
// In-memory collection

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

function squaredNorm(vector: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += (vector[i] as number) * (vector[i] as number);
  return sum;
}

/** Stores unit vectors so that cosine similarity is a plain dot product. */
class Collection {
  ids: string[] = [];
  payloads: Payload[] = [];
  readonly slots = new Map<string, number>();
  data: Float32Array;
  size = 0;
  /** Bumped on every change; compared with savedVersion to know what is unwritten. */
  version = 0;
  savedVersion = 0;
  savedSize = 0;
  changedSinceSave = 0;

  constructor(
    readonly name: string,
    readonly dims: number,
    capacity = 1024,
  ) {
    this.data = new Float32Array(Math.max(1, capacity) * dims);
  }

  put(item: VectorItem): void {
    let slot = this.slots.get(item.id);
    if (slot === undefined) {
      slot = this.size++;
      if (this.size * this.dims > this.data.length) this.grow();
      this.slots.set(item.id, slot);
      this.ids[slot] = item.id;
    }
    this.payloads[slot] = { ...item.payload };
    const sum = squaredNorm(item.vector);
    const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
    const offset = slot * this.dims;
    for (let i = 0; i < this.dims; i++) this.data[offset + i] = (item.vector[i] as number) * scale;
    this.version++;
  }

  private grow(): void {
    const capacity = Math.ceil((this.data.length / this.dims) * 1.5) + 1024;
    const data = new Float32Array(capacity * this.dims);
    data.set(this.data);
    this.data = data;
  }

  /** Compacts in place, keeping the survivors' relative order. */
  removeWhere(filter: PayloadFilter): number {
    const { dims, data, ids, payloads, slots } = this;
    let write = 0;
    for (let read = 0; read < this.size; read++) {
      const id = ids[read] as string;
      const payload = payloads[read] as Payload;
      if (matchesFilter(payload, filter)) {
        slots.delete(id);
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
    const removed = this.size - write;
    this.size = write;
    ids.length = write;
    payloads.length = write;
    if (removed > 0) this.version++;
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

// ---------------------------------------------------------------------------
// File format: 32-byte header, count × dims float32 (little-endian), JSON metadata.
//   0 magic "WFVEC001" | 8 dims u32 | 12 count u32 | 16 metadata bytes u32 |
//  20 crc32 of vectors + metadata u32 | 24 reserved

function corrupt(name: string, why: string): WayfinderError {
  return new WayfinderError(
    "internal:vector_file_corrupt",
    `Vector collection ${name} is unreadable (${why}); re-index the repository to rebuild it.`,
  );
}

function floatsToBytes(floats: Float32Array): Buffer {
  if (LITTLE_ENDIAN) return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);
  const bytes = Buffer.alloc(floats.byteLength);
  for (let i = 0; i < floats.length; i++) bytes.writeFloatLE(floats[i] as number, i * 4);
  return bytes;
}

function bytesToFloats(bytes: Buffer, count: number): Float32Array {
  const floats = new Float32Array(count);
  // Copy rather than view: the Buffer may not be 4-byte aligned, and we own the result.
  if (LITTLE_ENDIAN) new Uint8Array(floats.buffer).set(bytes.subarray(0, count * 4));
  else for (let i = 0; i < count; i++) floats[i] = bytes.readFloatLE(i * 4);
  return floats;
}

/** A consistent snapshot: later changes to the collection cannot tear the file being written. */
function encode(c: Collection): Buffer[] {
  const vectors = floatsToBytes(c.data.slice(0, c.size * c.dims));
  const meta = Buffer.from(
    JSON.stringify({ ids: c.ids.slice(0, c.size), payloads: c.payloads.slice(0, c.size) }),
    "utf8",
  );
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeUInt32LE(c.dims, 8);
  header.writeUInt32LE(c.size, 12);
  header.writeUInt32LE(meta.length, 16);
  header.writeUInt32LE(crc32(meta, crc32(vectors)), 20);
  return [header, vectors, meta];
}

function decodeCollection(name: string, file: Buffer): Collection {
  if (file.length < HEADER_BYTES || !file.subarray(0, 8).equals(MAGIC))
    throw corrupt(name, "not a vector file");
  const dims = file.readUInt32LE(8);
  const count = file.readUInt32LE(12);
  const metaBytes = file.readUInt32LE(16);
  const vectorBytes = count * dims * 4;
  if (dims < 1 || file.length !== HEADER_BYTES + vectorBytes + metaBytes) throw corrupt(name, "truncated");
  const vectors = file.subarray(HEADER_BYTES, HEADER_BYTES + vectorBytes);
  const meta = file.subarray(HEADER_BYTES + vectorBytes);
  if (crc32(meta, crc32(vectors)) !== file.readUInt32LE(20)) throw corrupt(name, "checksum mismatch");
  let parsed: { ids?: unknown; payloads?: unknown };
  try {
    parsed = JSON.parse(meta.toString("utf8")) as typeof parsed;
  } catch {
    throw corrupt(name, "bad metadata");
  }
  const { ids, payloads } = parsed;
  if (!Array.isArray(ids) || !Array.isArray(payloads) || ids.length !== count || payloads.length !== count) {
    throw corrupt(name, "metadata does not match vectors");
  }
  const c = new Collection(name, dims, 0);
  c.data = bytesToFloats(vectors, count * dims);
  c.ids = ids as string[];
  c.payloads = payloads as Payload[];
  c.size = count;
  ids.forEach((id, slot) => c.slots.set(id as string, slot));
  return c;
}

// ---------------------------------------------------------------------------
// Store

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}

export class EmbeddedVectorStore implements VectorStore {
  readonly kind = "embedded" as const;
  readonly dir: string;
  private readonly flushEvery: number;
  private readonly flushDelayMs: number | false;
  private readonly batchSize: number;
  private readonly loaded = new Map<string, Collection>();
  /** Per-collection queue for load, create, write and drop, so no two interleave on one file. */
  private readonly locks = new Map<string, Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private tempCounter = 0;

  constructor(options: EmbeddedVectorStoreOptions) {
    this.dir = path.resolve(options.dir);
    this.flushEvery = options.flushEvery ?? 20_000;
    this.flushDelayMs = options.flushDelayMs ?? 2_000;
    this.batchSize = Math.max(1, options.batchSize ?? 2_048);
  }

  private fileOf(name: string): string {
    return path.join(this.dir, name + EXTENSION);
  }

  private assertOpen(): void {
    if (this.closed)
      throw new WayfinderError("unavailable:vector_store", "The vector store has been closed.");
  }

  private withLock<T>(name: string, task: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(name) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.catch(() => undefined);
    this.locks.set(name, tail);
    void tail.then(() => {
      if (this.locks.get(name) === tail) this.locks.delete(name);
    });
    return run;
  }

  /** Reads a collection from disk; the caller holds its lock. */
  private async load(name: string): Promise<Collection | undefined> {
    let file: Buffer;
    try {
      file = await fs.readFile(this.fileOf(name));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw new WayfinderError("unavailable:vector_store", `Could not read vector collection ${name}.`, {
        cause: error,
      });
    }
    const c = decodeCollection(name, file);
    c.savedVersion = c.version;
    c.savedSize = c.size;
    this.loaded.set(name, c);
    return c;
  }

  private async get(name: string): Promise<Collection> {
    this.assertOpen();
    assertCollectionName(name);
    const c =
      this.loaded.get(name) ??
      (await this.withLock(name, async () => this.loaded.get(name) ?? this.load(name)));
    if (!c) throw collectionNotFound(name);
    return c;
  }

  async ensureCollection(name: string, dimensions: number): Promise<void> {
    this.assertOpen();
    assertCollectionName(name);
    assertDimensions(dimensions);
    await this.withLock(name, async () => {
      const existing = this.loaded.get(name) ?? (await this.load(name));
      if (existing) {
        if (existing.dims !== dimensions) {
          throw new WayfinderError(
            "conflict:vector_dimensions",
            `Collection ${name} exists with ${existing.dims}-dimensional vectors, not ${dimensions}.`,
          );
        }
        return;
      }
      const c = new Collection(name, dimensions);
      // Written at once, so the collection exists on disk (and in listCollections) like a Qdrant one.
      await this.write(c);
      this.loaded.set(name, c);
    });
  }

  async upsert(name: string, items: VectorItem[]): Promise<void> {
    const c = await this.get(name);
    for (const item of items) {
      if (item.vector.length !== c.dims) throw dimensionMismatch(name, c.dims, item.vector.length);
      if (!Number.isFinite(squaredNorm(item.vector))) {
        throw new WayfinderError("bad_request:vector_values", `Vector ${item.id} has non-finite values.`);
      }
    }
    for (let start = 0; start < items.length; start += this.batchSize) {
      if (start > 0) {
        await yieldToEventLoop();
        if (this.loaded.get(name) !== c) throw collectionNotFound(name);
      }
      const end = Math.min(items.length, start + this.batchSize);
      for (let i = start; i < end; i++) c.put(items[i] as VectorItem);
      c.changedSinceSave += end - start;
    }
    await this.afterChange(c);
  }

  async search(name: string, vector: Float32Array, k: number, filter?: PayloadFilter): Promise<VectorHit[]> {
    const c = await this.get(name);
    if (vector.length !== c.dims) throw dimensionMismatch(name, c.dims, vector.length);
    if (filter) assertFilter(filter);
    if (!Number.isInteger(k) || k < 0) {
      throw new WayfinderError("bad_request:vector_k", "k must be a non-negative integer.");
    }
    const sum = squaredNorm(vector);
    // A zero query (a question of stopwords only) points nowhere: nothing is near it.
    if (sum === 0 || !Number.isFinite(sum)) return [];
    const query = new Float32Array(vector.length);
    const scale = 1 / Math.sqrt(sum);
    for (let i = 0; i < vector.length; i++) query[i] = (vector[i] as number) * scale;
    return c.search(query, k, filter && Object.keys(filter).length > 0 ? filter : undefined);
  }

  async deleteWhere(name: string, filter: PayloadFilter): Promise<number> {
    assertFilter(filter);
    const c = await this.get(name);
    const removed = c.removeWhere(filter);
    if (removed > 0) {
      c.changedSinceSave += removed;
      await this.afterChange(c);
    }
    return removed;
  }

  async count(name: string): Promise<number> {
    return (await this.get(name)).size;
  }

  async getVectors(name: string, ids: string[]): Promise<Map<string, Float32Array>> {
    const c = await this.get(name);
    const out = new Map<string, Float32Array>();
    for (const id of ids) {
      const slot = c.slots.get(id);
      if (slot === undefined) continue;
      // A copy, never a view: the collection's buffer is replaced when it grows.
      out.set(id, c.data.slice(slot * c.dims, (slot + 1) * c.dims));
    }
    return out;
  }

  async dropCollection(name: string): Promise<void> {
    this.assertOpen();
    assertCollectionName(name);
    await this.withLock(name, async () => {
      this.loaded.delete(name);
      await fs.rm(this.fileOf(name), { force: true });
      // Temp files a crashed writer left behind for this collection.
      const prefix = `${name}${EXTENSION}.tmp-`;
      const entries = await fs.readdir(this.dir).catch(() => [] as string[]);
      await Promise.all(
        entries
          .filter((e) => e.startsWith(prefix))
          .map((e) => fs.rm(path.join(this.dir, e), { force: true })),
      );
    });
  }

  async listCollections(): Promise<string[]> {
    this.assertOpen();
    const names = new Set(this.loaded.keys());
    let entries: string[] = [];
    try {
      entries = await fs.readdir(this.dir);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    for (const entry of entries) {
      if (!entry.endsWith(EXTENSION)) continue;
      const name = entry.slice(0, -EXTENSION.length);
      if (COLLECTION_NAME.test(name)) names.add(name);
    }
    return [...names].sort();
  }

  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const dirty = [...this.loaded.values()].filter((c) => c.version !== c.savedVersion);
    await Promise.all(dirty.map((c) => this.flushCollection(c)));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flush();
    this.loaded.clear();
  }

  private async afterChange(c: Collection): Promise<void> {
    if (c.changedSinceSave >= Math.max(this.flushEvery, c.savedSize)) {
      await this.flushCollection(c);
    } else {
      this.scheduleFlush();
    }
  }

  /** Debounced: restarts on every change, so a busy indexer is not slowed by rewrites. */
  private scheduleFlush(): void {
    if (this.flushDelayMs === false) return;
    if (this.timer) {
      this.timer.refresh();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((error: unknown) => {
        // Nothing awaits a background write; the data stays dirty and the next flush retries.
        console.error("[wayfinder] background vector store write failed", error);
      });
    }, this.flushDelayMs);
    this.timer.unref();
  }

  private flushCollection(c: Collection): Promise<void> {
    return this.withLock(c.name, async () => {
      if (this.loaded.get(c.name) !== c || c.version === c.savedVersion) return;
      const version = c.version;
      const size = c.size;
      const changed = c.changedSinceSave;
      await this.write(c);
      c.savedVersion = version;
      c.savedSize = size;
      c.changedSinceSave -= changed;
    });
  }

  /** Temp file, fsync, rename: readers and crashes see the old file or the new one, never half. */
  private async write(c: Collection): Promise<void> {
    const parts = encode(c);
    const target = this.fileOf(c.name);
    const temp = `${target}.tmp-${process.pid}-${++this.tempCounter}`;
    let handle: fs.FileHandle | undefined;
    try {
      await fs.mkdir(this.dir, { recursive: true });
      handle = await fs.open(temp, "w");
      for (const part of parts) {
        for (let offset = 0; offset < part.length;) {
          const { bytesWritten } = await handle.write(part, offset, part.length - offset);
          offset += bytesWritten;
        }
      }
      await handle.sync();
      await handle.close();
      handle = undefined;
      await fs.rename(temp, target);
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await fs.rm(temp, { force: true }).catch(() => undefined);
      throw new WayfinderError("unavailable:vector_store", `Could not write vector collection ${c.name}.`, {
        cause: error,
      });
    }
    // Persist the rename itself; not every platform lets a directory be fsynced.
    try {
      const dir = await fs.open(this.dir, "r");
      await dir.sync().finally(() => dir.close());
    } catch {
      // best effort
    }
  }
}
