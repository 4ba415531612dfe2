/**
 * The embedded vector store's disk side: reading a collection file whole or only what
 * was appended since, scanning its segment headers without loading it, appending a
 * segment (a torn one is cut off) and replacing the file atomically. No caching and no
 * locking here: lib/search/vector-store-embedded.ts decides when each runs.
 */
import { constants as fsConstants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { WayfinderError } from "../errors.ts";
import { Collection } from "./vector-collection.ts";
import {
  HEADER_BYTES,
  applySegments,
  corrupt,
  decodeSegment,
  encodeSegment,
  readHeader,
  type SegmentHeader,
} from "./vector-file.ts";

/** A collection loaded for reading, and how far into which file it has read. */
export interface Loaded {
  collection: Collection;
  ino: number;
  offset: number;
}

/** What a writer knows about a collection's file without loading it. */
export interface FileState {
  dims: number;
  ino: number;
  /** end of the valid segments: where the next append goes */
  end: number;
  segments: number;
  puts: number;
  deletes: number;
}

export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}

function unreadable(name: string, error: unknown): WayfinderError {
  return new WayfinderError("unavailable:vector_store", `Could not read vector collection ${name}.`, {
    cause: error,
  });
}

function unwritable(name: string, error: unknown): WayfinderError {
  return new WayfinderError("unavailable:vector_store", `Could not write vector collection ${name}.`, {
    cause: error,
  });
}

/** Reads a whole collection file; undefined when there is none. */
export async function readCollectionFile(file: string, name: string): Promise<Loaded | undefined> {
  let bytes: Buffer;
  let ino: number;
  try {
    // The identity first: if a compaction replaces the file in between, the next read notices.
    ino = (await fs.stat(file)).ino;
    bytes = await fs.readFile(file);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw unreadable(name, error);
  }
  const header = readHeader(bytes.subarray(0, HEADER_BYTES));
  if (!header) throw corrupt(name, bytes.length < HEADER_BYTES ? "truncated" : "not a vector file");
  const collection = new Collection(name, header.dims, 0);
  const offset = applySegments(collection, bytes, true);
  return { collection, ino, offset };
}

/** The file's identity and size; undefined when it is gone. */
export async function statCollectionFile(
  file: string,
  name: string,
): Promise<{ ino: number; size: number } | undefined> {
  try {
    return await fs.stat(file);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw unreadable(name, error);
  }
}

/** Applies the segments appended after `loaded.offset` (up to `size`) to the loaded collection. */
export async function readAppended(file: string, name: string, loaded: Loaded, size: number): Promise<void> {
  let tail: Buffer;
  try {
    const handle = await fs.open(file, "r");
    try {
      tail = Buffer.alloc(size - loaded.offset);
      await handle.read(tail, 0, tail.length, loaded.offset);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw unreadable(name, error);
  }
  loaded.offset += applySegments(loaded.collection, tail, false);
}

/**
 * What a writer needs to know about a collection's file, from its segment headers;
 * `known` is returned as it is when the file is as it describes. Undefined when there
 * is no file.
 */
export async function scanFileState(
  file: string,
  name: string,
  known: FileState | undefined,
): Promise<FileState | undefined> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, "r");
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw unreadable(name, error);
  }
  try {
    const { size, ino } = await handle.stat();
    if (known && known.ino === ino && known.end === size) return known;
    const header = Buffer.alloc(HEADER_BYTES);
    let state: FileState | undefined;
    let at = 0;
    let last: { at: number; header: SegmentHeader } | null = null;
    while (at + HEADER_BYTES <= size) {
      await handle.read(header, 0, HEADER_BYTES, at);
      const h = readHeader(header);
      if (!h || at + h.bytes > size) break; // a torn append
      if (state && h.dims !== state.dims) throw corrupt(name, "segments of different dimensions");
      state ??= { dims: h.dims, ino, end: 0, segments: 0, puts: 0, deletes: 0 };
      last = { at, header: h };
      state.segments++;
      state.puts += h.count;
      state.deletes += h.deletes;
      at += h.bytes;
      state.end = at;
    }
    if (!state || !last) throw corrupt(name, "truncated");
    // The last complete segment may still be a torn append: check its bytes, drop it if so.
    if (last.at > 0) {
      const bytes = Buffer.alloc(last.header.bytes);
      await handle.read(bytes, 0, bytes.length, last.at);
      if (!decodeSegment(name, bytes, 0, state.dims)) {
        state.end = last.at;
        state.segments--;
        state.puts -= last.header.count;
        state.deletes -= last.header.deletes;
      }
    }
    return state;
  } finally {
    await handle.close();
  }
}

/** Writes `bytes` at the end of the valid segments (over a torn append, if any), then fsyncs. */
export async function appendSegment(
  file: string,
  name: string,
  state: FileState,
  bytes: Buffer,
): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(file, fsConstants.O_RDWR);
    const { size, ino } = await handle.stat();
    if (ino !== state.ino) throw new Error("the collection file was replaced by another writer");
    if (size !== state.end) await handle.truncate(state.end);
    for (let offset = 0; offset < bytes.length;) {
      const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset, state.end + offset);
      offset += bytesWritten;
    }
    await handle.sync();
  } catch (error) {
    // Whatever part was written is a torn segment: cut it off, the changes stay pending.
    await handle?.truncate(state.end).catch(() => undefined);
    throw unwritable(name, error);
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Writes a collection as one segment of its live vectors to `file` by way of `temp`:
 * temp file, fsync, rename, so readers and crashes see the old file or the new one,
 * never half. Returns the new file's state.
 */
export async function writeCollectionFile(file: string, temp: string, c: Collection): Promise<FileState> {
  const bytes = encodeSegment(c.dims, {
    ids: c.ids.slice(0, c.size),
    payloads: c.payloads.slice(0, c.size),
    vectors: c.data,
    deleted: [],
  });
  const dir = path.dirname(file);
  let handle: fs.FileHandle | undefined;
  try {
    await fs.mkdir(dir, { recursive: true });
    handle = await fs.open(temp, "w");
    for (let offset = 0; offset < bytes.length;) {
      const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
      offset += bytesWritten;
    }
    await handle.sync();
    await handle.close();
    handle = undefined;
    await fs.rename(temp, file);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw unwritable(c.name, error);
  }
  // Persist the rename itself; not every platform lets a directory be fsynced.
  try {
    const handle = await fs.open(dir, "r");
    await handle.sync().finally(() => handle.close());
  } catch {
    // best effort
  }
  const { ino } = await fs.stat(file);
  return { dims: c.dims, ino, end: bytes.length, segments: 1, puts: c.size, deletes: 0 };
}
