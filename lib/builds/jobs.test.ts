/**
 * The web's background index jobs with a real worker process: a build starts and
 * becomes visible before the request returns, a second build of the same repository
 * is refused while one runs, and bad paths and duplicates are refused up front.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupQaHome } from "@/test-support/qa-env";
import { listGenerations } from "@/lib/db/generations";
import { addRepository, isIndexJobRunning, reindexRepository } from "./jobs";

const INVENTORY = path.resolve(__dirname, "../../e2e/fixtures/inventory");

async function waitUntilIdle(id: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (isIndexJobRunning(id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
}

describe("index jobs", () => {
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ cleanup } = await setupQaHome("wf-jobs-"));
  });
  afterAll(async () => cleanup());

  it("starts a build in a worker, refuses a second one while it runs, and finishes", async () => {
    const repository = await addRepository({ path: INVENTORY }, null);
    expect(repository.name).toBe("inventory");
    // The generation exists as soon as addRepository returns.
    const [started] = await listGenerations(repository.id, 1);
    expect(started?.number).toBe(1);
    await expect(reindexRepository(repository.id)).rejects.toMatchObject({ code: "conflict:index_running" });

    await waitUntilIdle(repository.id);
    const [done] = await listGenerations(repository.id, 1);
    expect(done).toMatchObject({ number: 1, status: "ready", phase: "done", filesDone: 5, filesTotal: 5 });

    await reindexRepository(repository.id);
    await waitUntilIdle(repository.id);
    expect((await listGenerations(repository.id, 1))[0]).toMatchObject({ number: 2, status: "ready" });
  });

  it("refuses bad paths and an already added folder", async () => {
    await expect(addRepository({ path: "/definitely/not/here" }, null)).rejects.toMatchObject({
      code: "bad_request:repo_path",
    });
    await expect(addRepository({ path: path.join(INVENTORY, "README.md") }, null)).rejects.toMatchObject({
      code: "bad_request:repo_path",
    });
    await expect(addRepository({ path: INVENTORY, name: "again" }, null)).rejects.toMatchObject({
      code: "conflict:repo_path",
    });
  });
});
