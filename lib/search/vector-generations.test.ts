/**
 * Vectors follow the chunk rows: one collection per repository, keyed by chunk id and
 * shared by its generations. A build embeds only the chunks it wrote, readers see only
 * the chunks of the generation they are pinned to, and garbage collection deletes the
 * vectors of deleted chunks (a failed build's included). Runs on the embedded store;
 * the Qdrant store honours the same calls (vector-store-contract.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { indexRepository } from "../builds/build.ts";
import { db } from "../db/client.ts";
import { listGenerations } from "../db/generations.ts";
import { vectorSearch } from "./hybrid.ts";
import { resetEnvForTests } from "../env.ts";
import {
  closeSearchServices,
  collectionName,
  repositoryCollectionPrefix,
  searchServices,
} from "./runtime.ts";

let t: TempEnv;
beforeAll(async () => {
  t = await setupTempEnv();
});
afterAll(async () => t?.cleanup());

async function collectionsOf(repositoryId: string): Promise<string[]> {
  return (await searchServices().store.listCollections()).filter((c) =>
    c.startsWith(repositoryCollectionPrefix(repositoryId)),
  );
}

async function chunkRowsOf(repositoryId: string): Promise<number> {
  return (await db()).chunk.count({ where: { repositoryId } });
}

describe("vectors shared between generations", () => {
  it("embeds new chunks only, searches the pinned generation, and deletes what garbage collection deletes", async () => {
    const root = t.makeRepo({
      "alpha.py": 'def pangolin_census():\n    """Counts pangolins."""\n    return 1\n',
    });
    const first = await indexRepository(root, { name: "vectors" });
    const repositoryId = first.repository.id;
    const { embedder, store } = searchServices();
    const name = collectionName(repositoryId, embedder.id);
    const gen1 = first.stats.generationId;
    expect(await collectionsOf(repositoryId)).toEqual([name]);
    expect(first.stats.embeddedChunks).toBe(first.stats.chunks);
    expect(await store.count(name)).toBe(first.stats.chunks);

    t.write(root, "beta.py", 'def walrus_survey():\n    """Surveys walruses."""\n    return 2\n');
    const second = await indexRepository(root);
    const gen2 = second.stats.generationId;
    // Only beta.py's chunks (and the wiki pages it changed) were embedded.
    expect(second.stats.embeddedChunks).toBeLessThan(second.stats.chunks);
    expect(second.stats.embeddedChunks + second.stats.reusedVectors).toBe(second.stats.chunks);
    // The flip: generation 1 is still searchable for questions pinned to it, without beta.py.
    const old = await vectorSearch(repositoryId, gen1, "walrus survey", { limit: 5 });
    expect(old.map((h) => h.path)).not.toContain("beta.py");
    const current = await vectorSearch(repositoryId, gen2, "walrus survey", { limit: 5 });
    expect(current.map((h) => h.path)).toContain("beta.py");
    expect(await collectionsOf(repositoryId)).toEqual([name]);
    // One vector per chunk row the kept generations read.
    expect(await store.count(name)).toBe(await chunkRowsOf(repositoryId));

    // A build that fails after embedding leaves no vectors behind.
    const before = await store.count(name);
    t.write(root, "gamma.py", "def gamma():\n    return 3\n");
    const failed = await indexRepository(root, {
      afterPhase: (phase) => {
        if (phase === "embedding") throw new Error("simulated crash after embedding");
      },
    }).catch((e: unknown) => e);
    expect((failed as Error).message).toBe("simulated crash after embedding");
    const [failedGen] = await listGenerations(repositoryId, 1);
    expect(failedGen).toMatchObject({ number: 3, status: "failed" });
    expect(await store.count(name)).toBe(before);

    // A third ready generation: rows only generation 1 read are deleted, and their vectors.
    const fourth = await indexRepository(root);
    expect(fourth.stats).toMatchObject({ generation: 3, build: 4 });
    expect(await store.count(name)).toBe(await chunkRowsOf(repositoryId));
    const found = await vectorSearch(repositoryId, fourth.stats.generationId, "gamma", { limit: 5 });
    expect(found.map((h) => h.path)).toContain("gamma.py");
  });

  it("keeps each embedder's vectors apart: a build under another embedder embeds everything anew", async () => {
    const root = t.makeRepo({ "okapi.py": 'def okapi_count():\n    """Counts okapis."""\n    return 1\n' });
    const first = await indexRepository(root, { name: "embedders" });
    const repositoryId = first.repository.id;
    const before = await collectionsOf(repositoryId);
    expect(before).toEqual([collectionName(repositoryId, searchServices().embedder.id)]);
    const previous = process.env.EMBEDDING_PROVIDER;
    process.env.EMBEDDING_PROVIDER = searchServices().embedder.id.startsWith("hashing")
      ? "associations"
      : "hashing";
    try {
      await closeSearchServices();
      resetEnvForTests();
      const { embedder, store } = searchServices();
      t.write(root, "zebu.py", 'def zebu_count():\n    """Counts zebus."""\n    return 2\n');
      const second = await indexRepository(root);
      const name = collectionName(repositoryId, embedder.id);
      expect(await collectionsOf(repositoryId)).toEqual([name]);
      expect(second.stats.embeddedChunks).toBe(second.stats.chunks);
      expect(await store.count(name)).toBe(second.stats.chunks);
      const hits = await vectorSearch(repositoryId, second.stats.generationId, "okapi count", { limit: 3 });
      expect(hits[0]?.path).toBe("okapi.py");
    } finally {
      if (previous === undefined) delete process.env.EMBEDDING_PROVIDER;
      else process.env.EMBEDDING_PROVIDER = previous;
      await closeSearchServices();
      resetEnvForTests();
    }
  });
});
