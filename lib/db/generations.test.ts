/**
 * The generation state machine (lib/db/generations.ts, garbage.ts) on a real
 * database: building → ready / failed, superseded on flip, dead builds detected by
 * heartbeat or by pid, and repository registration rules (repositories.ts). The build pipeline is covered in
 * lib/indexer; these tests drive the store directly to reach states a build
 * cannot produce on demand (a stale heartbeat, a foreign worker).
 */
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WayfinderError } from "../errors.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { db } from "./client.ts";
import { snapshotOf, visibleIn } from "./snapshot.ts";
import { ftsIntegrityCheck, ftsMatchIds } from "./dialect.ts";
import {
  activateGeneration,
  failGeneration,
  getGeneration,
  isBuildAlive,
  STALE_BUILD_MS,
  startGeneration,
} from "./generations.ts";
import { closeFileRows, insertChunks } from "./build-writes.ts";
import { collectGarbage } from "./garbage.ts";
import { createRepository, deleteRepository, requireRepository } from "./repositories.ts";

let t: TempEnv;
beforeAll(async () => {
  t = await setupTempEnv();
});
afterAll(async () => {
  await t?.cleanup();
});

/** The pid of a process that has exited and been reaped. */
function deadPid(): number {
  const result = spawnSync(process.execPath, ["-e", ""]);
  expect(result.pid).toBeGreaterThan(0);
  return result.pid;
}

async function caught(promise: Promise<unknown>): Promise<WayfinderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WayfinderError);
  return error as WayfinderError;
}

let repoCounter = 0;
async function newRepository() {
  const name = `store-repo-${++repoCounter}`;
  return createRepository({ name, rootPath: `${t.base}/${name}` });
}

describe("isBuildAlive", () => {
  const fresh = () => new Date();
  const stale = () => new Date(Date.now() - STALE_BUILD_MS - 1000);

  it("trusts a fresh heartbeat from this process or from a live process", () => {
    expect(isBuildAlive({ heartbeatAt: fresh(), workerPid: process.pid })).toBe(true);
    expect(isBuildAlive({ heartbeatAt: fresh(), workerPid: process.ppid })).toBe(true);
    expect(isBuildAlive({ heartbeatAt: fresh(), workerPid: null })).toBe(true);
  });

  it("declares a build dead when its heartbeat is stale or its process is gone", () => {
    expect(isBuildAlive({ heartbeatAt: stale(), workerPid: process.pid })).toBe(false);
    expect(isBuildAlive({ heartbeatAt: fresh(), workerPid: deadPid() })).toBe(false);
  });
});

describe("generations", () => {
  it("numbers builds, refuses a second live one and flips readers atomically", async () => {
    const repo = await newRepository();
    const g1 = await startGeneration(repo.id, process.pid);
    expect(g1).toMatchObject({ number: 1, status: "building", phase: "discovering", workerPid: process.pid });
    const conflict = await caught(startGeneration(repo.id, process.pid));
    expect(conflict.code).toBe("conflict:index_running");
    expect(conflict.status).toBe(409);

    await activateGeneration(g1.id, { files: 1 });
    expect((await requireRepository(repo.id)).activeGenerationId).toBe(g1.id);
    // Its stats record the generation number people read and the build's own.
    expect(await getGeneration(g1.id)).toMatchObject({
      status: "ready",
      phase: "done",
      serial: 1,
      stats: '{"files":1,"generation":1,"build":1}',
    });

    const g2 = await startGeneration(repo.id, process.pid);
    expect(g2.number).toBe(2);
    await activateGeneration(g2.id, { files: 2 });
    expect((await requireRepository(repo.id)).activeGenerationId).toBe(g2.id);
    expect((await getGeneration(g1.id))?.status).toBe("superseded");
  });

  it("replaces a build whose worker died, and a build whose heartbeat went stale", async () => {
    const repo = await newRepository();
    const orphan = await startGeneration(repo.id, deadPid());
    const next = await startGeneration(repo.id, process.pid);
    expect(next.number).toBe(2);
    expect(await getGeneration(orphan.id)).toMatchObject({
      status: "failed",
      error: "Interrupted: the indexing process stopped.",
    });

    // Same process, but silent for longer than STALE_BUILD_MS: considered hung.
    const client = await db();
    await client.indexGeneration.update({
      where: { id: next.id },
      data: { heartbeatAt: new Date(Date.now() - STALE_BUILD_MS - 5000) },
    });
    const third = await startGeneration(repo.id, process.pid);
    expect(third.number).toBe(3);
    expect((await getGeneration(next.id))?.status).toBe("failed");
  });

  it("only activates a building generation, and only fails a building one", async () => {
    const repo = await newRepository();
    const g1 = await startGeneration(repo.id, process.pid);
    await failGeneration(g1.id, "boom");
    expect(await getGeneration(g1.id)).toMatchObject({ status: "failed", error: "boom" });
    const refused = await caught(activateGeneration(g1.id, {}));
    expect(refused.code).toBe("conflict:generation");
    expect((await requireRepository(repo.id)).activeGenerationId).toBeNull();

    const g2 = await startGeneration(repo.id, process.pid);
    await activateGeneration(g2.id, {});
    await failGeneration(g2.id, "late failure must not unpublish a ready generation");
    expect(await getGeneration(g2.id)).toMatchObject({ status: "ready", error: null });
    expect((await requireRepository(repo.id)).activeGenerationId).toBe(g2.id);
  });

  it("collects failed and old superseded generations, never the live or newest ones", async () => {
    const repo = await newRepository();
    const ids: string[] = [];
    const chunk = (i: number) => ({
      fileId: null,
      path: `f${i}.md`,
      kind: "doc",
      symbolId: null,
      title: `t${i}`,
      startLine: 1,
      endLine: 1,
      text: "x",
      searchText: `gcword${i}`,
      tokens: 1,
    });
    // Each generation replaces the previous one's file f<i-1>.md by f<i>.md.
    for (let i = 0; i < 3; i++) {
      const g = await startGeneration(repo.id, process.pid);
      await closeFileRows(g.id, [`f${i - 1}.md`]);
      await insertChunks(g.id, [chunk(i)]);
      await activateGeneration(g.id, {});
      ids.push(g.id);
    }
    // A build that replaced f2.md too, then failed.
    const failed = await startGeneration(repo.id, process.pid);
    await closeFileRows(failed.id, ["f2.md"]);
    const [failedChunk] = await insertChunks(failed.id, [chunk(3)]);
    await failGeneration(failed.id, "parse exploded");
    await expect(insertChunks(failed.id, [chunk(4)])).rejects.toMatchObject({ code: "conflict:generation" });
    const live = await startGeneration(repo.id, process.pid);

    const garbage = await collectGarbage(repo.id);
    expect(garbage.generations.sort()).toEqual([ids[0], failed.id].sort());
    // f0.md (read by generation 1 only) and the failed build's chunk are deleted.
    expect(garbage.chunkIds).toHaveLength(2);
    expect(garbage.chunkIds).toContain(failedChunk);
    expect((await getGeneration(ids[0]!))?.status).toBe("deleted");
    expect((await getGeneration(ids[1]!))?.status).toBe("superseded");
    expect((await getGeneration(ids[2]!))?.status).toBe("ready");
    expect(await getGeneration(failed.id)).toMatchObject({ status: "failed", error: "parse exploded" });
    expect((await getGeneration(live.id))?.status).toBe("building");
    const client = await db();
    const chunksIn = async (id: string) =>
      (await client.chunk.findMany({ where: visibleIn(await snapshotOf(id)), select: { path: true } })).map(
        (c) => c.path,
      );
    expect(await chunksIn(ids[0]!)).toEqual([]);
    expect(await chunksIn(ids[1]!)).toEqual(["f1.md"]);
    // What the failed build closed is current again; what it wrote is gone.
    expect(await chunksIn(ids[2]!)).toEqual(["f2.md"]);
    expect(await chunksIn(live.id)).toEqual(["f2.md"]);
    expect(await ftsMatchIds(client, "gcword3")).toEqual([]);
    // SQLite: FTS5 compares its index with the Chunk table; PostgreSQL: stored vectors are current.
    await expect(ftsIntegrityCheck(client)).resolves.toBeUndefined();
  });
});

describe("large generations", () => {
  it(
    "stores and FTS-indexes more chunks than fit in one call's arguments",
    { timeout: 120_000 },
    async () => {
      // 130k ids once overflowed the stack (Math.min(...ids)) and failed the whole build.
      const repo = await newRepository();
      const g = await startGeneration(repo.id, process.pid);
      const rows = Array.from({ length: 130_000 }, (_, i) => ({
        fileId: null,
        path: `f${i % 100}.md`,
        kind: "doc",
        symbolId: null,
        title: "t",
        startLine: 1,
        endLine: 1,
        text: "",
        searchText: i === 129_999 ? "lastchunkword" : "bulk",
        tokens: 1,
      }));
      const ids = await insertChunks(g.id, rows);
      expect(ids).toHaveLength(130_000);
      const client = await db();
      expect(await ftsMatchIds(client, "lastchunkword")).toEqual([ids[129_999]]);
    },
  );
});

describe("repositories", () => {
  it("returns the existing row for the same folder and refuses a taken name", async () => {
    const first = await createRepository({ name: "named", rootPath: `${t.base}/one` });
    expect((await createRepository({ name: "other-name", rootPath: `${t.base}/one` })).id).toBe(first.id);
    const taken = await caught(createRepository({ name: "named", rootPath: `${t.base}/two` }));
    expect(taken.code).toBe("conflict:repo_name");
    expect((await caught(requireRepository("no-such-repo"))).code).toBe("not_found:repository");
  });

  it("deletes a repository with every generation's rows and FTS entries", async () => {
    const repo = await newRepository();
    const g = await startGeneration(repo.id, process.pid);
    await insertChunks(g.id, [
      {
        fileId: null,
        path: "a.md",
        kind: "doc",
        symbolId: null,
        title: "a",
        startLine: 1,
        endLine: 1,
        text: "a",
        searchText: "deleteme",
        tokens: 1,
      },
    ]);
    await activateGeneration(g.id, {});
    await deleteRepository(repo.id);
    const client = await db();
    expect(await client.chunk.count({ where: { repositoryId: repo.id } })).toBe(0);
    expect(await client.indexGeneration.count({ where: { repositoryId: repo.id } })).toBe(0);
    expect(await ftsMatchIds(client, "deleteme")).toEqual([]);
  });
});
