/**
 * Numbers people read stay true: a build that fails takes no generation number (the
 * first good index is generation 1, whatever failed before it), while builds keep
 * their own numbers; progress counts listed paths, skipped ones included, against a
 * total that does not change once counting starts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getGeneration } from "../db/generations.ts";
import { getRepositoryView } from "../db/ui-queries.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { indexRepository } from "./build.ts";
import type { BuildProgress } from "./types.ts";

let t: TempEnv;
beforeAll(async () => {
  t = await setupTempEnv();
});
afterAll(async () => {
  await t?.cleanup();
});

describe("build and generation numbers", () => {
  it("gives failed builds no generation number", async () => {
    const root = t.makeRepo({ "a.py": "def a():\n    return 1\n" });
    const crash = () => {
      throw new Error("disk full");
    };
    for (let i = 0; i < 2; i++)
      await expect(
        indexRepository(root, { afterPhase: (p) => (p === "parsing" ? crash() : undefined) }),
      ).rejects.toThrow(/disk full/);
    const first = await indexRepository(root);
    expect(first.stats).toMatchObject({ generation: 1, build: 3 });
    expect(await getGeneration(first.stats.generationId)).toMatchObject({ number: 3, serial: 1 });
    const second = await indexRepository(root);
    expect(second.stats).toMatchObject({ generation: 2, build: 4 });
    expect((await getRepositoryView(first.repository.id))?.active?.number).toBe(2);
  });

  it("counts skipped paths in its progress, against the number of paths listed", async () => {
    const root = t.makeRepo({
      "a.py": "def a():\n    return 1\n",
      "b.py": "def b():\n    return 2\n",
      "logo.png": Buffer.from([0x89, 0x50]),
      "notes.xyz": "unknown\n",
    });
    const seen: BuildProgress[] = [];
    await indexRepository(root, { onProgress: (p) => seen.push(p) });
    const counted = seen.filter((p) => p.phase === "parsing");
    expect(new Set(counted.map((p) => p.filesTotal))).toEqual(new Set([4]));
    expect(seen.at(-1)).toMatchObject({ filesDone: 4, filesTotal: 4 });
    expect(seen.filter((p) => p.phase === "discovering").every((p) => p.filesTotal === 0)).toBe(true);
  });
});
