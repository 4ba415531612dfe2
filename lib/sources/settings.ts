/**
 * A Git source's refresh settings as the admin sees and sets them: the poll schedule
 * and its last outcome, and the push webhook to configure in the forge (its path and
 * this repository's secret).
 */
import "server-only";
import { listRepositories } from "../db/repositories.ts";
import { getSource, setPollSchedule, type SourceRow } from "../db/source-store.ts";
import { WayfinderError } from "../errors.ts";
import { webhookSecret } from "./webhook.ts";

export interface RefreshSettings {
  repositoryId: string;
  name: string;
  source: { kind: "folder" | "git"; url: string | null; branch: string | null };
  pollMinutes: number | null;
  nextPollAt: string | null;
  lastPolledAt: string | null;
  pollError: string | null;
  remoteHead: string | null;
  /** null for folders: only Git sources take pushes */
  webhook: { path: string; secret: string; contentType: "application/json"; events: "push" } | null;
}

async function requireSource(repositoryId: string): Promise<SourceRow> {
  const source = await getSource(repositoryId);
  if (!source) throw new WayfinderError("not_found:repository", "No such repository.");
  return source;
}

function view(source: SourceRow): RefreshSettings {
  const git = source.sourceKind === "git";
  return {
    repositoryId: source.id,
    name: source.name,
    source: { kind: git ? "git" : "folder", url: source.gitUrl, branch: source.gitBranch },
    pollMinutes: source.pollMinutes,
    nextPollAt: source.nextPollAt?.toISOString() ?? null,
    lastPolledAt: source.lastPolledAt?.toISOString() ?? null,
    pollError: source.pollError,
    remoteHead: source.remoteHeadSha,
    webhook: git
      ? {
          path: `/api/repos/${encodeURIComponent(source.id)}/hook`,
          secret: webhookSecret(source.id),
          contentType: "application/json",
          events: "push",
        }
      : null,
  };
}

export async function describeRefresh(repositoryId: string): Promise<RefreshSettings> {
  return view(await requireSource(repositoryId));
}

/** Sets (minutes) or clears (null) the poll schedule of a Git source. */
export async function setRefreshSchedule(
  repositoryId: string,
  minutes: number | null,
): Promise<RefreshSettings> {
  const source = await requireSource(repositoryId);
  if (source.sourceKind !== "git" && minutes !== null) {
    throw new WayfinderError(
      "conflict:not_git",
      `"${source.name}" is a local folder; only repositories added by Git URL can be polled.`,
    );
  }
  return view(await setPollSchedule(repositoryId, minutes));
}

/** Every repository's refresh settings, in the order they were added (the admin page). */
export async function listRefreshSettings(): Promise<RefreshSettings[]> {
  const repositories = await listRepositories();
  const sources = await Promise.all(repositories.map((r) => getSource(r.id)));
  return sources.filter((s): s is SourceRow => s !== null).map(view);
}
