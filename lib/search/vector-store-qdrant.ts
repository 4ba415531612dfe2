/**
 * The scale-out vector store: Qdrant through its REST client. Qdrant point ids
 * must be unsigned integers or UUIDs, so our string ids map to name-based UUIDs
 * (v5) and the original id travels in the payload.
 */
import { createHash } from "node:crypto";
import type { QdrantClient } from "@qdrant/js-client-rest";
import { WayfinderError } from "../errors.ts";
import {
  assertCollectionName,
  assertDimensions,
  assertFilter,
  collectionNotFound,
  dimensionMismatch,
  type Payload,
  type PayloadFilter,
  type VectorHit,
  type VectorItem,
  type VectorStore,
} from "./vector-store-contract.ts";

/** Payload key holding our id; reserved, so callers' payloads may not use it. */
export const ORIGINAL_ID_KEY = "wf_id";

/** Namespace for point ids: fixed forever, or existing collections stop matching their ids. */
export const POINT_ID_NAMESPACE = "6f1d2c3e-8a4b-4c59-9e7a-2b1f0d3c4e5a";

/** RFC 9562 UUIDv5: SHA-1 of namespace bytes + name, version and variant bits set. */
export function uuidV5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ""), "hex");
  if (ns.length !== 16) throw new Error(`Not a UUID: ${namespace}`);
  const bytes = createHash("sha1").update(ns).update(name, "utf8").digest().subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function pointIdFor(id: string): string {
  return uuidV5(id, POINT_ID_NAMESPACE);
}

export interface QdrantCondition {
  key: string;
  match?: { value: string | number | boolean };
  range?: { gte: number; lte: number };
}

export interface QdrantFilter {
  must: QdrantCondition[];
}

/**
 * Equality filter → Qdrant `must`. Qdrant's `match` compares integers, strings and
 * booleans only, so a fractional number becomes a closed one-point range.
 */
export function toQdrantFilter(filter: PayloadFilter | undefined): QdrantFilter | undefined {
  if (!filter) return undefined;
  assertFilter(filter);
  const must = Object.entries(filter).map(([key, value]): QdrantCondition => {
    if (typeof value === "number" && !Number.isInteger(value))
      return { key, range: { gte: value, lte: value } };
    return { key, match: { value } };
  });
  return must.length > 0 ? { must } : undefined;
}

/** The client methods this store uses; tests pass a fake with the same shape. */
export type QdrantClientLike = Pick<
  QdrantClient,
  | "collectionExists"
  | "getCollection"
  | "createCollection"
  | "upsert"
  | "query"
  | "count"
  | "delete"
  | "deleteCollection"
  | "getCollections"
  | "retrieve"
>;

export interface QdrantVectorStoreOptions {
  url?: string;
  apiKey?: string;
  client?: QdrantClientLike;
  /** Points per upsert request (bounded: 1–1000). */
  batchSize?: number;
  /** Extra attempts after a transient failure (network error, HTTP 408/429/5xx). */
  retries?: number;
  /** Wait before the first retry; doubled for each further one. */
  retryDelayMs?: number;
}

/** Worth another try: no HTTP answer at all (connection refused/reset, timeout), or an overloaded server. */
export function isTransient(error: unknown): boolean {
  const status = statusOf(error);
  if (status === undefined) return true;
  return status === 408 || status === 429 || status >= 500;
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | undefined)?.status;
  return typeof status === "number" ? status : undefined;
}

/** Size of the unnamed vector of a collection, or undefined for named-vector layouts we do not create. */
function vectorSizeOf(info: { config?: { params?: { vectors?: unknown } } }): number | undefined {
  const vectors = info.config?.params?.vectors as { size?: unknown } | undefined;
  return typeof vectors?.size === "number" ? vectors.size : undefined;
}

export class QdrantVectorStore implements VectorStore {
  readonly kind = "qdrant" as const;
  private readonly connect: () => Promise<QdrantClientLike>;
  private connecting: Promise<QdrantClientLike> | null = null;
  private readonly batchSize: number;
  private readonly retries: number;
  private readonly retryDelayMs: number;
  /** Dimensions of collections seen by this process, to reject wrong-sized vectors before a round trip. */
  private readonly dimensions = new Map<string, number>();

  constructor(options: QdrantVectorStoreOptions) {
    if (!options.client && !options.url) {
      throw new WayfinderError(
        "bad_request:qdrant_url",
        "A Qdrant URL is required for the Qdrant vector store.",
      );
    }
    const { client, url, apiKey } = options;
    // The REST client (and the HTTP stack under it) loads on first use, not with this
    // module: it takes about 200 ms, and most processes never talk to Qdrant. No version
    // probe either: it would be a network call (and a warning) before first use.
    this.connect = client
      ? async () => client
      : async () => {
          const { QdrantClient } = await import("@qdrant/js-client-rest");
          return new QdrantClient({ url, apiKey, checkCompatibility: false });
        };
    this.batchSize = Math.min(1000, Math.max(1, options.batchSize ?? 256));
    this.retries = Math.max(0, options.retries ?? 3);
    this.retryDelayMs = Math.max(0, options.retryDelayMs ?? 250);
  }

  private client(): Promise<QdrantClientLike> {
    this.connecting ??= this.connect();
    return this.connecting;
  }

  /**
   * Runs a client call, retrying transient failures (every call we make is
   * idempotent: upserts carry fixed ids, deletes are by filter), and turns what
   * still fails into an app error that says how often it was tried.
   */
  private async call<T>(
    name: string,
    what: string,
    run: (client: QdrantClientLike) => Promise<T>,
  ): Promise<T> {
    const client = await this.client();
    for (let attempt = 1; ; attempt++) {
      try {
        return await run(client);
      } catch (error) {
        if (error instanceof WayfinderError) throw error;
        if (statusOf(error) === 404) throw collectionNotFound(name);
        const status = statusOf(error);
        if (isTransient(error) && attempt <= this.retries) {
          await new Promise((resolve) => setTimeout(resolve, this.retryDelayMs * 2 ** (attempt - 1)));
          continue;
        }
        const tries = attempt > 1 ? ` after ${attempt} attempts` : "";
        throw new WayfinderError(
          "unavailable:qdrant",
          `Qdrant ${what} failed for ${name}${tries}${status === undefined ? "" : ` (HTTP ${status})`}.`,
          { cause: error },
        );
      }
    }
  }

  private async dimensionsOf(name: string): Promise<number | undefined> {
    const known = this.dimensions.get(name);
    if (known !== undefined) return known;
    const info = await this.call(name, "collection lookup", (client) => client.getCollection(name));
    const size = vectorSizeOf(info);
    if (size !== undefined) this.dimensions.set(name, size);
    return size;
  }

  async ensureCollection(name: string, dimensions: number): Promise<void> {
    assertCollectionName(name);
    assertDimensions(dimensions);
    const { exists } = await this.call(name, "collection check", (client) => client.collectionExists(name));
    if (!exists) {
      const client = await this.client();
      try {
        await client.createCollection(name, { vectors: { size: dimensions, distance: "Cosine" } });
        this.dimensions.set(name, dimensions);
        return;
      } catch (error) {
        // Another worker may have created it between our check and create; verify below.
        if (statusOf(error) !== 409 && statusOf(error) !== 400) {
          throw new WayfinderError("unavailable:qdrant", `Qdrant could not create collection ${name}.`, {
            cause: error,
          });
        }
      }
    }
    const existing = await this.dimensionsOf(name);
    if (existing !== dimensions) {
      throw new WayfinderError(
        "conflict:vector_dimensions",
        `Collection ${name} exists with ${existing ?? "unknown"}-dimensional vectors, not ${dimensions}.`,
      );
    }
  }

  async upsert(name: string, items: VectorItem[]): Promise<void> {
    assertCollectionName(name);
    const dims = await this.dimensionsOf(name);
    for (const item of items) {
      if (dims !== undefined && item.vector.length !== dims)
        throw dimensionMismatch(name, dims, item.vector.length);
      if (ORIGINAL_ID_KEY in item.payload) {
        throw new WayfinderError(
          "bad_request:vector_payload",
          `Payload key "${ORIGINAL_ID_KEY}" is reserved.`,
        );
      }
    }
    for (let start = 0; start < items.length; start += this.batchSize) {
      const points = items.slice(start, start + this.batchSize).map((item) => ({
        id: pointIdFor(item.id),
        vector: Array.from(item.vector),
        payload: { ...item.payload, [ORIGINAL_ID_KEY]: item.id },
      }));
      await this.call(name, "upsert", (client) => client.upsert(name, { wait: true, points }));
    }
  }

  async search(name: string, vector: Float32Array, k: number, filter?: PayloadFilter): Promise<VectorHit[]> {
    assertCollectionName(name);
    if (!Number.isInteger(k) || k < 0) {
      throw new WayfinderError("bad_request:vector_k", "k must be a non-negative integer.");
    }
    const qdrantFilter = toQdrantFilter(filter);
    // Same as the embedded store: a zero query points nowhere (and Qdrant cannot normalise it).
    if (k === 0 || vector.every((x) => x === 0)) return [];
    const dims = await this.dimensionsOf(name);
    if (dims !== undefined && vector.length !== dims) throw dimensionMismatch(name, dims, vector.length);
    const response = await this.call(name, "search", (client) =>
      client.query(name, {
        query: Array.from(vector),
        limit: k,
        filter: qdrantFilter,
        with_payload: true,
      }),
    );
    return response.points.map((point) => fromPoint(point));
  }

  async deleteWhere(name: string, filter: PayloadFilter): Promise<number> {
    assertCollectionName(name);
    const qdrantFilter = toQdrantFilter(filter) ?? { must: [] };
    // Qdrant's delete does not report how many points it removed; count first.
    const { count } = await this.call(name, "count", (client) =>
      client.count(name, { filter: qdrantFilter, exact: true }),
    );
    if (count === 0) return 0;
    await this.call(name, "delete", (client) => client.delete(name, { wait: true, filter: qdrantFilter }));
    return count;
  }

  async delete(name: string, ids: string[]): Promise<void> {
    assertCollectionName(name);
    for (let i = 0; i < ids.length; i += this.batchSize) {
      const points = ids.slice(i, i + this.batchSize).map(pointIdFor);
      await this.call(name, "delete", (client) => client.delete(name, { wait: true, points }));
    }
  }

  async count(name: string): Promise<number> {
    assertCollectionName(name);
    const { count } = await this.call(name, "count", (client) => client.count(name, { exact: true }));
    return count;
  }

  async getVectors(name: string, ids: string[]): Promise<Map<string, Float32Array>> {
    assertCollectionName(name);
    const out = new Map<string, Float32Array>();
    for (let i = 0; i < ids.length; i += this.batchSize) {
      const batch = ids.slice(i, i + this.batchSize);
      const points = await this.call(name, "retrieve", (client) =>
        client.retrieve(name, { ids: batch.map(pointIdFor), with_payload: true, with_vector: true }),
      );
      for (const point of points) {
        const id = (point.payload as Record<string, unknown> | null | undefined)?.[ORIGINAL_ID_KEY];
        if (typeof id === "string" && Array.isArray(point.vector))
          out.set(id, Float32Array.from(point.vector as number[]));
      }
    }
    return out;
  }

  async dropCollection(name: string): Promise<void> {
    assertCollectionName(name);
    this.dimensions.delete(name);
    try {
      await this.call(name, "drop", (client) => client.deleteCollection(name));
    } catch (error) {
      if (error instanceof WayfinderError && error.type === "not_found") return;
      throw error;
    }
  }

  async listCollections(): Promise<string[]> {
    const { collections } = await this.call("(all)", "listing", (client) => client.getCollections());
    return collections.map((c) => c.name).sort();
  }

  async flush(): Promise<void> {
    // Upserts and deletes use wait: true, so Qdrant has applied them when they return.
  }

  async close(): Promise<void> {
    // The REST client holds no connection that needs closing.
  }
}

/** Qdrant point → hit: our id back from the payload, the payload without it. */
export function fromPoint(point: { id: string | number; score: number; payload?: unknown }): VectorHit {
  const { [ORIGINAL_ID_KEY]: originalId, ...payload } = (point.payload ?? {}) as Payload;
  return {
    id: typeof originalId === "string" ? originalId : String(point.id),
    score: point.score,
    payload,
  };
}
