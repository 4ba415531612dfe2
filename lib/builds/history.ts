/**
 * Co-change from the repository's own git history, folded in at index time: which files
 * the same commits changed, so retrieval can bring up the files a change to a top-ranked
 * file usually touches too. A build reads only the commits since the last build's head
 * (O(change)); the first build, or one after history was rewritten, reads the newest
 * `MAX_COMMITS`. Commits that change many files (renames, reformatting, vendoring)
 * relate files that have nothing to do with each other and are left out. A folder that
 * is not a work tree, or a shallow checkout, simply has no history to read.
 */
import "server-only";
import { coChangeHead, foldCoChanges } from "../db/co-change.ts";
import { commitFileLists, isAncestor } from "../sources/git.ts";

/** Newest commits read on a first build (bounds its cost on a long history). */
export const MAX_COMMITS = 2000;
/** Commits changing more files than this say nothing about which belong together. */
export const MAX_FILES_PER_COMMIT = 20;

export interface HistoryStats {
  /** commits folded in by this build (0: nothing new, or no history) */
  commits: number;
  /** whether the counts were rebuilt from scratch */
  rebuilt: boolean;
}

/**
 * Folds the commits up to `head` into the repository's co-change counts. A git failure
 * (no such commit in a shallow checkout, git missing) never fails a build: the counts
 * stay as they were.
 */
export async function foldHistory(
  repositoryId: string,
  root: string,
  head: string | null,
): Promise<HistoryStats> {
  const none = { commits: 0, rebuilt: false };
  if (!head) return none;
  const known = await coChangeHead(repositoryId);
  if (known?.commitSha === head) return none;
  let incremental = false;
  let commits: string[][];
  try {
    const since = known && (await isAncestor(root, known.commitSha, head)) ? known.commitSha : null;
    incremental = since !== null;
    commits = await commitFileLists(root, { head, since, max: MAX_COMMITS });
  } catch {
    return none;
  }
  const related = commits.filter((files) => files.length <= MAX_FILES_PER_COMMIT);
  await foldCoChanges(repositoryId, { commits: related, head, replace: !incremental });
  return { commits: related.length, rebuilt: !incremental };
}
