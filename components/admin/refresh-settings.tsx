"use client";
/**
 * Refresh settings per repository: the poll interval of a Git source (minutes, or off)
 * with the last poll's outcome, and the push webhook to configure in GitHub, GitLab or
 * Gitea (URL, secret shown on request, content type, event). Folders are listed with
 * a note: they are re-indexed by hand.
 */
import { useMutation } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import type { RefreshSettings } from "@/lib/sources/settings";
import { adminFetch } from "./admin-api";

/** `origin`: this server as the browser reached it, so the webhook URL can be copied whole. */
export function RefreshSettingsList({ initial, origin }: { initial: RefreshSettings[]; origin: string }) {
  if (initial.length === 0) {
    return (
      <p className="card muted" data-testid="sources-empty">
        No repositories yet. Add one by Git URL on the repositories page.
      </p>
    );
  }
  return (
    <ul className="plain-list sources" data-testid="sources">
      {initial.map((settings) => (
        <RefreshSettingsRow key={settings.repositoryId} initial={settings} origin={origin} />
      ))}
    </ul>
  );
}

function RefreshSettingsRow({ initial, origin }: { initial: RefreshSettings; origin: string }) {
  const ids = useId();
  const [settings, setSettings] = useState(initial);
  const [minutes, setMinutes] = useState(initial.pollMinutes ? String(initial.pollMinutes) : "");
  const [showSecret, setShowSecret] = useState(false);
  const save = useMutation({
    mutationFn: (pollMinutes: number | null) =>
      adminFetch<RefreshSettings>(`/api/repos/${encodeURIComponent(settings.repositoryId)}/schedule`, {
        method: "PUT",
        body: { pollMinutes },
      }),
    onSuccess: (next) => {
      setSettings(next);
      setMinutes(next.pollMinutes ? String(next.pollMinutes) : "");
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(minutes.trim() === "" ? null : Number(minutes));
  };
  const hookUrl = settings.webhook ? `${origin}${settings.webhook.path}` : "";

  return (
    <li className="card" data-testid="source-row" data-repo-id={settings.repositoryId}>
      <h2 className="card-title">{settings.name}</h2>
      {settings.source.kind === "folder" ? (
        <p className="muted small">A local folder: re-indexed by hand from the repositories page.</p>
      ) : (
        <>
          <p className="muted small" data-testid="source-remote">
            {settings.source.url} · branch {settings.source.branch ?? "(the remote's default)"}
          </p>
          <form className="admin-toolbar" onSubmit={submit} noValidate>
            <label className="field-inline" htmlFor={`${ids}-minutes`}>
              Poll every
              <input
                id={`${ids}-minutes`}
                type="number"
                min={1}
                step={1}
                inputMode="numeric"
                placeholder="off"
                value={minutes}
                onChange={(e) => setMinutes(e.target.value)}
                data-testid="poll-minutes"
                style={{ width: "6em" }}
              />
              minutes
            </label>
            <button type="submit" className="button" disabled={save.isPending} data-testid="poll-save">
              {save.isPending ? "Saving…" : "Save"}
            </button>
            {settings.pollMinutes ? (
              <button
                type="button"
                className="button secondary"
                onClick={() => save.mutate(null)}
                data-testid="poll-off"
              >
                Stop polling
              </button>
            ) : null}
          </form>
          {save.isError ? (
            <p className="field-error small" role="alert" data-testid="poll-error-message">
              {save.error.message}
            </p>
          ) : null}
          <p className="small" data-testid="poll-status">
            {settings.pollMinutes
              ? `Polled every ${settings.pollMinutes} min; next ${formatTime(settings.nextPollAt)}; last ${formatTime(settings.lastPolledAt)}.`
              : "Not polled."}
            {settings.pollError ? (
              <span className="field-error"> Last poll failed: {settings.pollError}</span>
            ) : null}
          </p>
          {settings.webhook ? (
            <dl className="webhook small" data-testid="webhook">
              <dt>Push webhook URL</dt>
              <dd>
                <code data-testid="webhook-url">{hookUrl}</code>
              </dd>
              <dt>Secret</dt>
              <dd>
                {showSecret ? (
                  <code data-testid="webhook-secret">{settings.webhook.secret}</code>
                ) : (
                  <button type="button" className="button secondary" onClick={() => setShowSecret(true)}>
                    Show secret
                  </button>
                )}
              </dd>
              <dt>Content type · events</dt>
              <dd>
                {settings.webhook.contentType} · {settings.webhook.events}
              </dd>
            </dl>
          ) : null}
        </>
      )}
    </li>
  );
}

function formatTime(iso: string | null): string {
  return iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "never";
}
