/**
 * Vector collections follow the generations: one per repository and generation,
 * readers search only the generation they are pinned to, and garbage collection drops
 * the collections of failed builds and of superseded generations the database no
 * longer keeps. Runs on the embedded store; the Qdrant store honours the same calls
 * (vector-store-contract.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTempEnv, type TempEnv } from "../test-support/temp-env.ts";
import { indexRepository } from "../indexer/build.ts";
import { listGenerations } from "../db/index-store.ts";
import { vectorSearch } from "./hybrid.ts";
import { collectionName, searchServices } from "./runtime.ts";

let t: TempEnv;
beforeAll(async () => {
  t = await setupTempEnv();
});
afterAll(async () => t?.cleanup());

async function collectionsOf(repositoryId: string): Promise<string[]> {
  const prefix = collectionName(repositoryId, "");
  return (await searchServices().store.listCollections()).filter((c) => c.startsWith(prefix));
}

describe("vector collections per generation", () => {
  it("searches the pinned generation only and drops collections nobody keeps", async () => {
    const root = t.makeRepo({
      "alpha.py": 'def pangolin_census():\n    """Counts pangolins."""\n    return 1\n',
    });
    const first = await indexRepository(root, { name: "vectors" });
    const repositoryId = first.repository.id;
    const gen1 = first.stats.generationId;
    expect(await collectionsOf(repositoryId)).toEqual([collectionName(repositoryId, gen1)]);

    t.write(root, "beta.py", 'def walrus_survey():\n    """Surveys walruses."""\n    return 2\n');
    const gen2 = (await indexRepository(root)).stats.generationId;
    // The flip: generation 1 is still searchable for questions pinned to it, without beta.py.
    const old = await vectorSearch(repositoryId, gen1, "walrus survey", { limit: 5 });
    expect(old.map((h) => h.path)).not.toContain("beta.py");
    const current = await vectorSearch(repositoryId, gen2, "walrus survey", { limit: 5 });
    expect(current.map((h) => h.path)).toContain("beta.py");
    expect((await collectionsOf(repositoryId)).sort()).toEqual(
      [collectionName(repositoryId, gen1), collectionName(repositoryId, gen2)].sort(),
    );

    // A build that fails after embedding leaves no collection behind.
    t.write(root, "gamma.py", "def gamma():\n    return 3\n");
    const failed = await indexRepository(root, {
      afterPhase: (phase) => {
        if (phase === "embedding") throw new Error("simulated crash after embedding");
      },
    }).catch((e: unknown) => e);
    expect((failed as Error).message).toBe("simulated crash after embedding");
    const [failedGen] = await listGenerations(repositoryId, 1);
    expect(failedGen).toMatchObject({ number: 3, status: "failed" });
    expect(await collectionsOf(repositoryId)).not.toContain(collectionName(repositoryId, failedGen!.id));

    // A third ready generation: generation 1 is no longer kept, in the database or the store.
    const gen4 = (await indexRepository(root)).stats.generationId;
    expect((await collectionsOf(repositoryId)).sort()).toEqual(
      [collectionName(repositoryId, gen2), collectionName(repositoryId, gen4)].sort(),
    );
    expect(await vectorSearch(repositoryId, gen1, "pangolin", { limit: 5 })).toEqual([]);
  });
});
