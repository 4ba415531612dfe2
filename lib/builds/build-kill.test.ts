/**
 * A real crash: the CLI indexes a repository in a child process sharing this test's
 * WAYFINDER_HOME and is SIGKILLed mid-build. No cleanup code runs in the child, so
 * the generation row stays "building"; the previous generation must keep serving,
 * a live foreign build must be refused, and once the worker is dead (isBuildAlive
 * checks its pid) the next build must start, mark the orphan failed and succeed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client.ts";
import { symbolsByName } from "../db/code-graph.ts";
import { findRepository } from "../db/repositories.ts";
import { getGeneration, isBuildAlive, listGenerations } from "../db/generations.ts";
import { WayfinderError } from "../errors.ts";
import { lexicalSearch } from "../search/hybrid.ts";
import { setupTempEnv, type FileTree, type TempEnv } from "../../test-support/temp-env.ts";
import { indexRepository } from "./build.ts";
import { cliProcessArgs } from "./jobs.ts";

let t: TempEnv;
let child: ChildProcess | null = null;
beforeAll(async () => {
  t = await setupTempEnv();
});
afterAll(async () => {
  // Only if an assertion failed before the kill: stop the process group we started.
  if (child?.pid && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await t?.cleanup();
});

/**
 * Enough Python that the child's build takes a few seconds, so it can be caught
 * mid-way; long bodies with few symbols keep parsing slow and storing cheap.
 */
function manyModules(count: number): FileTree {
  const files: FileTree = {};
  for (let i = 0; i < count; i++) {
    const body: string[] = [`"""Generated module ${i}."""`, "import os", ""];
    for (let f = 0; f < 2; f++) {
      body.push(
        `class Worker${i}x${f}:`,
        `    """Worker ${f} of module ${i}."""`,
        "",
        "    def run(self, items):",
      );
      for (let k = 0; k < 30; k++) {
        body.push(
          `        total_${k} = sum(len(str(x)) * ${k} for x in items if x) + os.getpid() % ${k + 7}`,
        );
      }
      body.push(
        "        return self.finish(total_0)",
        "",
        "    def finish(self, result):",
        "        return result",
        "",
      );
    }
    files[`pkg/mod_${i}.py`] = body.join("\n");
  }
  return files;
}

function waitForExit(proc: ChildProcess, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    const timer = setTimeout(() => reject(new Error("child did not exit")), ms);
    proc.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

describe("a build killed with SIGKILL", () => {
  it(
    "leaves the old generation serving and does not block the next build",
    { timeout: 120_000 },
    async () => {
      const root = t.makeRepo({
        "core.py": 'def steady_state():\n    """Serves the pangolin report."""\n    return 1\n',
      });
      const { stats: first, repository } = await indexRepository(root);
      for (const [rel, content] of Object.entries(manyModules(400))) t.write(root, rel, content);

      // detached: the child gets its own process group, so cleanup can target exactly it.
      child = spawn(process.execPath, cliProcessArgs(["index", root]), {
        cwd: process.cwd(),
        env: t.childEnv(),
        stdio: ["ignore", "ignore", "pipe"],
        detached: true,
      });
      let stderr = "";
      child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));

      // Wait until the child's build is visibly under way (its own row, past discovery).
      let building = null as Awaited<ReturnType<typeof listGenerations>>[number] | null;
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const [latest] = await listGenerations(repository.id, 1);
        if (latest && latest.number === 2 && latest.status === "building" && latest.phase !== "discovering") {
          building = latest;
          break;
        }
        if (child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(building, `child build never got under way; stderr: ${stderr}`).not.toBeNull();
      const client = await db();
      const row = await client.indexGeneration.findUniqueOrThrow({ where: { id: building!.id } });
      expect(row.workerPid).toBeGreaterThan(0);
      expect(row.workerPid).not.toBe(process.pid);
      expect(isBuildAlive(row)).toBe(true);

      // While the foreign worker lives, a build here is refused.
      const refused = await indexRepository(root).then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(WayfinderError);
      expect((refused as WayfinderError).code).toBe("conflict:index_running");

      // The worker is the node process running main.ts; kill it without warning.
      expect(row.workerPid).toBe(child.pid);
      process.kill(row.workerPid!, "SIGKILL");
      await waitForExit(child, 15_000);
      const orphan = await getGeneration(building!.id);
      expect(orphan?.status).toBe("building");
      expect(isBuildAlive({ heartbeatAt: orphan!.heartbeatAt, workerPid: row.workerPid })).toBe(false);

      // Readers still get the old generation.
      expect((await findRepository(root))?.activeGenerationId).toBe(first.generationId);
      expect(
        (await lexicalSearch(first.generationId, "pangolin", { kinds: ["code", "file", "doc", "text"] })).map(
          (h) => h.path,
        ),
      ).toEqual(["core.py"]);
      expect((await symbolsByName(first.generationId, "steady_state")).length).toBe(1);
      expect(await symbolsByName(first.generationId, "Worker7x1")).toEqual([]);

      // The next build is not refused, replaces the orphan and serves the new files.
      const { stats } = await indexRepository(root);
      // The killed build took no generation number: the next good index is generation 2 (its build is the third).
      expect(stats).toMatchObject({ generation: 2, build: 3, files: 401, reusedFiles: 1, parsedFiles: 400 });
      expect((await findRepository(root))?.activeGenerationId).toBe(stats.generationId);
      expect((await symbolsByName(stats.generationId, "Worker7x1")).map((s) => s.path)).toEqual([
        "pkg/mod_7.py",
      ]);
      expect(await getGeneration(building!.id)).toMatchObject({
        status: "failed",
        error: "Interrupted: the indexing process stopped.",
      });
      // Nothing the dead build wrote is left.
      expect(
        await client.file.count({
          where: { repositoryId: building!.repositoryId, fromGeneration: building!.number },
        }),
      ).toBe(0);
    },
  );
});
