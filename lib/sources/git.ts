/**
 * Git as a source of repository content: the remote's branch head (`git ls-remote`,
 * which needs no local clone, so any web instance or worker can poll), and a checkout
 * of that head under WAYFINDER_HOME/sources/<repository id> that the indexer reads
 * like any folder. The checkout is shallow (depth 1): builds compare file contents,
 * not history. Every git call has a timeout, never prompts, and reports failures
 * with credentials removed from the message.
 */
import "server-only";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { env, gitProcessEnv } from "../env.ts";
import { WayfinderError } from "../errors.ts";
import { unreachableMessage } from "./git-errors.ts";
import { redactCredentials } from "./git-url.ts";

export interface RemoteHead {
  branch: string;
  sha: string;
}

/** Where Wayfinder keeps its checkout of a Git-sourced repository. */
export function checkoutDir(repositoryId: string): string {
  return path.join(env().home, "sources", repositoryId);
}

interface GitResult {
  stdout: string;
  stderr: string;
}

/** git's own explanation: the `fatal:`/`error:` lines of its output, else its last line. */
function gitReason(stderr: string): string {
  const lines = redactCredentials(stderr)
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const fatal = lines
    .filter((l) => /^(fatal|error):/i.test(l))
    .map((l) => l.replace(/^(fatal|error):\s*/i, ""));
  return (fatal.length ? fatal.join("; ") : (lines.at(-1) ?? "git failed")).slice(0, 500);
}

function runGit(args: string[], options: { cwd?: string; timeoutMs?: number } = {}): Promise<GitResult> {
  const timeout = options.timeoutMs ?? env().WAYFINDER_GIT_TIMEOUT_SECONDS * 1000;
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      ["-c", "protocol.ext.allow=never", ...args],
      { cwd: options.cwd, env: gitProcessEnv(), timeout, maxBuffer: 16 * 1024 * 1024, killSignal: "SIGKILL" },
      (error, stdout, stderr) => {
        if (!error) return resolve({ stdout, stderr });
        const timedOut = (error as { killed?: boolean }).killed === true;
        const reason = timedOut
          ? `no answer within ${Math.round(timeout / 1000)} s`
          : gitReason(stderr || error.message);
        reject(Object.assign(new Error(reason), { timedOut }));
      },
    );
  });
}

const unreachable = (url: string, reason: string) =>
  new WayfinderError("unavailable:git_remote", unreachableMessage(redactCredentials(url), reason));

/**
 * The remote's branch head. With no branch given, the remote's default branch (what
 * its HEAD points at). Errors: unreachable remote (`unavailable:git_remote`), missing
 * branch (`not_found:git_branch`).
 */
export async function remoteHead(url: string, branch: string | null): Promise<RemoteHead> {
  let out: GitResult;
  try {
    out = await runGit([
      "ls-remote",
      "--symref",
      "--",
      url,
      "HEAD",
      branch ? `refs/heads/${branch}` : "refs/heads/*",
    ]);
  } catch (error) {
    throw unreachable(url, (error as Error).message);
  }
  const refs = new Map<string, string>();
  let headBranch: string | null = null;
  for (const line of out.stdout.split("\n")) {
    const symref = /^ref: refs\/heads\/(\S+)\tHEAD$/.exec(line);
    if (symref) headBranch = symref[1] ?? null;
    const ref = /^([0-9a-f]{40,64})\t(\S+)$/.exec(line);
    if (ref) refs.set(ref[2]!, ref[1]!);
  }
  // No symref (older servers, bundles): the branch whose head HEAD points at, main/master first.
  const headSha = refs.get("HEAD");
  if (!branch && !headBranch && headSha) {
    const candidates = [...refs].filter(([ref, sha]) => ref.startsWith("refs/heads/") && sha === headSha);
    candidates.sort(([a], [b]) => Number(!/\/(main|master)$/.test(a)) - Number(!/\/(main|master)$/.test(b)));
    headBranch = candidates[0]?.[0].slice("refs/heads/".length) ?? null;
  }
  const name = branch ?? headBranch;
  if (!name) {
    throw new WayfinderError(
      "not_found:git_branch",
      `${redactCredentials(url)} has no default branch; name the branch to follow.`,
    );
  }
  const sha = refs.get(`refs/heads/${name}`) ?? (branch === null ? refs.get("HEAD") : undefined);
  if (!sha)
    throw new WayfinderError("not_found:git_branch", `${redactCredentials(url)} has no branch "${name}".`);
  return { branch: name, sha };
}

/**
 * Brings the checkout to the remote branch's current head: fetch that one commit
 * (shallow), check it out, and remove anything else in the work tree, so the folder
 * holds exactly the commit's files. Returns the branch and commit checked out.
 */
export async function syncCheckout(input: {
  url: string;
  branch: string | null;
  dir: string;
}): Promise<RemoteHead> {
  const branch = input.branch ?? (await remoteHead(input.url, null)).branch;
  fs.mkdirSync(input.dir, { recursive: true });
  if (!fs.existsSync(path.join(input.dir, ".git"))) await runGit(["init", "--quiet"], { cwd: input.dir });
  try {
    await runGit(
      [
        "fetch",
        "--quiet",
        "--depth=1",
        "--no-tags",
        "--",
        input.url,
        `+refs/heads/${branch}:refs/wayfinder/head`,
      ],
      { cwd: input.dir },
    );
  } catch (error) {
    const reason = (error as Error).message;
    if (/couldn't find remote ref/i.test(reason)) {
      throw new WayfinderError(
        "not_found:git_branch",
        `${redactCredentials(input.url)} has no branch "${branch}".`,
      );
    }
    throw unreachable(input.url, reason);
  }
  await runGit(["checkout", "--quiet", "--force", "--detach", "refs/wayfinder/head"], { cwd: input.dir });
  await runGit(["clean", "-ffdxq"], { cwd: input.dir });
  const sha = (await runGit(["rev-parse", "HEAD"], { cwd: input.dir })).stdout.trim();
  return { branch, sha };
}

/** HEAD of a local work tree (null when the folder is not a git repository or has no commit). */
export async function localHeadCommit(root: string): Promise<string | null> {
  if (!fs.existsSync(path.join(root, ".git"))) return null;
  try {
    const sha = (
      await runGit(["rev-parse", "--verify", "--quiet", "HEAD"], { cwd: root, timeoutMs: 10_000 })
    ).stdout.trim();
    return /^[0-9a-f]{40,64}$/.test(sha) ? sha : null;
  } catch {
    return null;
  }
}

/**
 * The files each commit changed, newest first: the commits reachable from `head` and
 * not from `since` (all when null), merges left out, at most `max` of them. Paths are
 * relative to `root` and limited to it (`root` may be a folder inside a work tree).
 */
export async function commitFileLists(
  root: string,
  options: { head: string; since: string | null; max: number },
): Promise<string[][]> {
  const range = options.since ? [options.head, `^${options.since}`] : [options.head];
  const { stdout } = await runGit(
    [
      "log",
      "--no-merges",
      "--relative",
      "--name-only",
      "--format=%x00",
      `--max-count=${options.max}`,
      ...range,
      "--",
    ],
    { cwd: root, timeoutMs: 60_000 },
  );
  return stdout
    .split("\0")
    .map((block) => block.split("\n").filter((line) => line.trim() !== ""))
    .filter((files) => files.length > 0);
}

/** Whether `ancestor` is an ancestor of `commit` in the repository at `root` (false when either is unknown). */
export async function isAncestor(root: string, ancestor: string, commit: string): Promise<boolean> {
  try {
    await runGit(["merge-base", "--is-ancestor", ancestor, commit], { cwd: root, timeoutMs: 30_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a local path is a repository to clone rather than a work tree to index: a
 * bare repository, or a git bundle file.
 */
export function isBareRepository(folder: string): boolean {
  if (folder.endsWith(".bundle") && fs.statSync(folder, { throwIfNoEntry: false })?.isFile()) return true;
  return (
    fs.existsSync(path.join(folder, "HEAD")) &&
    fs.existsSync(path.join(folder, "objects")) &&
    fs.existsSync(path.join(folder, "refs")) &&
    !fs.existsSync(path.join(folder, ".git"))
  );
}
