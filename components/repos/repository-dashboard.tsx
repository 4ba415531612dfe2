"use client";
/**
 * The repositories page body: the add form (for those who manage repositories) and
 * the grid of repositories. The list starts from the server render and is polled from
 * GET /api/repos quickly while a build runs, slowly while a repository follows a Git
 * remote (a poll or a push may start a build at any time), and not at all otherwise.
 */
import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/components/api/fetch-json";
import type { RepositoryView } from "@/lib/db/ui-queries";
import { AddRepositoryForm } from "./add-repository-form";
import { RepositoryCard } from "./repository-card";

const POLL_MS = 700;
const FOLLOW_MS = 5000;

export function RepositoryDashboard({
  initial,
  canManage,
}: {
  initial: RepositoryView[];
  canManage: boolean;
}) {
  const { data: repositories = initial, isError } = useQuery({
    queryKey: ["repositories"],
    queryFn: async () => (await fetchJson<{ repositories: RepositoryView[] }>("/api/repos")).repositories,
    initialData: initial,
    refetchInterval: (query) => {
      const list = query.state.data ?? [];
      if (list.some((r) => r.status === "indexing")) return POLL_MS;
      return list.some((r) => r.source.kind === "git") ? FOLLOW_MS : false;
    },
  });

  return (
    <>
      {canManage ? (
        <AddRepositoryForm />
      ) : (
        <p className="small muted" data-testid="manage-note">
          Admins add, re-index and remove repositories on this server.
        </p>
      )}
      {isError ? (
        <p className="field-error small" role="alert">
          Live progress is unavailable right now; the list may be out of date.
        </p>
      ) : null}
      {repositories.length === 0 ? (
        <div className="card empty" data-testid="repos-empty">
          <h2>No repository yet</h2>
          <p className="muted">
            {canManage ? "Add a local folder above." : "An admin adds the first one."} Wayfinder indexes its
            code (functions, classes, calls, error messages) so you can ask questions with cited answers.
          </p>
        </div>
      ) : (
        <ul className="repo-grid" data-testid="repo-list">
          {repositories.map((repository) => (
            <RepositoryCard key={repository.id} repository={repository} canManage={canManage} />
          ))}
        </ul>
      )}
    </>
  );
}
