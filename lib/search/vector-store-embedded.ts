/**
 * The embedded vector store: one file per collection under a folder, loaded lazily
 * into a contiguous Float32Array and searched exactly (recall 1.0; fast enough
 * below ~50k vectors per collection).
 *
 * A collection file is a sequence of segments, each a batch of upserts and deletes;
 * changes are appended as a new segment (written, then fsynced), so writing costs what
 * changed, not the whole collection. When deletes make up half the records, the file
 * is compacted into one segment, replaced atomically (temp file, fsync, rename). A
 * crash mid-append leaves a torn last segment that readers ignore and the next append
 * overwrites; a crash mid-compaction leaves the previous file intact.
 *
 * One writing process per collection (an index build writes its repository's). A
 * writer appends without loading the collection. Readers in other processes notice
 * appended segments (the file grew) and compactions (the file was replaced) with one
 * stat per read, and load only what is new.
 *
 * The file format is lib/search/vector-file.ts and the reads and writes on disk are
 * lib/search/vector-file-io.ts; this class holds what is loaded, what is pending, the
 * per-collection locks and when to append or compact.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { Collection, normalized, squaredNorm } from "./vector-collection.ts";
import { encodeSegment, type SegmentContent } from "./vector-file.ts";
import {
  appendSegment,
  isMissing,
  readAppended,
  readCollectionFile,
  scanFileState,
  statCollectionFile,
  writeCollectionFile,
  type FileState,
  type Loaded,
} from "./vector-file-io.ts";
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
} from "./vector-store-contract.ts";

export interface EmbeddedVectorStoreOptions {
  dir: string;
  /** Append pending changes once this many accumulated (bounds what a writer holds in memory). */
  flushEvery?: number;
  /** Append pending changes this long after the last change; false: only on flush()/close(). */
  flushDelayMs?: number | false;
  /** Items applied per synchronous step of an upsert; searches get the event loop between steps. */
  batchSize?: number;
}

const EXTENSION = ".wfv";
/** Past this many segments a file is compacted even without deletes (loads stay one read of few parts). */
const MAX_SEGMENTS = 512;

// ---------------------------------------------------------------------------
// Store

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Changes not yet appended, by id in the order they were first made: an upsert (unit
 * vector and payload; `moved` when the id was deleted first, so it goes to the end) or
 * a delete (null).
 */
type Pending = Map<string, { vector: Float32Array; payload: Payload; moved: boolean } | null>;

export class EmbeddedVectorStore implements VectorStore {
  readonly kind = "embedded" as const;
  readonly dir: string;
  private readonly flushEvery: number;
  private readonly flushDelayMs: number | false;
  private readonly batchSize: number;
  private readonly loaded = new Map<string, Loaded>();
  private readonly files = new Map<string, FileState>();
  private readonly pending = new Map<string, Pending>();
  /** Drops per collection, so a long upsert notices one between its steps. */
  private readonly drops = new Map<string, number>();
  /** Per-collection queue for load, create, append, compaction and drop, so no two interleave on one file. */
  private readonly locks = new Map<string, Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private tempCounter = 0;

  constructor(options: EmbeddedVectorStoreOptions) {
    this.dir = path.resolve(options.dir);
    this.flushEvery = options.flushEvery ?? 4_096;
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

  /** Reads a whole collection from disk; the caller holds its lock. */
  private async load(name: string): Promise<Loaded | undefined> {
    const loaded = await readCollectionFile(this.fileOf(name), name);
    if (!loaded) return undefined;
    // Changes of this process not yet appended stay visible to its own reads.
    this.applyPending(loaded.collection, this.pending.get(name));
    this.loaded.set(name, loaded);
    return loaded;
  }

  private applyPending(c: Collection, pending: Pending | undefined): void {
    if (!pending) return;
    const doomed = new Set<string>();
    for (const [id, change] of pending) if (!change || change.moved) doomed.add(id);
    if (doomed.size > 0) c.removeWhere((id) => doomed.has(id));
    for (const [id, change] of pending) if (change) c.put(id, change.vector, 0, change.payload);
  }

  /** Brings a loaded collection up to date with its file: appended segments, or a compacted file. */
  private async refresh(name: string, loaded: Loaded): Promise<Loaded | undefined> {
    const stat = await statCollectionFile(this.fileOf(name), name);
    if (!stat) {
      this.loaded.delete(name);
      return undefined;
    }
    if (stat.ino !== loaded.ino || stat.size < loaded.offset) return this.load(name);
    if (stat.size > loaded.offset) await readAppended(this.fileOf(name), name, loaded, stat.size);
    return loaded;
  }

  private async get(name: string): Promise<Collection> {
    this.assertOpen();
    assertCollectionName(name);
    const loaded = await this.withLock(name, async () => {
      const current = this.loaded.get(name);
      return current ? this.refresh(name, current) : this.load(name);
    });
    if (!loaded) throw collectionNotFound(name);
    return loaded.collection;
  }

  /**
   * What a writer needs to know about a collection's file, read again when the file is
   * not as this process left it (another process wrote it since). The caller holds its lock.
   */
  private async fileState(name: string): Promise<FileState | undefined> {
    let state: FileState | undefined;
    try {
      state = await scanFileState(this.fileOf(name), name, this.files.get(name));
    } catch (error) {
      this.files.delete(name);
      throw error;
    }
    if (state) this.files.set(name, state);
    else this.files.delete(name);
    return state;
  }

  /** Dimensions of an existing collection, without loading it. */
  private async dimensionsOf(name: string): Promise<number> {
    this.assertOpen();
    assertCollectionName(name);
    const loaded = this.loaded.get(name);
    if (loaded) return loaded.collection.dims;
    const state = await this.withLock(name, () => this.fileState(name));
    if (!state) throw collectionNotFound(name);
    return state.dims;
  }

  async ensureCollection(name: string, dimensions: number): Promise<void> {
    this.assertOpen();
    assertCollectionName(name);
    assertDimensions(dimensions);
    await this.withLock(name, async () => {
      const existing = this.loaded.get(name)?.collection.dims ?? (await this.fileState(name))?.dims;
      if (existing !== undefined) {
        if (existing !== dimensions) {
          throw new WayfinderError(
            "conflict:vector_dimensions",
            `Collection ${name} exists with ${existing}-dimensional vectors, not ${dimensions}.`,
          );
        }
        return;
      }
      // Written at once, so the collection exists on disk (and in listCollections) like a Qdrant one.
      const empty = new Collection(name, dimensions, 0);
      await this.replaceFile(empty);
    });
  }

  async upsert(name: string, items: VectorItem[]): Promise<void> {
    const dims = await this.dimensionsOf(name);
    for (const item of items) {
      if (item.vector.length !== dims) throw dimensionMismatch(name, dims, item.vector.length);
      if (!Number.isFinite(squaredNorm(item.vector))) {
        throw new WayfinderError("bad_request:vector_values", `Vector ${item.id} has non-finite values.`);
      }
    }
    const drops = this.drops.get(name) ?? 0;
    for (let start = 0; start < items.length; start += this.batchSize) {
      if (start > 0) {
        await yieldToEventLoop();
        if ((this.drops.get(name) ?? 0) !== drops) throw collectionNotFound(name);
      }
      const pending = this.pendingOf(name);
      const loaded = this.loaded.get(name);
      const end = Math.min(items.length, start + this.batchSize);
      for (let i = start; i < end; i++) {
        const item = items[i] as VectorItem;
        const vector = normalized(item.vector);
        const payload = { ...item.payload };
        const earlier = pending.get(item.id);
        if (earlier === null) {
          // Deleted in this batch of changes: back at the end, as a new one.
          pending.delete(item.id);
          pending.set(item.id, { vector, payload, moved: true });
        } else {
          pending.set(item.id, { vector, payload, moved: earlier?.moved ?? false });
        }
        loaded?.collection.put(item.id, vector, 0, payload);
      }
    }
    await this.afterChange(name);
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
    return c.search(normalized(vector), k, filter && Object.keys(filter).length > 0 ? filter : undefined);
  }

  async delete(name: string, ids: string[]): Promise<void> {
    await this.dimensionsOf(name);
    if (ids.length === 0) return;
    const pending = this.pendingOf(name);
    const doomed = new Set(ids);
    for (const id of doomed) {
      pending.delete(id);
      pending.set(id, null);
    }
    this.loaded.get(name)?.collection.removeWhere((id) => doomed.has(id));
    await this.afterChange(name);
  }

  async deleteWhere(name: string, filter: PayloadFilter): Promise<number> {
    assertFilter(filter);
    const c = await this.get(name);
    const matching = c.ids.filter((id, slot) => matchesFilter(c.payloads[slot] as Payload, filter));
    await this.delete(name, matching);
    return matching.length;
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
      this.files.delete(name);
      this.pending.delete(name);
      this.drops.set(name, (this.drops.get(name) ?? 0) + 1);
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
    const names = new Set<string>();
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
    await Promise.all([...this.pending.keys()].map((name) => this.flushCollection(name)));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flush();
    this.loaded.clear();
    this.files.clear();
  }

  private pendingOf(name: string): Pending {
    let pending = this.pending.get(name);
    if (!pending) this.pending.set(name, (pending = new Map()));
    return pending;
  }

  private async afterChange(name: string): Promise<void> {
    if ((this.pending.get(name)?.size ?? 0) >= this.flushEvery) await this.flushCollection(name);
    else this.scheduleFlush();
  }

  /** Debounced: restarts on every change, so a busy indexer is not slowed by appends. */
  private scheduleFlush(): void {
    if (this.flushDelayMs === false) return;
    if (this.timer) {
      this.timer.refresh();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((error: unknown) => {
        // Nothing awaits a background write; the changes stay pending and the next flush retries.
        console.error("[wayfinder] background vector store write failed", error);
      });
    }, this.flushDelayMs);
    this.timer.unref();
  }

  /** Appends a collection's pending changes as one segment, then compacts the file if it is mostly dead records. */
  private flushCollection(name: string): Promise<void> {
    return this.withLock(name, async () => {
      const pending = this.pending.get(name);
      if (!pending || pending.size === 0) return;
      const state = await this.fileState(name);
      if (!state) {
        this.pending.delete(name); // dropped meanwhile
        return;
      }
      // Changes made while this segment is written queue up behind it.
      this.pending.delete(name);
      const segment: SegmentContent = {
        ids: [],
        payloads: [],
        vectors: new Float32Array(pending.size * state.dims),
        deleted: [],
      };
      for (const [id, change] of pending) {
        if (!change || change.moved) segment.deleted.push(id);
        if (!change) continue;
        segment.vectors.set(change.vector, segment.ids.length * state.dims);
        segment.ids.push(id);
        segment.payloads.push(change.payload);
      }
      const bytes = encodeSegment(state.dims, segment);
      try {
        await appendSegment(this.fileOf(name), name, state, bytes);
      } catch (error) {
        // Still pending, and older than anything queued meanwhile.
        const merged: Pending = new Map(pending);
        for (const [id, change] of this.pending.get(name) ?? []) {
          merged.delete(id);
          merged.set(id, change);
        }
        this.pending.set(name, merged);
        throw error;
      }
      const loaded = this.loaded.get(name);
      const caughtUp = loaded !== undefined && loaded.ino === state.ino && loaded.offset === state.end;
      state.end += bytes.length;
      state.segments++;
      state.puts += segment.ids.length;
      state.deletes += segment.deleted.length;
      if (caughtUp && loaded) loaded.offset = state.end;
      if ((state.deletes > 0 && state.deletes * 2 >= state.puts) || state.segments > MAX_SEGMENTS) {
        await this.compact(name);
      }
    });
  }

  /**
   * Rewrites a collection as one segment of its live vectors; the caller holds its lock.
   * Changes still pending are in it too, and get appended again later (harmless: the
   * same upsert or delete).
   */
  private async compact(name: string): Promise<void> {
    const known = this.loaded.get(name);
    const current = known ? await this.refresh(name, known) : await this.load(name);
    if (!current) return;
    await this.replaceFile(current.collection);
    if (!known) this.loaded.delete(name); // a writer does not keep what it never read
  }

  /** Replaces a collection's file with its live vectors (lib/search/vector-file-io.ts says how). */
  private async replaceFile(c: Collection): Promise<void> {
    const target = this.fileOf(c.name);
    const state = await writeCollectionFile(target, `${target}.tmp-${process.pid}-${++this.tempCounter}`, c);
    this.files.set(c.name, state);
    const loaded = this.loaded.get(c.name);
    if (loaded) {
      loaded.ino = state.ino;
      loaded.offset = state.end;
    }
  }
}
