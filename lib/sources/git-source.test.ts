/**
 * Git sources with real git: a bare repository as the remote, commits pushed to it by
 * the test, Wayfinder's shallow checkout under WAYFINDER_HOME, the commit recorded on
 * each generation, polls that follow the branch (once across competing pollers),
 * follow-up builds, and clear errors for unreachable remotes and missing branches.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client.ts";
import { getGeneration, listGenerations } from "../db/generations.ts";
import { requireRepository } from "../db/repositories.ts";
import { getSource, setPollSchedule } from "../db/source-store.ts";
import { getRepositoryView } from "../db/ui-queries.ts";
import { resetEnvForTests } from "../env.ts";
import { indexRepository } from "../builds/build.ts";
import { addRepository } from "../builds/jobs.ts";
import { startIndexWorker } from "../builds/worker.ts";
import { lexicalSearch } from "../search/hybrid.ts";
import { makeGitRemote } from "../../test-support/git-remote.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { GET as getRepositoryRoute } from "../../app/api/repos/[id]/route.ts";
import { GET as listRepositoriesRoute } from "../../app/api/repos/route.ts";
import { ensureAdminToken } from "../auth/admin-token.ts";
import { ensureAccessToken } from "../auth/access-token.ts";
import { registerGitRepository } from "./checkout.ts";
import { REMOTE_UNREACHABLE } from "./git-errors.ts";
import { checkoutDir, isBareRepository, remoteHead } from "./git.ts";
import { pollDueRepositories, queueFollowUp, requestBuild } from "../builds/refresh.ts";

let t: TempEnv;
beforeAll(async () => {
  t = await setupTempEnv();
  process.env.WAYFINDER_INDEX_WORKER = "external";
  resetEnvForTests();
});
afterEach(() => {
  delete process.env.WAYFINDER_REPO_ROOTS;
  process.env.WAYFINDER_INDEX_WORKER = "external";
  resetEnvForTests();
});
afterAll(async () => {
  delete process.env.WAYFINDER_INDEX_WORKER;
  await t?.cleanup();
});

const SERVICE = `def load_orders(db):
    """Load every order."""
    return db.query("orders")
`;

async function runQueuedBuilds(): Promise<number> {
  const worker = startIndexWorker({ once: true, log: () => undefined });
  return (await worker.done).built;
}

async function activeCommit(repositoryId: string): Promise<string | null | undefined> {
  const repo = await requireRepository(repositoryId);
  return repo.activeGenerationId ? (await getGeneration(repo.activeGenerationId))?.commitSha : null;
}

describe("a repository added by Git URL", () => {
  it("clones the branch head into WAYFINDER_HOME, indexes it and records the commit", async () => {
    const remote = makeGitRemote(t.base, "shop", { "orders/service.py": SERVICE, "README.md": "# Shop\n" });
    const repository = await addRepository({ url: remote.bare, branch: "main" }, null);
    expect(repository).toMatchObject({ sourceKind: "git", gitUrl: remote.bare, gitBranch: "main" });
    expect(await runQueuedBuilds()).toBe(1);

    const ready = await requireRepository(repository.id);
    const generation = await getGeneration(ready.activeGenerationId!);
    expect(generation?.commitSha).toBe(remote.head());
    expect(JSON.parse(generation!.stats)).toMatchObject({
      commitSha: remote.head(),
      files: 2,
      source: "git",
    });
    expect(fs.existsSync(path.join(checkoutDir(repository.id), "orders/service.py"))).toBe(true);
    expect(await lexicalSearch(ready.activeGenerationId!, "load_orders")).not.toHaveLength(0);
  });

  it("follows the remote's default branch when none is named, and another branch when one is", async () => {
    const remote = makeGitRemote(t.base, "branches", { "a.py": "def on_main():\n    return 1\n" });
    remote.push({ "a.py": "def on_release():\n    return 2\n" }, "release work", "release/1.x");
    const byDefault = await registerGitRepository({ url: `file://${remote.bare}` });
    const { stats } = await indexRepository(byDefault.id);
    expect(stats.commitSha).toBe(remote.head("main"));
    expect((await getSource(byDefault.id))?.gitBranch).toBe("main");

    const release = await registerGitRepository({ url: remote.bare, branch: "release/1.x", name: "release" });
    const built = await indexRepository(release.id);
    expect(built.stats.commitSha).toBe(remote.head("release/1.x"));
    expect(await lexicalSearch(built.stats.generationId, "on_release")).not.toHaveLength(0);
    expect(await lexicalSearch(built.stats.generationId, "on_main")).toHaveLength(0);
  });

  it("takes a git bundle as the remote, finding its default branch without a symref", async () => {
    const remote = makeGitRemote(t.base, "bundled", { "lib.py": "def bundled_fn():\n    return 1\n" });
    const bundle = path.join(t.base, "bundled.bundle");
    execFileSync("git", ["bundle", "create", "--quiet", bundle, "--all"], { cwd: remote.bare });
    expect(isBareRepository(bundle)).toBe(true);
    expect(await remoteHead(bundle, null)).toEqual({ branch: "main", sha: remote.head() });
    const repository = await registerGitRepository({ url: bundle });
    const { stats } = await indexRepository(repository.id);
    expect(stats.commitSha).toBe(remote.head());
    expect(await lexicalSearch(stats.generationId, "bundled_fn")).not.toHaveLength(0);
  });

  it("indexes exactly the pushed commit: deleted files leave, edits replace, nothing else stays", async () => {
    const remote = makeGitRemote(t.base, "edits", {
      "keep.py": "def kept():\n    return 1\n",
      "gone.py": "def gone_soon():\n    pass\n",
    });
    const repository = await registerGitRepository({ url: remote.bare, branch: "main" });
    await indexRepository(repository.id);
    // Something left in the checkout by hand must not be indexed.
    fs.writeFileSync(path.join(checkoutDir(repository.id), "stray.py"), "def stray():\n    pass\n");
    const head = remote.push({ "gone.py": null, "keep.py": "def kept_and_renamed():\n    return 2\n" });
    const { stats } = await indexRepository(repository.id);
    expect(stats).toMatchObject({ commitSha: head, files: 1, reusedFiles: 0, removedFiles: 1 });
    for (const [query, hits] of [
      ["kept_and_renamed", 1],
      ["gone_soon", 0],
      ["stray", 0],
    ] as const) {
      expect((await lexicalSearch(stats.generationId, query)).length > 0, query).toBe(hits > 0);
    }
  });

  it("refuses a second registration of the same remote and branch, and local remotes outside WAYFINDER_REPO_ROOTS", async () => {
    const remote = makeGitRemote(t.base, "twice", { "x.py": "x = 1\n" });
    await registerGitRepository({ url: remote.bare, branch: "main", name: "twice-a" });
    await expect(
      registerGitRepository({ url: remote.bare, branch: "main", name: "twice-b" }),
    ).rejects.toThrow(/already added as "twice-a"/);
    const allowed = [t.makeDir("allowed")];
    await expect(
      addRepository({ url: `file://${remote.bare}`, branch: "other" }, allowed),
    ).rejects.toMatchObject({
      code: "forbidden:repo_path",
    });
    await expect(addRepository({ url: path.join(t.base, "missing.git") }, allowed)).rejects.toThrow(
      /No such repository/,
    );
  });
});

describe("unreachable remotes and missing branches", () => {
  it("shows a clear error on the repository card, without the credentials that were in the URL", async () => {
    const repository = await addRepository(
      { url: "https://deploy:s3cr3t-token@127.0.0.1:9/team/app.git", branch: "main" },
      null,
    );
    const client = await db();
    const stored = await client.repository.findUniqueOrThrow({ where: { id: repository.id } });
    expect(stored.gitUrl).toBe("https://127.0.0.1:9/team/app.git");
    expect(await runQueuedBuilds()).toBe(0);
    const view = await getRepositoryView(repository.id);
    expect(view?.status).toBe("failed");
    expect(view?.build?.error).toMatch(/^Could not reach https:\/\/127\.0\.0\.1:9\/team\/app\.git: .+/);
    const everything =
      JSON.stringify(await client.repository.findMany()) +
      JSON.stringify(await client.indexGeneration.findMany());
    expect(everything).not.toContain("s3cr3t");
    // Readers see that the remote could not be reached; admins see git's reason.
    process.env.WAYFINDER_ACCESS = "token";
    resetEnvForTests();
    try {
      const get = async (authorization: string) =>
        (await getRepositoryRoute(
          new Request(`http://localhost/api/repos/${repository.id}`, { headers: { authorization } }),
          { params: Promise.resolve({ id: repository.id }) },
        ).then((r) => r.json())) as { repository: { build: { error: string } } };
      const reader = await get(`Bearer ${ensureAccessToken().value}`);
      expect(reader.repository.build.error).toBe(REMOTE_UNREACHABLE);
      const admin = await get(`Bearer ${ensureAdminToken().token}`);
      expect(admin.repository.build.error).toMatch(
        /^Could not reach https:\/\/127\.0\.0\.1:9\/team\/app\.git: .+/,
      );
      const list = (await (
        await listRepositoriesRoute(
          new Request("http://localhost/api/repos", {
            headers: { authorization: `Bearer ${ensureAccessToken().value}` },
          }),
        )
      ).json()) as { repositories: { id: string; build: { error: string } | null }[] };
      expect(list.repositories.find((r) => r.id === repository.id)?.build?.error).toBe(REMOTE_UNREACHABLE);
    } finally {
      delete process.env.WAYFINDER_ACCESS;
      resetEnvForTests();
    }
  });

  it("names the missing branch", async () => {
    const remote = makeGitRemote(t.base, "nobranch", { "x.py": "x = 1\n" });
    await expect(remoteHead(remote.bare, "does-not-exist")).rejects.toThrow(/has no branch "does-not-exist"/);
    const repository = await registerGitRepository({ url: remote.bare, branch: "does-not-exist" });
    await expect(indexRepository(repository.id)).rejects.toThrow(/has no branch "does-not-exist"/);
    const [failed] = await listGenerations(repository.id, 1);
    expect(failed).toMatchObject({ status: "failed" });
    expect(failed?.error).toMatch(/has no branch "does-not-exist"/);
  });
});

describe("polling", () => {
  it("follows a pushed commit at the next due poll, once however many processes poll", async () => {
    const remote = makeGitRemote(t.base, "polled", { "app.py": "def first():\n    return 1\n" });
    const repository = await registerGitRepository({ url: remote.bare, branch: "main" });
    await indexRepository(repository.id);
    const scheduled = await setPollSchedule(repository.id, 5);
    expect(scheduled.nextPollAt!.getTime() - Date.now()).toBeGreaterThan(4 * 60_000);

    // Not due yet: nothing happens, even with a new commit on the remote.
    const head = remote.push({ "app.py": "def second_version():\n    return 2\n" });
    expect(await pollDueRepositories(new Date())).toEqual([]);

    // One interval later three pollers (web instances, workers) look at once: one polls.
    const due = new Date(Date.now() + 5 * 60_000 + 1000);
    const reports = (await Promise.all([1, 2, 3].map(() => pollDueRepositories(due)))).flat();
    const mine = reports.filter((r) => r.repositoryId === repository.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ head, error: null, outcome: { queued: true } });
    expect((await getSource(repository.id))?.nextPollAt?.getTime()).toBe(due.getTime() + 5 * 60_000);

    expect(await runQueuedBuilds()).toBe(1);
    expect(await activeCommit(repository.id)).toBe(head);
    const source = await getSource(repository.id);
    expect(source).toMatchObject({ remoteHeadSha: head, pollError: null });

    // The next poll sees nothing new and queues nothing.
    const later = new Date(due.getTime() + 5 * 60_000 + 1000);
    const again = (await pollDueRepositories(later)).filter((r) => r.repositoryId === repository.id);
    expect(again[0]?.outcome).toEqual({ queued: false, reason: "up-to-date" });
  });

  it("records why a poll failed, for the repository card", async () => {
    const remote = makeGitRemote(t.base, "vanishing", { "app.py": "x = 1\n" });
    const repository = await registerGitRepository({ url: remote.bare, branch: "main" });
    await indexRepository(repository.id);
    await setPollSchedule(repository.id, 1);
    fs.rmSync(remote.bare, { recursive: true, force: true });
    const reports = await pollDueRepositories(new Date(Date.now() + 61_000));
    expect(reports.find((r) => r.repositoryId === repository.id)?.error).toMatch(/^Could not reach /);
    expect((await getSource(repository.id))?.pollError).toMatch(/^Could not reach /);
  });
});

describe("one queued build per repository", () => {
  it("queues once for many reported heads, and catches up after a build that fetched an older head", async () => {
    const remote = makeGitRemote(t.base, "burst", { "a.py": "def a0():\n    pass\n" });
    const repository = await registerGitRepository({ url: remote.bare, branch: "main" });
    await indexRepository(repository.id);
    const heads = [1, 2, 3].map((i) => remote.push({ "a.py": `def a${i}():\n    pass\n` }));
    const outcomes = await Promise.all(heads.map((h) => requestBuild(repository.id, h)));
    expect(outcomes.filter((o) => o.queued)).toHaveLength(1);
    expect(outcomes.filter((o) => !o.queued).map((o) => !o.queued && o.reason)).toEqual(
      expect.arrayContaining(["already-queued"]),
    );
    expect((await listGenerations(repository.id, 10)).filter((g) => g.status === "queued")).toHaveLength(1);
    expect(await runQueuedBuilds()).toBe(1);
    expect(await activeCommit(repository.id)).toBe(heads[2]);
    expect(await queueFollowUp(repository.id)).toBeNull();

    // A push reported after the build's fetch: the follow-up catches up.
    const client = await db();
    const late = remote.push({ "a.py": "def a4():\n    pass\n" });
    await client.repository.update({ where: { id: repository.id }, data: { remoteHeadSha: late } });
    expect(await queueFollowUp(repository.id)).toMatchObject({ queued: true });
    expect(await runQueuedBuilds()).toBe(1);
    expect(await activeCommit(repository.id)).toBe(late);
  });
});
