/**
 * One contract for both vector backends: the same cases run against the embedded
 * store (always) and against a real Qdrant server (only when QDRANT_URL is set; no
 * Qdrant can run on the build machines, and the suite title and a warning say so
 * when it did not run). Whatever the indexer and the readers rely on is here.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmbeddedVectorStore } from "./vector-store-embedded.ts";
import { QdrantVectorStore } from "./vector-store-qdrant.ts";
import type { VectorItem, VectorStore } from "./vector-store-contract.ts";

interface Backend {
  store: VectorStore;
  cleanup: () => Promise<void>;
}

function item(id: string, vector: number[], payload: VectorItem["payload"] = {}): VectorItem {
  return { id, vector: Float32Array.from(vector), payload };
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! ** 2;
    nb += b[i]! ** 2;
  }
  return dot / Math.sqrt(na * nb);
}

function contract(make: () => Promise<Backend>, prefix: string): void {
  let backend: Backend;
  let store: VectorStore;
  const made: string[] = [];
  const fresh = (label: string) => {
    const name = `${prefix}_${label}`;
    made.push(name);
    return name;
  };
  beforeAll(async () => {
    backend = await make();
    store = backend.store;
  });
  afterAll(async () => {
    for (const name of made) await store?.dropCollection(name).catch(() => undefined);
    await backend?.cleanup();
  });

  it("creates a collection once and refuses other dimensions for it", async () => {
    const name = fresh("dims");
    await store.ensureCollection(name, 4);
    await store.ensureCollection(name, 4);
    expect(await store.listCollections()).toContain(name);
    expect(await store.count(name)).toBe(0);
    await expect(store.ensureCollection(name, 5)).rejects.toMatchObject({
      code: "conflict:vector_dimensions",
    });
    await expect(store.upsert(name, [item("x", [1, 0, 0])])).rejects.toMatchObject({
      code: "bad_request:vector_dimensions",
    });
    await expect(store.search(name, Float32Array.of(1, 0, 0), 3)).rejects.toMatchObject({
      code: "bad_request:vector_dimensions",
    });
  });

  it("searches by cosine, best first, with payload filters and scores", async () => {
    const name = fresh("search");
    await store.ensureCollection(name, 4);
    await store.upsert(name, [
      item("a", [1, 0, 0, 0], { path: "a.ts", kind: "code" }),
      item("b", [0.9, 0.1, 0, 0], { path: "b.ts", kind: "text" }),
      item("c", [0, 1, 0, 0], { path: "a.ts", kind: "code" }),
      item("d", [-1, 0, 0, 0], { path: "d.ts", kind: "code" }),
    ]);
    await store.flush();
    const hits = await store.search(name, Float32Array.of(2, 0, 0, 0), 3);
    expect(hits.map((h) => h.id)).toEqual(["a", "b", "c"]);
    expect(hits[0]?.score).toBeCloseTo(1, 4);
    expect(hits[0]?.payload).toEqual({ path: "a.ts", kind: "code" });
    const filtered = await store.search(name, Float32Array.of(1, 0, 0, 0), 10, { path: "a.ts" });
    expect(filtered.map((h) => h.id)).toEqual(["a", "c"]);
    const both = await store.search(name, Float32Array.of(1, 0, 0, 0), 10, { path: "a.ts", kind: "text" });
    expect(both).toEqual([]);
    expect(await store.search(name, new Float32Array(4), 3)).toEqual([]);
    expect(await store.search(name, Float32Array.of(1, 0, 0, 0), 0)).toEqual([]);
  });

  it("upserts by id, deletes by filter with a count, and returns stored vectors", async () => {
    const name = fresh("writes");
    await store.ensureCollection(name, 3);
    await store.upsert(name, [
      item("1", [1, 0, 0], { path: "x.ts" }),
      item("2", [0, 1, 0], { path: "y.ts" }),
    ]);
    await store.upsert(name, [item("1", [0, 0, 1], { path: "z.ts" })]);
    expect(await store.count(name)).toBe(2);
    const [top] = await store.search(name, Float32Array.of(0, 0, 1), 1);
    expect(top).toMatchObject({ id: "1", payload: { path: "z.ts" } });
    const vectors = await store.getVectors(name, ["1", "2", "missing"]);
    expect([...vectors.keys()].sort()).toEqual(["1", "2"]);
    expect(cosine(vectors.get("2")!, Float32Array.of(0, 1, 0))).toBeCloseTo(1, 5);
    expect(await store.deleteWhere(name, { path: "y.ts" })).toBe(1);
    expect(await store.deleteWhere(name, { path: "y.ts" })).toBe(0);
    expect(await store.count(name)).toBe(1);
  });

  it("deletes by id, ignoring ids it does not hold", async () => {
    const name = fresh("delete_ids");
    await store.ensureCollection(name, 2);
    await store.upsert(name, [item("1", [1, 0]), item("2", [0, 1]), item("3", [1, 1])]);
    await store.delete(name, ["2", "missing"]);
    await store.flush();
    expect(await store.count(name)).toBe(2);
    expect((await store.search(name, Float32Array.of(0, 1), 3)).map((h) => h.id).sort()).toEqual(["1", "3"]);
  });

  it("takes more points than one batch in one upsert", async () => {
    const name = fresh("batch");
    await store.ensureCollection(name, 8);
    const items = Array.from({ length: 1300 }, (_, i) =>
      item(
        String(i),
        Array.from({ length: 8 }, (_, d) => Math.sin(i + d * 1.7) + 1.5),
        { n: i % 7 },
      ),
    );
    await store.upsert(name, items);
    await store.flush();
    expect(await store.count(name)).toBe(1300);
    const edges = await store.getVectors(name, ["0", "999", "1000", "1299"]);
    expect([...edges.keys()].sort()).toEqual(["0", "1000", "1299", "999"]);
    // Both backends may store cosine vectors normalised: compare directions.
    expect(cosine(edges.get("1299")!, items[1299]!.vector)).toBeCloseTo(1, 5);
  });

  it("drops collections idempotently; a dropped one is not found", async () => {
    const name = fresh("drop");
    await store.ensureCollection(name, 2);
    await store.upsert(name, [item("a", [1, 1])]);
    await store.dropCollection(name);
    await store.dropCollection(name);
    expect(await store.listCollections()).not.toContain(name);
    await expect(store.count(name)).rejects.toMatchObject({ code: "not_found:vector_collection" });
    await expect(store.search(name, Float32Array.of(1, 0), 1)).rejects.toMatchObject({
      code: "not_found:vector_collection",
    });
  });
}

describe("vector store contract: embedded", () => {
  contract(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wf-contract-"));
    const store = new EmbeddedVectorStore({ dir });
    return {
      store,
      cleanup: async () => {
        await store.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }, "contract");
});

const qdrantUrl = process.env.QDRANT_URL;
if (!qdrantUrl) {
  console.warn(
    "Qdrant contract tests did NOT run: QDRANT_URL is not set (no Qdrant server on this machine).",
  );
}

describe.skipIf(!qdrantUrl)(
  qdrantUrl
    ? `vector store contract: Qdrant at ${qdrantUrl}`
    : "vector store contract: Qdrant — NOT RUN, QDRANT_URL is not set",
  () => {
    contract(
      async () => ({
        store: new QdrantVectorStore({ url: qdrantUrl, apiKey: process.env.QDRANT_API_KEY }),
        cleanup: async () => undefined,
      }),
      `wf_contract_${process.pid}_${Date.now()}`,
    );
  },
);
