/**
 * Index generations on a real database: a build that dies mid-way (the `afterPhase`
 * hook throws, as a crash would) must leave the previous generation serving and its
 * own rows invisible; a running build must not be visible before it flips; two
 * builds of one repository must not run at once; builds of different repositories
 * must not break each other.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client.ts";
import { snapshotOf, visibleIn } from "../db/snapshot.ts";
import { symbolsByName } from "../db/code-graph.ts";
import { findRepository } from "../db/repositories.ts";
import { getFileContent } from "../db/index-reads.ts";
import { getGeneration, listGenerations } from "../db/generations.ts";
import { isWayfinderError, WayfinderError } from "../errors.ts";
import { lexicalSearch } from "../search/hybrid.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { indexRepository } from "./build.ts";
import type { BuildPhase, BuildStats } from "./types.ts";

let t: TempEnv;
beforeAll(async () => {
  t = await setupTempEnv();
});
afterAll(async () => {
  await t?.cleanup();
});

const OLD_SOURCE = 'def old_handler():\n    """Handles the ocelot queue."""\n    return 1\n';
const NEW_SOURCE = 'def new_handler():\n    """Handles the narwhal queue."""\n    return 2\n';

/** A promise that the test resolves by hand, to hold a build inside a phase. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

async function activeGenerationId(root: string): Promise<string> {
  const repo = await findRepository(root);
  expect(repo?.activeGenerationId).toBeTruthy();
  return repo!.activeGenerationId!;
}

async function expectServesOld(root: string, generationId: string): Promise<void> {
  expect(await activeGenerationId(root)).toBe(generationId);
  expect(
    (await lexicalSearch(generationId, "ocelot", { kinds: ["code", "file", "doc", "text"] })).map(
      (h) => h.path,
    ),
  ).toEqual(["handlers.py"]);
  expect(await lexicalSearch(generationId, "narwhal")).toEqual([]);
  expect((await symbolsByName(generationId, "old_handler")).length).toBe(1);
  expect(await symbolsByName(generationId, "new_handler")).toEqual([]);
}

describe("a build that crashes mid-way", () => {
  const phases: BuildPhase[] = ["parsing", "resolving", "wiki", "embedding", "associations"];

  it.each(phases)(
    "after %s leaves the previous generation serving; the next build succeeds",
    async (phase) => {
      const root = t.makeRepo({ "handlers.py": OLD_SOURCE, "README.md": "# Handlers\n" });
      const { stats: first, repository } = await indexRepository(root);
      t.write(root, "handlers.py", NEW_SOURCE);

      const crash = indexRepository(root, {
        afterPhase: (p) => {
          if (p === phase) throw new Error(`simulated crash after ${phase}`);
        },
      });
      await expect(crash).rejects.toThrow(`simulated crash after ${phase}`);

      await expectServesOld(root, first.generationId);
      const [failed] = await listGenerations(repository.id, 1);
      expect(failed).toMatchObject({ number: 2, status: "failed", error: `simulated crash after ${phase}` });
      expect(failed?.finishedAt).not.toBeNull();

      const { stats: next } = await indexRepository(root);
      // The failed build took build number 2 but no generation number.
      expect(next).toMatchObject({ generation: 2, build: 3 });
      expect(next.parsedFiles).toBe(1);
      expect(next.reusedFiles).toBe(1);
      expect(await activeGenerationId(root)).toBe(next.generationId);
      expect(
        (await lexicalSearch(next.generationId, "narwhal", { kinds: ["code", "file", "doc", "text"] })).map(
          (h) => h.path,
        ),
      ).toEqual(["handlers.py"]);
      expect((await symbolsByName(next.generationId, "new_handler")).length).toBe(1);

      // The failed build's rows are collected, but its status and real error are kept for the history.
      const client = await db();
      const written = { repositoryId: repository.id, fromGeneration: failed!.number };
      const closed = { repositoryId: repository.id, toGeneration: failed!.number };
      const leftovers = await Promise.all([
        client.file.count({ where: written }),
        client.symbol.count({ where: written }),
        client.chunk.count({ where: written }),
        client.edge.count({ where: written }),
        client.file.count({ where: closed }),
        client.symbol.count({ where: closed }),
        client.chunk.count({ where: closed }),
        client.edge.count({ where: closed }),
        client.termAssociations.count({ where: { repositoryId: repository.id, generation: failed!.number } }),
      ]);
      expect(leftovers).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
      expect(await getGeneration(failed!.id)).toMatchObject({
        status: "failed",
        error: `simulated crash after ${phase}`,
      });
    },
  );
});

describe("a build in progress", () => {
  it("is invisible to readers until it flips, and reports its phases in order", async () => {
    const root = t.makeRepo({ "handlers.py": OLD_SOURCE });
    const { stats: first } = await indexRepository(root);
    t.write(root, "handlers.py", NEW_SOURCE);

    const hold = gate();
    const reached = gate();
    const seen: BuildPhase[] = [];
    const build = indexRepository(root, {
      onProgress: (p) => {
        if (seen.at(-1) !== p.phase) seen.push(p.phase);
      },
      afterPhase: async (p) => {
        if (p !== "resolving") return;
        reached.open();
        await hold.wait;
      },
    });
    await reached.wait;
    // New rows are all written (stored and resolved), yet readers still see the old generation.
    await expectServesOld(root, first.generationId);
    const repo = await findRepository(root);
    const [building] = await listGenerations(repo!.id, 1);
    expect(building).toMatchObject({ number: 2, status: "building", phase: "resolving" });

    hold.open();
    const { stats } = await build;
    expect(await activeGenerationId(root)).toBe(stats.generationId);
    expect(
      (await lexicalSearch(stats.generationId, "narwhal", { kinds: ["code", "file", "doc", "text"] })).length,
    ).toBe(1);
    expect(seen).toEqual([
      "discovering",
      "parsing",
      "resolving",
      "wiki",
      "embedding",
      "associations",
      "activating",
      "done",
    ]);
  });
});

describe("concurrent builds", () => {
  it("refuses a second build of the same repository with conflict:index_running", async () => {
    const root = t.makeRepo({ "handlers.py": OLD_SOURCE });
    const { stats: first } = await indexRepository(root);
    const hold = gate();
    const reached = gate();
    const running = indexRepository(root, {
      afterPhase: async (p) => {
        if (p !== "discovering") return;
        reached.open();
        await hold.wait;
      },
    });
    await reached.wait;

    const second = await indexRepository(root).then(
      () => null,
      (error: unknown) => error,
    );
    expect(second).toBeInstanceOf(WayfinderError);
    expect((second as WayfinderError).code).toBe("conflict:index_running");
    expect((second as WayfinderError).message).toMatch(/already running \(generation 2/);

    hold.open();
    const { stats } = await running;
    expect(stats.generation).toBe(2);
    const repo = await findRepository(root);
    // The refused build left no generation row behind.
    expect((await listGenerations(repo!.id)).map((g) => [g.number, g.status])).toEqual([
      [2, "ready"],
      [1, "superseded"],
    ]);
    expect(first.generation).toBe(1);
  });

  it("lets exactly one of two simultaneous first-time builds of a folder run", async () => {
    const root = t.makeRepo({ "handlers.py": OLD_SOURCE });
    const hold = gate();
    const attempts = [0, 1].map(() => indexRepository(root, { afterPhase: () => hold.wait }));
    // The refused one settles while the other is held inside its build.
    const loser = await Promise.race(
      attempts.map((p) =>
        p.then(
          () => null,
          (e: unknown) => e,
        ),
      ),
    );
    expect(isWayfinderError(loser) ? loser.code : loser).toBe("conflict:index_running");
    hold.open();
    const results = await Promise.allSettled(attempts);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const repo = await findRepository(root);
    expect(repo?.activeGenerationId).toBeTruthy();
  });

  it("keeps file contents of a build when another repository's build collects blobs meanwhile", async () => {
    const rootA = t.makeRepo({ "a.py": "def alpha():\n    return 1\n" });
    const rootB = t.makeRepo({ "b.py": "def beta():\n    return 2\n", "notes.md": "# Beta notes\n" });
    const hold = gate();
    const reached = gate();
    // B has read its files and stored their text, but has not written its File rows yet.
    const buildB = indexRepository(rootB, {
      afterPhase: async (p) => {
        if (p !== "parsing") return;
        reached.open();
        await hold.wait;
      },
    });
    await reached.wait;
    await indexRepository(rootA); // finishes with garbage collection of unreferenced blobs
    hold.open();
    const { stats } = await buildB;
    expect(await getFileContent(stats.generationId, "b.py")).toBe("def beta():\n    return 2\n");
    expect(await getFileContent(stats.generationId, "notes.md")).toBe("# Beta notes\n");
  });
});

describe("generation bookkeeping", () => {
  it("numbers generations per repository and keeps one superseded generation", async () => {
    const root = t.makeRepo({ "handlers.py": OLD_SOURCE });
    const numbers: number[] = [];
    const stats: BuildStats[] = [];
    for (let i = 0; i < 4; i++) {
      t.write(root, "handlers.py", `${OLD_SOURCE}\n# revision ${i}\n`);
      const result = await indexRepository(root);
      numbers.push(result.stats.generation);
      stats.push(result.stats);
    }
    expect(numbers).toEqual([1, 2, 3, 4]);
    const repo = await findRepository(root);
    expect((await listGenerations(repo!.id)).map((g) => g.status)).toEqual([
      "ready",
      "superseded",
      "deleted",
      "deleted",
    ]);
    const client = await db();
    const filesIn = async (generationId: string) =>
      client.file.count({ where: visibleIn(await snapshotOf(generationId)) });
    expect(await filesIn(stats[0]!.generationId)).toBe(0);
    expect(await filesIn(stats[2]!.generationId)).toBe(1);
    // Each revision wrote one file row; only the two kept generations' rows are left.
    expect(await client.file.count({ where: { repositoryId: repo!.id } })).toBe(2);
  });
});
