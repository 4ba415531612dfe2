/**
 * The embedded vector store's file format: a collection file is a sequence of segments,
 * each a 32-byte header, its vectors and its JSON metadata, checked by CRC32; reading
 * them into a collection (a torn last segment is left for later, anything else that does
 * not read is damage). Pure apart from the collection it fills.
 */
import os from "node:os";
import { crc32 } from "node:zlib";
import { WayfinderError } from "../errors.ts";
import type { Collection } from "./vector-collection.ts";
import type { Payload } from "./vector-store-contract.ts";

export const MAGIC = Buffer.from("WFVEC001", "latin1");
export const HEADER_BYTES = 32;
const LITTLE_ENDIAN = os.endianness() === "LE";

// File format: segments, each a 32-byte header, count × dims float32 (little-endian,
// unit vectors) and JSON metadata { ids, payloads, deleted? }.
//   0 magic "WFVEC001" | 8 dims u32 | 12 count u32 | 16 metadata bytes u32 |
//  20 crc32 of vectors + metadata u32 | 24 deleted ids u32 | 28 reserved
// Within a segment the deletes apply before the upserts: an id deleted and upserted
// again goes to the end, like a new one; an upsert of a kept id keeps its place.

export function corrupt(name: string, why: string): WayfinderError {
  return new WayfinderError(
    "internal:vector_file_corrupt",
    `Vector collection ${name} is unreadable (${why}); re-index the repository to rebuild it.`,
  );
}

export function floatsToBytes(floats: Float32Array): Buffer {
  if (LITTLE_ENDIAN) return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);
  const bytes = Buffer.alloc(floats.byteLength);
  for (let i = 0; i < floats.length; i++) bytes.writeFloatLE(floats[i] as number, i * 4);
  return bytes;
}

export function bytesToFloats(bytes: Buffer, count: number): Float32Array {
  const floats = new Float32Array(count);
  // Copy rather than view: the Buffer may not be 4-byte aligned, and we own the result.
  if (LITTLE_ENDIAN) new Uint8Array(floats.buffer).set(bytes.subarray(0, count * 4));
  else for (let i = 0; i < count; i++) floats[i] = bytes.readFloatLE(i * 4);
  return floats;
}

export interface SegmentContent {
  ids: string[];
  payloads: Payload[];
  /** count × dims unit vectors */
  vectors: Float32Array;
  deleted: string[];
}

export function encodeSegment(dims: number, segment: SegmentContent): Buffer {
  const vectors = floatsToBytes(segment.vectors.subarray(0, segment.ids.length * dims));
  const meta = Buffer.from(
    JSON.stringify(
      segment.deleted.length > 0
        ? { ids: segment.ids, payloads: segment.payloads, deleted: segment.deleted }
        : { ids: segment.ids, payloads: segment.payloads },
    ),
    "utf8",
  );
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeUInt32LE(dims, 8);
  header.writeUInt32LE(segment.ids.length, 12);
  header.writeUInt32LE(meta.length, 16);
  header.writeUInt32LE(crc32(meta, crc32(vectors)), 20);
  header.writeUInt32LE(segment.deleted.length, 24);
  return Buffer.concat([header, vectors, meta]);
}

export interface SegmentHeader {
  dims: number;
  count: number;
  deletes: number;
  /** header + vectors + metadata */
  bytes: number;
}

/** A segment header, or null when the bytes are not one. */
export function readHeader(header: Buffer): SegmentHeader | null {
  if (header.length < HEADER_BYTES || !header.subarray(0, 8).equals(MAGIC)) return null;
  const dims = header.readUInt32LE(8);
  const count = header.readUInt32LE(12);
  if (dims < 1) return null;
  return {
    dims,
    count,
    deletes: header.readUInt32LE(24),
    bytes: HEADER_BYTES + count * dims * 4 + header.readUInt32LE(16),
  };
}

/** The segment at `offset` of `file`, or null when it is incomplete, not a segment, or fails its checksum. */
export function decodeSegment(
  name: string,
  file: Buffer,
  offset: number,
  dims: number,
): SegmentContent | null {
  if (offset + HEADER_BYTES > file.length) return null;
  const header = readHeader(file.subarray(offset, offset + HEADER_BYTES));
  if (!header || offset + header.bytes > file.length) return null;
  if (header.dims !== dims) throw corrupt(name, "segments of different dimensions");
  const vectorBytes = header.count * dims * 4;
  const vectors = file.subarray(offset + HEADER_BYTES, offset + HEADER_BYTES + vectorBytes);
  const meta = file.subarray(offset + HEADER_BYTES + vectorBytes, offset + header.bytes);
  if (crc32(meta, crc32(vectors)) !== file.readUInt32LE(offset + 20)) return null;
  let parsed: { ids?: unknown; payloads?: unknown; deleted?: unknown };
  try {
    parsed = JSON.parse(meta.toString("utf8")) as typeof parsed;
  } catch {
    throw corrupt(name, "bad metadata");
  }
  const { ids, payloads } = parsed;
  const deleted = parsed.deleted ?? [];
  if (
    !Array.isArray(ids) ||
    !Array.isArray(payloads) ||
    !Array.isArray(deleted) ||
    ids.length !== header.count ||
    payloads.length !== header.count
  ) {
    throw corrupt(name, "metadata does not match vectors");
  }
  return {
    ids: ids as string[],
    payloads: payloads as Payload[],
    vectors: bytesToFloats(vectors, header.count * dims),
    deleted: deleted as string[],
  };
}

/**
 * Applies the segments in `bytes` to a collection; returns how many bytes of valid
 * segments it applied. The last segment may be torn (a crash mid-append, or an append
 * still being written) and is then left for later; anything else that does not read
 * is damage. `first`: the bytes start the file, whose first segment must be whole.
 */
export function applySegments(c: Collection, bytes: Buffer, first: boolean): number {
  let at = 0;
  while (at < bytes.length) {
    const segment = decodeSegment(c.name, bytes, at, c.dims);
    if (!segment) {
      const header =
        at + HEADER_BYTES <= bytes.length ? readHeader(bytes.subarray(at, at + HEADER_BYTES)) : null;
      const last = !header || at + header.bytes >= bytes.length;
      if (!(first && at === 0) && last) break;
      if (at + HEADER_BYTES > bytes.length || (header && at + header.bytes > bytes.length))
        throw corrupt(c.name, "truncated");
      throw corrupt(c.name, header ? "checksum mismatch" : "not a vector file");
    }
    if (segment.deleted.length > 0) {
      const doomed = new Set(segment.deleted);
      c.removeWhere((id) => doomed.has(id));
    }
    segment.ids.forEach((id, i) => c.put(id, segment.vectors, i * c.dims, segment.payloads[i] as Payload));
    at += HEADER_BYTES + segment.ids.length * c.dims * 4 + bytes.readUInt32LE(at + 16);
  }
  return at;
}
