/**
 * A real Git remote for tests: a bare repository in a temporary folder and a work
 * clone that commits and pushes to it, as a developer would.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { childProcessEnv } from "../lib/env.ts";
import type { FileTree } from "./temp-env.ts";

export interface GitRemoteFixture {
  /** absolute path of the bare repository (what `git clone` takes) */
  bare: string;
  /** commits these files (written over the work tree; null deletes) and pushes; returns the new head */
  push(files: Record<string, string | null>, message?: string, branch?: string): string;
  head(branch?: string): string;
}

const GIT_ENV = childProcessEnv({
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.invalid",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.invalid",
  GIT_CONFIG_NOSYSTEM: "1",
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8" }).trim();
}

export function makeGitRemote(
  base: string,
  name: string,
  initial: FileTree,
  branch = "main",
): GitRemoteFixture {
  const bare = path.join(base, `${name}.git`);
  const work = path.join(base, `${name}-work`);
  fs.mkdirSync(bare, { recursive: true });
  git(bare, "init", "--quiet", "--bare", `--initial-branch=${branch}`);
  fs.mkdirSync(work, { recursive: true });
  git(work, "init", "--quiet", `--initial-branch=${branch}`);
  git(work, "remote", "add", "origin", bare);
  const push = (files: Record<string, string | Buffer | null>, message = "change", target = branch) => {
    const current = git(work, "symbolic-ref", "--short", "HEAD");
    if (current !== target) {
      const exists = git(work, "branch", "--list", target) !== "";
      git(work, "checkout", "--quiet", ...(exists ? [target] : ["-b", target]));
    }
    for (const [relative, content] of Object.entries(files)) {
      const file = path.join(work, relative);
      if (content === null) fs.rmSync(file, { force: true });
      else {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, content);
      }
    }
    git(work, "add", "--all");
    git(work, "commit", "--quiet", "--allow-empty", "-m", message);
    git(work, "push", "--quiet", "origin", `HEAD:refs/heads/${target}`);
    return git(work, "rev-parse", "HEAD");
  };
  push(initial, "initial");
  return { bare, push, head: (b = branch) => git(bare, "rev-parse", `refs/heads/${b}`) };
}
