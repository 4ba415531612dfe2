/**
 * What a vector backend is: the store interface, its items, hits and payload filters,
 * and the validation both backends share (they must accept and reject the same
 * inputs). The backends (vector-store-embedded.ts, vector-store-qdrant.ts) implement
 * it, and the factory (vector-store.ts) picks one; none of them imports the factory.
 */
import { WayfinderError } from "../errors.ts";

export type PayloadValue = string | number | boolean | null;
export type Payload = Record<string, PayloadValue>;
/** Equality on every listed payload field; an empty filter matches everything. */
export type PayloadFilter = Record<string, string | number | boolean>;

export interface VectorItem {
  id: string;
  vector: Float32Array;
  payload: Payload;
}

export interface VectorHit {
  id: string;
  /** Cosine similarity, higher is nearer. */
  score: number;
  payload: Payload;
}

export interface VectorStore {
  readonly kind: "embedded" | "qdrant";
  /** Creates the collection, or checks an existing one has these dimensions. */
  ensureCollection(name: string, dimensions: number): Promise<void>;
  /** Inserts or replaces by id; batched internally. */
  upsert(name: string, items: VectorItem[]): Promise<void>;
  /** Cosine, best first; ties keep insertion order (embedded). */
  search(name: string, vector: Float32Array, k: number, filter?: PayloadFilter): Promise<VectorHit[]>;
  /** Returns how many items were deleted. */
  deleteWhere(name: string, filter: PayloadFilter): Promise<number>;
  /** Deletes items by id; missing ids are ignored. */
  delete(name: string, ids: string[]): Promise<void>;
  count(name: string): Promise<number>;
  /** Stored vectors by id (missing ids are absent from the map); lets a new generation reuse embeddings. */
  getVectors(name: string, ids: string[]): Promise<Map<string, Float32Array>>;
  /** Idempotent: dropping a missing collection is not an error. */
  dropCollection(name: string): Promise<void>;
  listCollections(): Promise<string[]>;
  /**
   * Makes every upsert so far durable. Call it before flipping a generation: the
   * embedded store otherwise persists in the background; Qdrant writes are
   * durable already, so there it does nothing.
   */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Also what keeps a collection name from naming a path outside the store folder. */
export const COLLECTION_NAME = /^[A-Za-z0-9_-]{1,128}$/;

/** Flat keys only: Qdrant reads `.` and `[]` in a key as a path into nested payload. */
const FILTER_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export function assertCollectionName(name: string): void {
  if (!COLLECTION_NAME.test(name)) {
    throw new WayfinderError(
      "bad_request:vector_collection",
      "A vector collection name must be 1–128 letters, digits, '_' or '-'.",
    );
  }
}

export function assertDimensions(dimensions: number): void {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 65_536) {
    throw new WayfinderError(
      "bad_request:vector_dimensions",
      "Vector dimensions must be an integer from 1 to 65536.",
    );
  }
}

export function assertFilter(filter: PayloadFilter): void {
  for (const [key, value] of Object.entries(filter)) {
    if (!FILTER_KEY.test(key)) {
      throw new WayfinderError(
        "bad_request:vector_filter",
        `Payload filter key "${key}" is not a plain field name.`,
      );
    }
    if (typeof value === "number" && !Number.isFinite(value)) {
      throw new WayfinderError(
        "bad_request:vector_filter",
        `Payload filter value for "${key}" must be finite.`,
      );
    }
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      throw new WayfinderError(
        "bad_request:vector_filter",
        `Payload filter value for "${key}" must be a scalar.`,
      );
    }
  }
}

export function matchesFilter(payload: Payload, filter: PayloadFilter): boolean {
  for (const key in filter) {
    if (payload[key] !== filter[key]) return false;
  }
  return true;
}

export function collectionNotFound(name: string): WayfinderError {
  return new WayfinderError("not_found:vector_collection", `Vector collection ${name} does not exist.`);
}

export function dimensionMismatch(name: string, expected: number, actual: number): WayfinderError {
  return new WayfinderError(
    "bad_request:vector_dimensions",
    `Collection ${name} holds ${expected}-dimensional vectors; got ${actual}.`,
  );
}
