import { constants as fsConstants } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EmbeddedVectorStore, type EmbeddedVectorStoreOptions } from "./vector-store-embedded.ts";
import type { VectorItem } from "./vector-store-contract.ts";

/** Deterministic pseudo-random vectors (xorshift), so failures reproduce. */
function randomVectors(count: number, dims: number, seed = 1): Float32Array[] {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return ((state >>> 0) / 0xffffffff) * 2 - 1;
  };
  return Array.from({ length: count }, () => Float32Array.from({ length: dims }, next));
}

function cosine(a: Float32Array, b: Float32Array): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += (a[i] as number) * (b[i] as number);
    aa += (a[i] as number) ** 2;
    bb += (b[i] as number) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

function items(
  vectors: Float32Array[],
  payload: (i: number) => VectorItem["payload"] = () => ({}),
): VectorItem[] {
  return vectors.map((vector, i) => ({ id: `c${i}`, vector, payload: payload(i) }));
}

let dir: string;
const stores: EmbeddedVectorStore[] = [];

function open(options: Partial<EmbeddedVectorStoreOptions> = {}): EmbeddedVectorStore {
  const store = new EmbeddedVectorStore({ dir, flushDelayMs: false, ...options });
  stores.push(store);
  return store;
}

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "wf-vectors-"));
});

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(stores.splice(0).map((s) => s.close().catch(() => undefined)));
  await fs.rm(dir, { recursive: true, force: true });
});

describe("EmbeddedVectorStore: search", () => {
  it("returns exact cosine top-k, best first (same as brute force)", async () => {
    const store = open();
    const vectors = randomVectors(2000, 32);
    await store.ensureCollection("c", 32);
    await store.upsert("c", items(vectors));
    for (const query of randomVectors(5, 32, 99)) {
      const hits = await store.search("c", query, 10);
      const expected = vectors
        .map((v, i) => ({ id: `c${i}`, score: cosine(query, v) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, 10);
      expect(hits.map((h) => h.id)).toEqual(expected.map((e) => e.id));
      hits.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i]?.score ?? NaN, 5));
    }
  });

  it("is scale-invariant (stores unit vectors); a zero query finds nothing", async () => {
    const store = open();
    await store.ensureCollection("c", 2);
    await store.upsert("c", [
      { id: "x", vector: Float32Array.of(10, 0), payload: {} },
      { id: "y", vector: Float32Array.of(0, 0.1), payload: {} },
    ]);
    const [best] = await store.search("c", Float32Array.of(0, 5), 1);
    expect(best).toMatchObject({ id: "y" });
    expect(best?.score).toBeCloseTo(1, 6);
    expect(await store.search("c", Float32Array.of(0, 0), 2)).toEqual([]);
  });

  it("keeps insertion order on equal scores", async () => {
    const store = open();
    await store.ensureCollection("c", 2);
    const v = Float32Array.of(1, 1);
    await store.upsert(
      "c",
      ["first", "second", "third"].map((id) => ({ id, vector: v, payload: {} })),
    );
    expect((await store.search("c", v, 3)).map((h) => h.id)).toEqual(["first", "second", "third"]);
  });

  it("filters on payload equality", async () => {
    const store = open();
    const vectors = randomVectors(300, 8);
    await store.ensureCollection("c", 8);
    await store.upsert(
      "c",
      items(vectors, (i) => ({ kind: i % 3 === 0 ? "class" : "function", odd: i % 2 === 1 })),
    );
    const query = randomVectors(1, 8, 7)[0] as Float32Array;
    const hits = await store.search("c", query, 20, { kind: "class", odd: true });
    expect(hits).toHaveLength(20);
    for (const h of hits) expect(h.payload).toEqual({ kind: "class", odd: true });
    const expected = vectors
      .map((v, i) => ({ i, score: cosine(query, v) }))
      .filter(({ i }) => i % 3 === 0 && i % 2 === 1)
      .sort((a, b) => b.score - a.score)
      .slice(0, 20)
      .map(({ i }) => `c${i}`);
    expect(hits.map((h) => h.id)).toEqual(expected);
    expect(await store.search("c", query, 5, { kind: "enum" })).toEqual([]);
  });

  it("returns fewer hits than k when the collection is small, none for k = 0", async () => {
    const store = open();
    await store.ensureCollection("c", 4);
    await store.upsert("c", items(randomVectors(3, 4)));
    expect(await store.search("c", Float32Array.of(1, 0, 0, 0), 10)).toHaveLength(3);
    expect(await store.search("c", Float32Array.of(1, 0, 0, 0), 0)).toEqual([]);
  });

  it("hands out payload copies", async () => {
    const store = open();
    await store.ensureCollection("c", 2);
    await store.upsert("c", [{ id: "a", vector: Float32Array.of(1, 0), payload: { path: "a.ts" } }]);
    const [hit] = await store.search("c", Float32Array.of(1, 0), 1);
    if (hit) hit.payload.path = "mutated";
    expect((await store.search("c", Float32Array.of(1, 0), 1))[0]?.payload.path).toBe("a.ts");
  });
});

describe("EmbeddedVectorStore: writes", () => {
  it("upserts by id: replaces vector and payload, count unchanged", async () => {
    const store = open();
    await store.ensureCollection("c", 2);
    await store.upsert("c", [
      { id: "a", vector: Float32Array.of(1, 0), payload: { v: 1 } },
      { id: "b", vector: Float32Array.of(0, 1), payload: { v: 1 } },
    ]);
    await store.upsert("c", [{ id: "a", vector: Float32Array.of(0, 1), payload: { v: 2 } }]);
    expect(await store.count("c")).toBe(2);
    const hits = await store.search("c", Float32Array.of(0, 1), 2);
    expect(hits.map((h) => [h.id, h.payload.v])).toEqual([
      ["a", 2],
      ["b", 1],
    ]);
  });

  it("grows past its initial capacity", async () => {
    const store = open();
    const vectors = randomVectors(5000, 16, 3);
    await store.ensureCollection("c", 16);
    for (let i = 0; i < vectors.length; i += 700) {
      await store.upsert("c", items(vectors).slice(i, i + 700));
    }
    expect(await store.count("c")).toBe(5000);
    const [hit] = await store.search("c", vectors[4321] as Float32Array, 1);
    expect(hit?.id).toBe("c4321");
  });

  it("deletes by filter, returning the count and keeping the rest searchable", async () => {
    const store = open();
    const vectors = randomVectors(100, 8);
    await store.ensureCollection("c", 8);
    await store.upsert(
      "c",
      items(vectors, (i) => ({ path: i < 40 ? "old.ts" : "new.ts" })),
    );
    expect(await store.deleteWhere("c", { path: "old.ts" })).toBe(40);
    expect(await store.deleteWhere("c", { path: "old.ts" })).toBe(0);
    expect(await store.count("c")).toBe(60);
    const [hit] = await store.search("c", vectors[70] as Float32Array, 1);
    expect(hit?.id).toBe("c70");
    const all = await store.search("c", vectors[5] as Float32Array, 100);
    expect(all.every((h) => h.payload.path === "new.ts")).toBe(true);
    // A deleted id can come back.
    await store.upsert("c", [{ id: "c5", vector: vectors[5] as Float32Array, payload: { path: "old.ts" } }]);
    expect((await store.search("c", vectors[5] as Float32Array, 1))[0]?.id).toBe("c5");
  });

  it("validates names, dimensions, values and filters", async () => {
    const store = open();
    await expect(store.ensureCollection("../escape", 4)).rejects.toMatchObject({
      code: "bad_request:vector_collection",
    });
    await expect(store.ensureCollection("c", 0)).rejects.toMatchObject({
      code: "bad_request:vector_dimensions",
    });
    await store.ensureCollection("c", 4);
    await store.ensureCollection("c", 4); // idempotent
    await expect(store.ensureCollection("c", 8)).rejects.toMatchObject({
      code: "conflict:vector_dimensions",
    });
    await expect(
      store.upsert("c", [{ id: "a", vector: new Float32Array(3), payload: {} }]),
    ).rejects.toMatchObject({
      code: "bad_request:vector_dimensions",
    });
    await expect(
      store.upsert("c", [
        { id: "ok", vector: Float32Array.of(1, 0, 0, 0), payload: {} },
        { id: "bad", vector: Float32Array.of(Number.NaN, 0, 0, 0), payload: {} },
      ]),
    ).rejects.toMatchObject({ code: "bad_request:vector_values" });
    expect(await store.count("c")).toBe(0); // validated before anything is applied
    await expect(store.search("c", new Float32Array(5), 1)).rejects.toMatchObject({
      code: "bad_request:vector_dimensions",
    });
    await expect(store.search("c", new Float32Array(4), 1, { "a.b": 1 })).rejects.toMatchObject({
      code: "bad_request:vector_filter",
    });
    await expect(store.search("c", new Float32Array(4), -1)).rejects.toMatchObject({
      code: "bad_request:vector_k",
    });
  });

  it("reports missing collections, and dropping one is idempotent", async () => {
    const store = open();
    await expect(store.count("nope")).rejects.toMatchObject({
      code: "not_found:vector_collection",
      status: 404,
    });
    await expect(store.search("nope", new Float32Array(2), 1)).rejects.toMatchObject({ status: 404 });
    await expect(store.upsert("nope", [])).rejects.toMatchObject({ status: 404 });
    await store.dropCollection("nope");
    await store.ensureCollection("c", 2);
    await store.dropCollection("c");
    await expect(store.count("c")).rejects.toMatchObject({ status: 404 });
    expect(await store.listCollections()).toEqual([]);
  });

  it("refuses use after close", async () => {
    const store = open();
    await store.close();
    await store.close(); // idempotent
    await expect(store.ensureCollection("c", 2)).rejects.toMatchObject({ code: "unavailable:vector_store" });
  });
});

describe("EmbeddedVectorStore: persistence", () => {
  it("persists on close and loads lazily in a new instance", async () => {
    const first = open();
    const vectors = randomVectors(500, 16);
    await first.ensureCollection("repo_1__gen_1", 16);
    await first.upsert(
      "repo_1__gen_1",
      items(vectors, (i) => ({ path: `f${i % 7}.ts`, line: i, symbol: null })),
    );
    const query = randomVectors(1, 16, 5)[0] as Float32Array;
    const before = await first.search("repo_1__gen_1", query, 10, { path: "f3.ts" });
    await first.close();

    const second = open();
    expect(await second.listCollections()).toEqual(["repo_1__gen_1"]);
    expect(await second.count("repo_1__gen_1")).toBe(500);
    const after = await second.search("repo_1__gen_1", query, 10, { path: "f3.ts" });
    expect(after).toEqual(before);
  });

  it("writes nothing until flush when background writes are off, then everything", async () => {
    const store = open({ flushEvery: 1_000_000 });
    await store.ensureCollection("c", 4);
    await store.upsert("c", items(randomVectors(10, 4)));
    expect(await open().count("c")).toBe(0); // the empty collection written at creation
    await store.flush();
    expect(await open().count("c")).toBe(10);
  });

  it("writes after enough upserts without an explicit flush", async () => {
    const store = open({ flushEvery: 50 });
    await store.ensureCollection("c", 4);
    await store.upsert("c", items(randomVectors(60, 4)));
    expect(await open().count("c")).toBe(60);
  });

  it("writes in the background a moment after the last change", async () => {
    const store = open({ flushDelayMs: 20 });
    await store.ensureCollection("c", 4);
    await store.upsert("c", items(randomVectors(5, 4)));
    await vi.waitFor(async () => expect(await open().count("c")).toBe(5), { timeout: 2000, interval: 25 });
  });

  it("keeps the file as it was when an append fails midway, and appends the changes later", async () => {
    const store = open();
    await store.ensureCollection("c", 4);
    await store.upsert("c", items(randomVectors(3, 4)));
    await store.flush();
    await store.upsert("c", items(randomVectors(8, 4, 9)));
    // The disk fails after half of the new segment is written.
    const realOpen = fs.open.bind(fs);
    vi.spyOn(fs, "open").mockImplementation(async (...args: Parameters<typeof fs.open>) => {
      const handle = await realOpen(...args);
      if (args[1] === fsConstants.O_RDWR) {
        const write = handle.write.bind(handle) as (...a: unknown[]) => Promise<unknown>;
        handle.write = (async (buffer: Buffer, offset: number, length: number, position: number) => {
          await write(buffer, offset, Math.floor(length / 2), position);
          throw Object.assign(new Error("disk gone"), { code: "EIO" });
        }) as unknown as typeof handle.write;
      }
      return handle;
    });
    await expect(store.flush()).rejects.toMatchObject({ code: "unavailable:vector_store" });
    vi.restoreAllMocks();
    expect(await fs.readdir(dir)).toEqual(["c.wfv"]);
    expect(await open().count("c")).toBe(3);
    // Still pending: the next flush appends them.
    await store.flush();
    expect(await open().count("c")).toBe(8);
  });

  it("ignores a torn append left by a crash, and the next append replaces it", async () => {
    const store = open();
    await store.ensureCollection("c", 4);
    await store.upsert("c", items(randomVectors(5, 4)));
    await store.close();
    const file = path.join(dir, "c.wfv");
    const whole = await fs.readFile(file);
    const writer = open();
    await writer.upsert(
      "c",
      items(randomVectors(2, 4, 3)).map((item) => ({ ...item, id: `n${item.id}` })),
    );
    await writer.flush();
    const appended = (await fs.readFile(file)).subarray(whole.length);
    // The crash: only the first part of the new segment reached the disk.
    await fs.writeFile(file, Buffer.concat([whole, appended.subarray(0, appended.length - 9)]));
    expect(await open().count("c")).toBe(5);
    const next = open();
    await next.upsert("c", [{ id: "late", vector: Float32Array.of(1, 2, 3, 4), payload: {} }]);
    await next.flush();
    expect(await open().count("c")).toBe(6);
  });

  it("reads appended segments and compactions made by another process", async () => {
    const writer = open();
    const vectors = randomVectors(40, 4, 5);
    await writer.ensureCollection("c", 4);
    await writer.upsert("c", items(vectors).slice(0, 20));
    await writer.flush();
    const reader = open();
    expect(await reader.count("c")).toBe(20);
    await writer.upsert("c", items(vectors).slice(20));
    await writer.flush();
    expect(await reader.count("c")).toBe(40);
    const [hit] = await reader.search("c", vectors[33] as Float32Array, 1);
    expect(hit?.id).toBe("c33");
    // Deleting most of it compacts the file into one segment: the reader follows.
    await writer.delete(
      "c",
      items(vectors)
        .slice(0, 30)
        .map((i) => i.id),
    );
    await writer.flush();
    expect(await reader.count("c")).toBe(10);
    expect((await fs.readFile(path.join(dir, "c.wfv"))).length).toBeLessThan(10 * 4 * 4 + 400);
    expect((await reader.search("c", vectors[3] as Float32Array, 40)).map((h) => h.id)).not.toContain("c3");
  });

  it("ignores a half-written temp file left by a crash, and drop cleans it up", async () => {
    const store = open();
    await store.ensureCollection("c", 4);
    await store.upsert("c", items(randomVectors(3, 4)));
    await store.close();
    await fs.writeFile(path.join(dir, "c.wfv.tmp-12345-1"), Buffer.from("WFVEC001 partial"));
    const reader = open();
    expect(await reader.listCollections()).toEqual(["c"]);
    expect(await reader.count("c")).toBe(3);
    await reader.dropCollection("c");
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it("detects a damaged file", async () => {
    const store = open();
    await store.ensureCollection("c", 4);
    await store.close();
    const file = path.join(dir, "c.wfv");
    const bytes = await fs.readFile(file);

    await fs.writeFile(file, bytes.subarray(0, bytes.length - 7));
    await expect(open().count("c")).rejects.toMatchObject({ code: "internal:vector_file_corrupt" });

    const flipped = Buffer.from(bytes);
    flipped[40] = (flipped[40] as number) ^ 0xff;
    await fs.writeFile(file, flipped);
    await expect(open().count("c")).rejects.toThrow(/checksum/);

    await fs.writeFile(file, Buffer.from("not vectors at all, just text"));
    await expect(open().count("c")).rejects.toMatchObject({ code: "internal:vector_file_corrupt" });
  });

  it("does not resurrect a collection dropped while a write was pending", async () => {
    const store = open();
    await store.ensureCollection("c", 4);
    await store.upsert("c", items(randomVectors(3, 4)));
    // Drop queued first, the write second: the write must notice the drop.
    const dropping = store.dropCollection("c");
    const flushing = store.flush();
    await Promise.all([dropping, flushing]);
    expect(await fs.readdir(dir)).toEqual([]);

    // And the other way round: the drop removes what the write produced.
    await store.ensureCollection("c", 4);
    await store.upsert("c", items(randomVectors(3, 4)));
    await Promise.all([store.flush(), store.dropCollection("c")]);
    expect(await fs.readdir(dir)).toEqual([]);
  });
});

describe("EmbeddedVectorStore: concurrency", () => {
  it("serves searches on one collection while a large upsert runs on another", async () => {
    const store = open({ batchSize: 500 });
    await store.ensureCollection("a", 64);
    await store.ensureCollection("b", 64);
    const bVectors = randomVectors(200, 64, 11);
    await store.upsert("b", items(bVectors));

    let upsertDone = false;
    const upsert = store.upsert("a", items(randomVectors(20_000, 64, 12))).then(() => {
      upsertDone = true;
    });
    const [hit] = await store.search("b", bVectors[42] as Float32Array, 1);
    expect(hit?.id).toBe("c42");
    expect(upsertDone).toBe(false); // the search did not wait for the whole upsert
    await upsert;
    expect(await store.count("a")).toBe(20_000);
  });

  it("sees a consistent, growing collection while it is being filled", async () => {
    const store = open({ batchSize: 300 });
    const vectors = randomVectors(6000, 16, 21);
    await store.ensureCollection("a", 16);
    expect(await store.count("a")).toBe(0); // loaded for reading before the fill starts
    const upsert = store.upsert("a", items(vectors));
    const counts: number[] = [];
    for (let i = 0; i < 10; i++) {
      counts.push(await store.count("a"));
      const hits = await store.search("a", vectors[0] as Float32Array, 3);
      // Every hit's score must be the true cosine of its own vector (no torn writes).
      for (const h of hits) {
        const index = Number(h.id.slice(1));
        expect(h.score).toBeCloseTo(cosine(vectors[0] as Float32Array, vectors[index] as Float32Array), 5);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    await upsert;
    expect(counts).toEqual([...counts].sort((x, y) => x - y));
    expect(counts.some((c) => c > 0 && c < 6000)).toBe(true);
  });

  it("lets concurrent first readers share one load", async () => {
    const writer = open();
    await writer.ensureCollection("c", 4);
    await writer.upsert("c", items(randomVectors(50, 4)));
    await writer.close();
    const reader = open();
    const readFile = vi.spyOn(fs, "readFile");
    const counts = await Promise.all([reader.count("c"), reader.count("c"), reader.count("c")]);
    expect(counts).toEqual([50, 50, 50]);
    expect(readFile).toHaveBeenCalledTimes(1);
  });
});
