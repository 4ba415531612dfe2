"use client";
/**
 * One repository: its source (a folder, or a Git remote and branch), status (ready /
 * indexing / failed / not indexed), the serving generation with its commit, languages
 * and counts, the files it skipped or indexed as text (with why and what to do) and its
 * file classes, why the last poll of the remote failed if it did, the latest build's
 * progress, and (for those who manage repositories) re-index and remove. A failed
 * re-index keeps the previous generation serving, so both show.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import Link from "next/link";
import { fetchJson } from "@/components/api/fetch-json";
import { formatCount } from "@/components/ui/format";
import type { RepositoryStatus, RepositoryView } from "@/lib/db/ui-queries";
import { CommitRef } from "./commit-ref";
import { FileReport } from "./file-report";
import { IndexProgress } from "./index-progress";

const STATUS: Record<RepositoryStatus, { label: string; tone: string }> = {
  ready: { label: "ready", tone: "ok" },
  indexing: { label: "indexing", tone: "" },
  failed: { label: "failed", tone: "bad" },
  "not-indexed": { label: "not indexed", tone: "warn" },
};

export function RepositoryCard({
  repository,
  canManage,
}: {
  repository: RepositoryView;
  canManage: boolean;
}) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () =>
      fetchJson<null>(`/api/repos/${encodeURIComponent(repository.id)}`, { method: "DELETE" }),
    onSettled: () => {
      setConfirming(false);
      return queryClient.invalidateQueries({ queryKey: ["repositories"] });
    },
  });
  const reindex = useMutation({
    mutationFn: () =>
      fetchJson<{ repository: RepositoryView }>(`/api/repos/${encodeURIComponent(repository.id)}/index`, {
        method: "POST",
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["repositories"] }),
  });
  const { active, build, source } = repository;
  const status = STATUS[repository.status];
  const languages = Object.entries(active?.stats.languages ?? {}).sort((a, b) => b[1] - a[1]);
  const chatHref = `/repos/${encodeURIComponent(repository.id)}`;

  return (
    <li
      className="card repo-card"
      data-testid="repo-card"
      data-repo-id={repository.id}
      data-status={repository.status}
    >
      <div className="repo-card-head">
        <h2 className="repo-name">
          {active ? <Link href={chatHref}>{repository.name}</Link> : repository.name}
        </h2>
        <span className={`badge ${status.tone}`} data-testid="repo-status">
          {status.label}
        </span>
      </div>
      {source.kind === "git" ? (
        <p className="repo-path muted small" data-testid="repo-source">
          {source.url}
          {source.branch ? <> · branch {source.branch}</> : null}
          {source.pollMinutes ? <> · polled every {source.pollMinutes} min</> : null}
        </p>
      ) : (
        <p className="repo-path muted small">{repository.rootPath}</p>
      )}
      {active ? (
        <div className="stat-row" data-testid="repo-stats">
          <span className="badge ok">generation {active.number}</span>
          <CommitRef sha={active.commitSha} testId="repo-commit" />
          <span>{formatCount(active.stats.files, "file")}</span>
          <span>{formatCount(active.stats.symbols, "symbol")}</span>
          <span>{formatCount(active.stats.edges, "edge")}</span>
          <span>{formatCount(active.stats.lines, "line")}</span>
          {languages.length > 0 ? (
            <span data-testid="repo-languages">
              {languages.map(([language, n]) => `${language} ${n}`).join(" · ")}
            </span>
          ) : null}
        </div>
      ) : (
        <p className="small muted">
          {repository.status === "indexing" ? "The first index is being built." : "No finished index yet."}
        </p>
      )}
      {active ? <FileReport report={active.stats.report} /> : null}
      {build ? <IndexProgress build={build} /> : null}
      {source.pollError ? (
        <p className="field-error small" role="alert" data-testid="repo-poll-error">
          Last poll failed: {source.pollError}
        </p>
      ) : null}
      {build?.status === "failed" && build.error ? (
        <p className="field-error small" role="alert" data-testid="repo-error">
          Build {build.number} failed: {build.error}
          {active ? ` Generation ${active.number} keeps serving.` : ""}
        </p>
      ) : null}
      <div className="repo-actions">
        {active ? (
          <>
            <Link className="button" href={chatHref} data-testid="open-chat">
              Ask questions
            </Link>
            <Link className="button secondary" href={`${chatHref}/wiki`} data-testid="open-wiki">
              Wiki
            </Link>
            <Link className="button secondary" href={`${chatHref}/issues`} data-testid="open-issues">
              Issues
            </Link>
          </>
        ) : null}
        {canManage ? (
          <>
            <button
              type="button"
              className="button secondary"
              onClick={() => reindex.mutate()}
              disabled={repository.status === "indexing" || reindex.isPending}
              data-testid="reindex-button"
            >
              {repository.status === "indexing" ? "Indexing…" : active ? "Re-index" : "Index again"}
            </button>
            <button
              type="button"
              className="button secondary"
              onClick={() => (confirming ? remove.mutate() : setConfirming(true))}
              onBlur={() => setConfirming(false)}
              disabled={repository.status === "indexing" || remove.isPending}
              data-testid="remove-button"
            >
              {remove.isPending ? "Removing…" : confirming ? "Click again to remove" : "Remove"}
            </button>
          </>
        ) : null}
      </div>
      {reindex.isError || remove.isError ? (
        <p className="field-error small" role="alert">
          {(reindex.error ?? remove.error)?.message}
        </p>
      ) : null}
    </li>
  );
}
