/**
 * Index jobs with real processes sharing one SQLite file: two workers racing for one
 * repository (exactly one builds), a build that outlives the web process that started
 * it, restart recovery (a dead build is failed and resumed), host-aware liveness, and
 * scale-out mode (the route handler only queues; `wayfinder worker` claims, builds,
 * and on SIGTERM interrupts and re-queues its build).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client.ts";
import { createRepository } from "../db/repositories.ts";
import {
  failQueuedGeneration,
  isBuildAlive,
  listGenerations,
  startGeneration,
  type GenerationRow,
} from "../db/generations.ts";
import { getRepositoryView } from "../db/ui-queries.ts";
import { resetEnvForTests } from "../env.ts";
import { setupTempEnv, type FileTree, type TempEnv } from "../../test-support/temp-env.ts";
import { indexRepository } from "./build.ts";
import { tsScriptArgs } from "../package-files.ts";
import { cliProcessArgs, recoverIndexJobs, workerLogPath } from "./jobs.ts";

const ROOT = process.cwd();
let t: TempEnv;
const children: ChildProcess[] = [];

beforeAll(async () => {
  t = await setupTempEnv();
});
afterEach(() => {
  delete process.env.WAYFINDER_INDEX_WORKER;
  resetEnvForTests();
});
afterAll(async () => {
  for (const child of children) {
    if (child.pid && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
  await t?.cleanup();
});

/** Python modules enough for a build to take a few seconds. */
function modules(count: number, tag = "a"): FileTree {
  const files: FileTree = {};
  for (let i = 0; i < count; i++) {
    const body = [`"""Module ${i}."""`, "", `def job_${tag}_${i}(items):`];
    for (let k = 0; k < 40; k++) body.push(`    total_${k} = sum(len(str(x)) * ${k} for x in items if x)`);
    body.push("    return total_0", "");
    files[`pkg/mod_${i}.py`] = body.join("\n");
  }
  return files;
}

/** One node process (no wrapper) running the CLI, so its pid is the worker's pid. */
function cli(args: string[], extraEnv: Record<string, string> = {}): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, cliProcessArgs(args), {
    cwd: ROOT,
    env: { ...t.childEnv(), ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  children.push(child);
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  return Object.assign(child, { output: () => output });
}

function exited(child: ChildProcess, ms = 90_000): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    const timer = setTimeout(() => reject(new Error(`child ${child.pid} did not exit`)), ms);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined>, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function generation(repositoryId: string, number: number): Promise<GenerationRow | undefined> {
  return (await listGenerations(repositoryId, 50)).find((g) => g.number === number);
}

/** The pid of a process that has exited (and been reaped). */
async function deadPid(): Promise<number> {
  const probe = spawn(process.execPath, ["-e", ""]);
  await exited(probe);
  return probe.pid!;
}

describe("index jobs across processes", () => {
  it("two workers started at the same moment: exactly one builds, the other gets conflict:index_running", async () => {
    const root = t.makeRepo(modules(120));
    const repository = await createRepository({ name: "race", rootPath: root });
    const a = cli(["index", root, "--json"]);
    const b = cli(["index", root, "--json"]);
    // Freeze the winner as soon as its generation exists, so the loser certainly
    // reaches startGeneration while the build is live (no timing luck involved).
    const building = await waitFor("a building generation", async () =>
      (await listGenerations(repository.id, 5)).find((g) => g.status === "building"),
    );
    const client = await db();
    const row = await client.indexGeneration.findUniqueOrThrow({ where: { id: building.id } });
    expect([a.pid, b.pid]).toContain(row.workerPid);
    expect(row.workerHost).toBe(os.hostname());
    process.kill(row.workerPid!, "SIGSTOP");
    const [winner, loser] = row.workerPid === a.pid ? [a, b] : [b, a];
    try {
      expect(await exited(loser)).toBe(1);
    } finally {
      process.kill(row.workerPid!, "SIGCONT");
    }
    expect(loser.output()).toMatch(
      /error: An index build of this repository is already running \(generation 1/,
    );
    expect(await exited(winner)).toBe(0);
    const all = await listGenerations(repository.id, 10);
    expect(all.map((g) => [g.number, g.status])).toEqual([[1, "ready"]]);
  });

  it("a build outlives the web process that started it, and shows as live afterwards", async () => {
    const root = t.makeRepo(modules(250, "b"));
    const repository = await createRepository({ name: "outlive", rootPath: root });
    const script = path.join(t.base, "web.mts");
    fs.writeFileSync(
      script,
      `import { reindexRepository } from ${JSON.stringify(path.join(ROOT, "lib/builds/jobs.ts"))};\n` +
        `await reindexRepository(${JSON.stringify(repository.id)});\n` +
        `console.log("started");\nsetInterval(() => undefined, 1000);\n`,
    );
    const web = spawn(process.execPath, tsScriptArgs(script), {
      cwd: ROOT,
      env: t.childEnv(),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    children.push(web);
    let out = "";
    web.stdout?.on("data", (d: Buffer) => (out += d.toString()));
    web.stderr?.on("data", (d: Buffer) => (out += d.toString()));
    await waitFor("the web process to start the job", async () => out.includes("started") || null);
    // Kill the whole "web server" process group without warning.
    process.kill(-web.pid!, "SIGKILL");
    await exited(web);

    const row = (await generation(repository.id, 1))!;
    expect(row.status).toBe("building");
    expect(row.workerHost).toBe(os.hostname());
    expect(isBuildAlive(row)).toBe(true);
    const view = await getRepositoryView(repository.id);
    expect(view).toMatchObject({ status: "indexing", build: { number: 1, live: true } });
    expect(fs.existsSync(workerLogPath(repository, row))).toBe(true);

    const done = await waitFor("the orphaned build to finish", async () => {
      const g = await generation(repository.id, 1);
      return g && g.status !== "building" ? g : null;
    });
    expect(done).toMatchObject({ status: "ready", filesDone: 250, filesTotal: 250 });
  });

  it("on restart a dead build is failed and resumed as a fresh incremental build", async () => {
    const root = t.makeRepo(modules(20, "c"));
    const { repository } = await indexRepository(root, { name: "resume" });
    const orphanPid = await deadPid();
    const orphan = await startGeneration(repository.id, orphanPid);
    expect(orphan).toMatchObject({ number: 2, status: "building", workerHost: os.hostname() });
    expect(isBuildAlive(orphan)).toBe(false);

    const report = await recoverIndexJobs();
    expect(report.resumed).toEqual([{ repositoryId: repository.id, interrupted: 2, resumedAs: 3 }]);
    // Spawn mode (the default): recovery also starts the worker for the resumed job.
    expect(report.launched).toBe(1);
    expect(await generation(repository.id, 2)).toMatchObject({
      status: "failed",
      error: "Interrupted: the indexing process stopped; resumed as generation 3.",
    });
    const resumed = await waitFor("the resumed build", async () => {
      const g = await generation(repository.id, 3);
      return g && g.status !== "queued" && g.status !== "building" ? g : null;
    });
    expect(resumed).toMatchObject({ status: "ready", resumeOf: 2 });
    expect(JSON.parse(resumed.stats)).toMatchObject({ files: 20, reusedFiles: 20, parsedFiles: 0 });
    // Nothing left to recover.
    expect((await recoverIndexJobs()).resumed).toEqual([]);
  });

  it("judges a worker on another host by its heartbeat alone", async () => {
    const pid = await deadPid();
    const fresh = new Date();
    const stale = new Date(Date.now() - 120_000);
    expect(isBuildAlive({ heartbeatAt: fresh, workerPid: pid, workerHost: os.hostname() })).toBe(false);
    expect(isBuildAlive({ heartbeatAt: fresh, workerPid: pid, workerHost: "another-host" })).toBe(true);
    expect(isBuildAlive({ heartbeatAt: stale, workerPid: pid, workerHost: "another-host" })).toBe(false);

    const root = t.makeRepo(modules(2, "d"));
    const repository = await createRepository({ name: "remote", rootPath: root });
    const remote = await startGeneration(repository.id, pid);
    const client = await db();
    await client.indexGeneration.update({ where: { id: remote.id }, data: { workerHost: "another-host" } });
    await expect(startGeneration(repository.id, null, { queued: true })).rejects.toMatchObject({
      code: "conflict:index_running",
    });
    expect((await recoverIndexJobs({ launch: false })).resumed).toEqual([]);
    await client.indexGeneration.update({ where: { id: remote.id }, data: { heartbeatAt: stale } });
    const report = await recoverIndexJobs({ launch: false });
    expect(report.resumed).toEqual([{ repositoryId: repository.id, interrupted: 1, resumedAs: 2 }]);
    const requeued = await generation(repository.id, 2);
    expect(requeued).toMatchObject({ status: "queued", phase: "queued", resumeOf: 1 });
    // Not for the worker of the next test.
    expect(await failQueuedGeneration(requeued!.id, "test over")).toBe(true);
  });
});

describe("scale-out mode (WAYFINDER_INDEX_WORKER=external)", () => {
  it("the route only queues; wayfinder worker claims and builds; SIGTERM interrupts and re-queues", async () => {
    process.env.WAYFINDER_INDEX_WORKER = "external";
    resetEnvForTests();
    const { POST: addRoute } = await import("@/app/api/repos/route");
    const { POST: reindexRoute } = await import("@/app/api/repos/[id]/index/route");
    const root = t.makeRepo(modules(10, "e"), "scaled");

    const added = await addRoute(
      new Request("http://localhost/api/repos", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ path: root }),
      }),
    );
    expect(added.status).toBe(202);
    const { repository } = (await added.json()) as { repository: { id: string } };
    expect(await getRepositoryView(repository.id)).toMatchObject({
      status: "indexing",
      build: { number: 1, status: "queued", phase: "queued", live: true },
    });
    const reindex = () =>
      reindexRoute(new Request(`http://localhost/api/repos/${repository.id}/index`, { method: "POST" }), {
        params: Promise.resolve({ id: repository.id }),
      });
    const queuedTwice = await reindex();
    expect(queuedTwice.status).toBe(409);
    expect(await queuedTwice.json()).toMatchObject({ error: { code: "conflict:index_running" } });
    // Nobody builds it in this mode until a worker runs.
    await new Promise((r) => setTimeout(r, 500));
    expect((await generation(repository.id, 1))?.status).toBe("queued");

    const worker = cli(["worker"], { WAYFINDER_INDEX_WORKER: "external" });
    const first = await waitFor("the worker to build generation 1", async () => {
      const g = await generation(repository.id, 1);
      return g?.status === "ready" ? g : null;
    });
    expect(first).toMatchObject({ workerPid: worker.pid, workerHost: os.hostname() });
    expect((await getRepositoryView(repository.id))?.status).toBe("ready");

    // A bigger change, so the next build is caught under way and stopped.
    for (const [rel, content] of Object.entries(modules(250, "f"))) t.write(root, rel, content);
    expect((await reindex()).status).toBe(202);
    await waitFor("the worker to claim generation 2", async () => {
      const g = await generation(repository.id, 2);
      return g?.status === "building" ? g : null;
    });
    process.kill(worker.pid!, "SIGTERM");
    expect(await exited(worker)).toBe(0);
    expect(worker.output()).toMatch(/\[worker\] stopped \(1 built, 1 failed\)/);
    expect(await generation(repository.id, 2)).toMatchObject({
      status: "failed",
      error: "Interrupted: the indexing worker was stopped (SIGTERM); the build is queued again.",
    });
    expect(await generation(repository.id, 3)).toMatchObject({ status: "queued", resumeOf: 2 });

    // The next worker picks the re-queued build up.
    const next = cli(["worker", "--once"], { WAYFINDER_INDEX_WORKER: "external" });
    expect(await exited(next)).toBe(0);
    expect(await generation(repository.id, 3)).toMatchObject({ status: "ready", filesTotal: 250 });
  });
});
