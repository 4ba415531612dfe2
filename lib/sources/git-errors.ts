/**
 * What a failure to reach a Git remote says to whom. git's own reason ("Failed to
 * connect to 10.0.3.7 port 22", a DNS name, a proxy's answer) maps the server's network,
 * so admins (and the one person of open mode) see it, and readers see only that the
 * remote could not be reached. The full message is what is stored (build errors, poll
 * errors); readers' views are rewritten on the way out.
 */
import type { RepositoryView } from "../db/ui-queries.ts";

export const REMOTE_UNREACHABLE = "The remote could not be reached.";
const UNREACHABLE_PREFIX = "Could not reach ";

/** The stored message of an unreachable remote: the URL (no credentials) and git's reason. */
export function unreachableMessage(url: string, reason: string): string {
  return `${UNREACHABLE_PREFIX}${url}: ${reason}`;
}

/** A stored build or poll error as a reader may see it. */
export function readerGitMessage(message: string): string;
export function readerGitMessage(message: string | null): string | null;
export function readerGitMessage(message: string | null): string | null {
  return message?.startsWith(UNREACHABLE_PREFIX) ? REMOTE_UNREACHABLE : message;
}

/** A repository as the caller may see it: git's reasons only for those who see them (`full`). */
export function repositoryViewFor<T extends Pick<RepositoryView, "source" | "build">>(
  view: T,
  full: boolean,
): T {
  if (full) return view;
  return {
    ...view,
    source: { ...view.source, pollError: readerGitMessage(view.source.pollError) },
    build: view.build ? { ...view.build, error: readerGitMessage(view.build.error) } : null,
  };
}
