/**
 * An index worker started the way the web app starts one (lib/builds/jobs.ts: node +
 * tsx running the CLI's `index` command in a child process) is SIGKILLed mid-build,
 * without warning, so none of its cleanup runs.
 * Questions must keep answering from the old generation, completely and with verified
 * citations, and the next worker must mark the dead build failed and serve the new files.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findRepository } from "../db/repositories.ts";
import { getGeneration, listGenerations } from "../db/generations.ts";
import { askQuestion, type MessageChunk } from "../qa/ask.ts";
import type { AnswerMetadata, CitationPart } from "../qa/types.ts";
import { setupTempEnv, type FileTree, type TempEnv } from "../../test-support/temp-env.ts";
import { indexRepository } from "./build.ts";
import { cliProcessArgs } from "./jobs.ts";

let t: TempEnv;
const children: ChildProcess[] = [];
beforeAll(async () => {
  t = await setupTempEnv();
});
afterAll(async () => {
  for (const child of children) {
    if (child.pid && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  await t?.cleanup();
});

/** The worker command jobs.ts spawns. */
function startWorker(root: string): {
  child: ChildProcess;
  exited: Promise<number | null>;
  output: () => string;
} {
  const child = spawn(process.execPath, cliProcessArgs(["index", root, "--json"]), {
    cwd: process.cwd(),
    env: t.childEnv(),
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** Many modules with long bodies, so parsing them takes the worker a few seconds. */
function slowModules(count: number): FileTree {
  const files: FileTree = {};
  for (let i = 0; i < count; i++) {
    const body = [`"""Generated module ${i}."""`, ""];
    for (let f = 0; f < 3; f++) {
      body.push(`def quokka_${i}_${f}(items):`, `    """Quokka step ${f}."""`);
      for (let k = 0; k < 25; k++) body.push(`    items = [x * ${k + 1} for x in items if x % ${k + 2}]`);
      body.push("    return items", "");
    }
    files[`gen/mod_${i}.py`] = body.join("\n");
  }
  return files;
}

async function answer(repositoryId: string, question: string) {
  const parts: MessageChunk[] = [];
  await askQuestion({ repository: repositoryId, question }, { write: (p) => parts.push(p) }, { model: null });
  const finish = parts.find((p) => p.type === "finish");
  const citations = parts.find((p) => p.type === "data-citations");
  return {
    errors: parts.filter((p) => p.type === "error"),
    metadata: (finish?.type === "finish" ? finish.messageMetadata : null) as AnswerMetadata | null,
    text: parts.map((p) => (p.type === "text-delta" ? p.delta : "")).join(""),
    citations:
      citations?.type === "data-citations" ? (citations.data as { items: CitationPart[] }).items : [],
  };
}

describe("an index worker killed mid-build", () => {
  it(
    "leaves the old generation answering; the next worker fails it and succeeds",
    { timeout: 120_000 },
    async () => {
      const root = t.makeRepo({
        "billing/invoice.py":
          'def issue_invoice(order):\n    """Issue the pangolin invoice for an order."""\n    return {"order": order}\n',
      });
      const { repository, stats: first } = await indexRepository(root);
      for (const [rel, content] of Object.entries(slowModules(300))) t.write(root, rel, content);

      const worker = startWorker(root);
      // Poll the worker's IndexGeneration row until it is parsing (past discovery).
      let building = null as Awaited<ReturnType<typeof listGenerations>>[number] | null;
      const deadline = Date.now() + 40_000;
      while (Date.now() < deadline && worker.child.exitCode === null) {
        const [latest] = await listGenerations(repository.id, 1);
        if (latest?.number === 2 && latest.status === "building" && latest.phase === "parsing") {
          building = latest;
          break;
        }
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(building, `the worker never reached parsing: ${worker.output()}`).not.toBeNull();
      // The row names the worker: the one node process jobs.ts starts, running main.ts.
      const workerPid = building!.workerPid!;
      expect(workerPid).toBe(worker.child.pid);
      process.kill(workerPid, "SIGKILL");
      await worker.exited;
      expect(() => process.kill(workerPid, 0)).toThrow();

      // The dead build is still "building" in its row, and nothing of it is visible.
      expect((await getGeneration(building!.id))?.status).toBe("building");
      expect((await findRepository(root))?.activeGenerationId).toBe(first.generationId);
      const during = await answer(repository.id, "What does issue_invoice do?");
      expect(during.errors).toEqual([]);
      expect(during.metadata?.generationId).toBe(first.generationId);
      expect(during.text).toContain("pangolin invoice");
      expect(during.text).not.toContain("quokka");
      expect(during.citations.filter((c) => c.verified).map((c) => c.path)).toContain("billing/invoice.py");

      // The next worker marks the dead build failed, builds generation 3 and flips to it.
      const next = startWorker(root);
      expect(await next.exited, next.output()).toBe(0);
      expect(await getGeneration(building!.id)).toMatchObject({
        status: "failed",
        error: "Interrupted: the indexing process stopped.",
      });
      const [latest] = await listGenerations(repository.id, 1);
      expect(latest).toMatchObject({ number: 3, status: "ready" });
      expect((await findRepository(root))?.activeGenerationId).toBe(latest!.id);
      const after = await answer(repository.id, "What does quokka_7_1 do?");
      expect(after.errors).toEqual([]);
      expect(after.metadata?.generationId).toBe(latest!.id);
      expect(after.citations.filter((c) => c.verified).map((c) => c.path)).toContain("gen/mod_7.py");
    },
  );
});
