/**
 * Co-change from a real git history: which files the same commits changed, folded in
 * once and then only from the commits since the last fold, large commits left out.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexFixture, setupQaHome } from "../../test-support/qa-env.ts";
import { partnersOf } from "../qa/retrievers/partners.ts";
import { coChangeHead, coChangesOf } from "../db/co-change.ts";
import { foldHistory, MAX_FILES_PER_COMMIT } from "./history.ts";

let cleanup: () => Promise<void>;
let repo: string;

function git(...args: string[]): string {
  return execFileSync("git", ["-C", repo, ...args], {
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
    },
  }).trim();
}

/** Writes the files (a new line each time) and commits them. */
function commit(files: string[], message: string): string {
  for (const file of files) {
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    writeFileSync(path.join(repo, file), `${message}\n`, { flag: "a" });
  }
  git("add", "-A");
  git("commit", "-q", "-m", message);
  return git("rev-parse", "HEAD");
}

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-history-"));
  repo = mkdtempSync(path.join(os.tmpdir(), "wf-history-repo-"));
  git("init", "-q");
});
afterAll(async () => {
  await cleanup();
  rmSync(repo, { recursive: true, force: true });
});

describe("foldHistory", () => {
  it("counts files changed together, leaving out commits that touch many files", async () => {
    commit(["rest/engine.go", "rest/server.go"], "engine and server");
    commit(["rest/engine.go", "rest/server.go", "rest/types.go"], "routes");
    commit(["rest/engine.go"], "engine alone");
    const many = Array.from({ length: MAX_FILES_PER_COMMIT + 1 }, (_, i) => `gen/file${i}.go`);
    const head = commit([...many, "rest/engine.go"], "regenerate everything");

    const stats = await foldHistory("repo-1", repo, head);
    expect(stats).toEqual({ commits: 3, rebuilt: true });
    const rows = (await coChangesOf("repo-1", ["rest/engine.go"], 1)).get("rest/engine.go") ?? [];
    expect(rows.map((r) => [r.partner, r.count, r.changes])).toEqual([
      ["rest/server.go", 2, 3],
      ["rest/types.go", 1, 3],
    ]);
    expect(await coChangeHead("repo-1")).toEqual({ commitSha: head, commits: 3 });
  });

  it("reads only the commits since the last fold, and nothing when the head has not moved", async () => {
    const before = git("rev-parse", "HEAD");
    expect(await foldHistory("repo-1", repo, before)).toEqual({ commits: 0, rebuilt: false });
    const head = commit(["rest/engine.go", "rest/server.go"], "fix start");
    expect(await foldHistory("repo-1", repo, head)).toEqual({ commits: 1, rebuilt: false });
    const rows = (await coChangesOf("repo-1", ["rest/server.go"])).get("rest/server.go") ?? [];
    expect(rows[0]).toMatchObject({ partner: "rest/engine.go", count: 3, changes: 3 });
    expect((await coChangeHead("repo-1"))?.commits).toBe(4);
  });

  it("starts over when the history was rewritten", async () => {
    git("reset", "-q", "--hard", "HEAD~2");
    const head = commit(["rest/types.go", "rest/server.go"], "rewritten");
    const stats = await foldHistory("repo-1", repo, head);
    expect(stats.rebuilt).toBe(true);
    const rows = (await coChangesOf("repo-1", ["rest/types.go"], 1)).get("rest/types.go") ?? [];
    expect(rows.map((r) => [r.partner, r.count])).toEqual([
      ["rest/server.go", 2],
      ["rest/engine.go", 1],
    ]);
  });

  it("folds nothing for a folder without history", async () => {
    const plain = mkdtempSync(path.join(os.tmpdir(), "wf-history-plain-"));
    expect(await foldHistory("repo-2", plain, null)).toEqual({ commits: 0, rebuilt: false });
    expect(await foldHistory("repo-2", plain, "0123456789abcdef0123456789abcdef01234567")).toEqual({
      commits: 0,
      rebuilt: false,
    });
    expect(await coChangeHead("repo-2")).toBeNull();
    rmSync(plain, { recursive: true, force: true });
  });
});

describe("co-change partners of an indexed repository", () => {
  it("are folded in by the build and read by retrieval: code only", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "wf-history-index-"));
    const previous = repo;
    repo = dir;
    try {
      git("init", "-q");
      for (const [i, files] of [
        ["billing/invoice.py", "billing/tax.py", "NOTES.md"],
        ["billing/invoice.py", "billing/tax.py"],
        ["billing/invoice.py", "billing/tax.py", "NOTES.md"],
        ["billing/refund.py"],
      ].entries())
        commit(files as string[], `def change_${i}():\n    return ${i}\n`);
      const fixture = await indexFixture(dir, "billing");
      const partners = (
        await partnersOf(fixture.generationId, fixture.repositoryId, ["billing/invoice.py"], async () => null)
      ).get("billing/invoice.py");
      expect(partners?.map((p) => p.path)).toEqual(["billing/tax.py"]);
      expect(partners?.[0]?.why).toBe("changed together in 3 commits");
    } finally {
      repo = previous;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
