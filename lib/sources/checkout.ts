/**
 * Repositories whose content comes from a Git remote: registering one (the URL cleaned
 * of credentials, checked like a folder when it points at this machine), and, at the
 * start of every build, the checkout the indexer reads — the branch head fetched into
 * WAYFINDER_HOME/sources/<id> — with the commit it holds. Folder repositories are read
 * where they are; their commit is the work tree's HEAD when it is a git repository.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { WayfinderError } from "../errors.ts";
import { createRepository, type RepositoryRow } from "../db/repositories.ts";
import { findGitSource, recordCheckout } from "../db/source-store.ts";
import { assertBranchName, parseGitRemote } from "./git-url.ts";
import { checkoutDir, localHeadCommit, syncCheckout } from "./git.ts";

export interface GitSourceInput {
  url: string;
  branch?: string | null;
  name?: string;
}

/** A repository's display name from its remote: the last path segment without `.git`. */
export function nameFromUrl(url: string): string {
  const last =
    url
      .replace(/[/:]+$/, "")
      .split(/[/:]/)
      .pop() ?? "";
  return last.replace(/\.git$/i, "").replace(/[^A-Za-z0-9._ -]/g, "-") || "repository";
}

/**
 * Registers a Git-sourced repository (no build yet). `checkLocal` applies the rules of
 * local folders to a remote on this machine (file:// or a path), e.g. WAYFINDER_REPO_ROOTS.
 */
export async function registerGitRepository(
  input: GitSourceInput,
  checkLocal: (realPath: string) => void = () => undefined,
): Promise<RepositoryRow> {
  const remote = parseGitRemote(input.url);
  const branch = input.branch ? assertBranchName(input.branch) : null;
  if (remote.localPath) {
    let real: string;
    try {
      real = fs.realpathSync(remote.localPath);
    } catch {
      throw new WayfinderError(
        "bad_request:git_url",
        `No such repository on this server: ${remote.localPath}`,
      );
    }
    checkLocal(real);
  }
  const existing = await findGitSource(remote.url, branch);
  if (existing) {
    throw new WayfinderError(
      "conflict:repo_source",
      `${remote.url}${branch ? ` (${branch})` : ""} is already added as "${existing.name}".`,
    );
  }
  const id = randomUUID().slice(0, 12);
  return createRepository({
    name: input.name?.trim() || nameFromUrl(remote.url),
    rootPath: checkoutDir(id),
    git: { id, url: remote.url, branch },
  });
}

export interface Checkout {
  /** the folder the build reads */
  root: string;
  commitSha: string | null;
}

/**
 * The folder a build of this repository reads, made current first for Git sources,
 * and the commit it holds (recorded on the generation). Throws the git failure (an
 * unreachable remote, a missing branch) with a message fit for the repository card.
 */
export async function prepareCheckout(repository: RepositoryRow, generationId: string): Promise<Checkout> {
  if (repository.sourceKind === "git" && repository.gitUrl) {
    const dir = checkoutDir(repository.id);
    const head = await syncCheckout({ url: repository.gitUrl, branch: repository.gitBranch ?? null, dir });
    await recordCheckout(generationId, {
      commitSha: head.sha,
      git: { repositoryId: repository.id, branch: head.branch },
    });
    return { root: fs.realpathSync(dir), commitSha: head.sha };
  }
  const commitSha = await localHeadCommit(repository.rootPath);
  await recordCheckout(generationId, { commitSha });
  return { root: repository.rootPath, commitSha };
}
