import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EmbeddedVectorStore } from "./vector-store-embedded.ts";
import { QdrantVectorStore } from "./vector-store-qdrant.ts";
import { assertCollectionName, assertFilter, matchesFilter } from "./vector-store-contract.ts";
import { createVectorStore } from "./vector-store.ts";

describe("createVectorStore", () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => fs.rm(d, { recursive: true, force: true })));
  });

  it("uses the embedded store without a Qdrant URL", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "wf-vs-"));
    dirs.push(dir);
    const store = createVectorStore({ dir });
    expect(store.kind).toBe("embedded");
    expect(store).toBeInstanceOf(EmbeddedVectorStore);
    await store.ensureCollection("repo_1__gen_1", 3);
    expect(await fs.readdir(dir)).toEqual(["repo_1__gen_1.wfv"]);
    await store.close();
  });

  it("uses Qdrant when a URL is given, without touching the network until used", () => {
    const store = createVectorStore({
      dir: "/nonexistent",
      qdrantUrl: "http://127.0.0.1:1",
      qdrantApiKey: "k",
    });
    expect(store.kind).toBe("qdrant");
    expect(store).toBeInstanceOf(QdrantVectorStore);
  });
});

describe("collection names", () => {
  it.each(["repo_1__gen_2", "a", "A-b_9", "x".repeat(128)])("accepts %s", (name) => {
    expect(() => assertCollectionName(name)).not.toThrow();
  });

  it.each(["", "../etc", "a/b", "a\\b", "a.b", "..", "x".repeat(129), "name with space", "ünï", "a\0b"])(
    "rejects %j",
    (name) => {
      expect(() => assertCollectionName(name)).toThrow(/collection name/);
    },
  );
});

describe("payload filters", () => {
  it("matches on equality of every field, strictly typed", () => {
    const payload = { path: "a.ts", line: 3, exported: true, symbol: null };
    expect(matchesFilter(payload, {})).toBe(true);
    expect(matchesFilter(payload, { path: "a.ts", line: 3 })).toBe(true);
    expect(matchesFilter(payload, { line: "3" })).toBe(false);
    expect(matchesFilter(payload, { exported: false })).toBe(false);
    expect(matchesFilter(payload, { missing: "x" })).toBe(false);
  });

  it("rejects nested-path keys and non-finite values", () => {
    expect(() => assertFilter({ "a.b": 1 })).toThrow(/plain field/);
    expect(() => assertFilter({ "a[0]": 1 })).toThrow(/plain field/);
    expect(() => assertFilter({ n: Number.NaN })).toThrow(/finite/);
    expect(() => assertFilter({ kind: "function", line: 2, ok: true })).not.toThrow();
  });
});
