"use client";
/**
 * Golden questions of one repository: add (question, optional mode, files the
 * answer must cite), run all or one on demand, delete; each with its latest result
 * and a pass/fail sparkline of its history. Runs happen in the background on the
 * server; while one is going the list is polled every second.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, useSyncExternalStore, type FormEvent } from "react";
import type { GoldenListView, GoldenQuestionView } from "@/lib/admin/golden";
import { QUERY_MODE_LIST } from "@/lib/qa/types";
import { AdminApiError, adminFetch, adminKeys, fieldErrorMap } from "./admin-api";
import { PassFailSparkline } from "./charts/pass-fail-sparkline";
import { formatLatency } from "./charts/scale";

const WHEN = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hour12: false,
  timeZone: "UTC",
});

export function GoldenQuestions({ initial }: { initial: GoldenListView }) {
  const queryClient = useQueryClient();
  const [repositoryId, setRepositoryId] = useState(initial.repositoryId);
  const ids = useId();
  const { data = initial } = useQuery({
    queryKey: adminKeys.golden(repositoryId),
    queryFn: () =>
      adminFetch<GoldenListView>(
        `/api/admin/golden${repositoryId ? `?repositoryId=${encodeURIComponent(repositoryId)}` : ""}`,
      ),
    initialData: repositoryId === initial.repositoryId ? initial : undefined,
    refetchInterval: (query) => (query.state.data?.running ? 1000 : false),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminKeys.golden(repositoryId) });
  const run = useMutation({
    mutationFn: (questionId?: string) =>
      adminFetch("/api/admin/golden/run", {
        method: "POST",
        body: { repositoryId, ...(questionId ? { questionId } : {}) },
      }),
    onSuccess: refresh,
  });
  const repository = data.repositories.find((r) => r.id === data.repositoryId);

  if (!data.repositories.length) {
    return (
      <p className="card muted" data-testid="golden-no-repos">
        Add and index a repository first; golden questions belong to a repository.
      </p>
    );
  }

  return (
    <div className="golden" data-testid="golden" data-running={data.running}>
      <div className="admin-toolbar">
        <label className="field-inline" htmlFor={`${ids}-repo`}>
          Repository
          <select
            id={`${ids}-repo`}
            value={data.repositoryId ?? ""}
            onChange={(e) => setRepositoryId(e.target.value)}
            data-testid="golden-repository"
          >
            {data.repositories.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
                {r.indexed ? "" : " (not indexed)"}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button"
          disabled={data.running || run.isPending || !data.questions.length || !repository?.indexed}
          onClick={() => run.mutate(undefined)}
          data-testid="golden-run-all"
        >
          {data.running ? "Running…" : "Run all now"}
        </button>
        <span className="small muted" role="status" data-testid="golden-status">
          {data.running
            ? "Asking the golden questions…"
            : run.error
              ? (run.error as Error).message
              : "They also run after every successful re-index."}
        </span>
      </div>

      {data.questions.length ? (
        <ul className="golden-list plain-list" data-testid="golden-list">
          {data.questions.map((q) => (
            <GoldenItem
              key={q.id}
              question={q}
              running={data.running}
              onRun={() => run.mutate(q.id)}
              onDeleted={refresh}
            />
          ))}
        </ul>
      ) : (
        <p className="card muted" data-testid="golden-empty">
          No golden questions for {repository?.name ?? "this repository"} yet. Add one below: a question and
          the files a good answer must cite.
        </p>
      )}

      {data.repositoryId ? <AddGoldenForm repositoryId={data.repositoryId} onAdded={refresh} /> : null}
    </div>
  );
}

function GoldenItem(props: {
  question: GoldenQuestionView;
  running: boolean;
  onRun: () => void;
  onDeleted: () => void;
}) {
  const q = props.question;
  const last = q.runs[0];
  const [confirm, setConfirm] = useState(false);
  const remove = useMutation({
    mutationFn: () => adminFetch(`/api/admin/golden/${encodeURIComponent(q.id)}`, { method: "DELETE" }),
    onSuccess: props.onDeleted,
  });
  return (
    <li
      className="card golden-item"
      data-testid="golden-question"
      data-status={last ? (last.passed ? "pass" : "fail") : "none"}
    >
      <div className="golden-head">
        <p className="golden-question">{q.question}</p>
        <div className="golden-result">
          {last ? (
            <span className={`badge ${last.passed ? "ok" : "bad"}`} data-testid="golden-last">
              {last.passed ? "pass" : "fail"}
            </span>
          ) : (
            <span className="badge" data-testid="golden-last">
              not run
            </span>
          )}
          <PassFailSparkline runs={q.runs} />
        </div>
      </div>
      <p className="small muted">
        {q.mode ? <span className="badge mode">{q.mode}</span> : "mode from the classifier"} · must cite{" "}
        {q.expectedFiles.map((f, i) => (
          <span key={f}>
            {i ? ", " : ""}
            <code>{f}</code>
          </span>
        ))}
      </p>
      {last ? (
        <div className="small golden-last-run">
          <span>
            Last run {WHEN.format(new Date(last.createdAt))} UTC (
            {last.trigger === "reindex" ? "after re-index" : "on demand"}, {formatLatency(last.durationMs)}).
          </span>{" "}
          {last.error ? (
            <span className="field-error">Error: {last.error}</span>
          ) : last.missingFiles.length ? (
            <span data-testid="golden-missing">
              Missing:{" "}
              {last.missingFiles.map((f, i) => (
                <span key={f}>
                  {i ? ", " : ""}
                  <code>{f}</code>
                </span>
              ))}
            </span>
          ) : (
            <span>Every expected file was cited.</span>
          )}
        </div>
      ) : null}
      {q.runs.length ? (
        <details className="small">
          <summary>History ({q.runs.length})</summary>
          <div className="table-scroll">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">When (UTC)</th>
                  <th scope="col">Result</th>
                  <th scope="col">Trigger</th>
                  <th scope="col">Cited</th>
                  <th scope="col">Missing</th>
                  <th scope="col" className="num">
                    Time
                  </th>
                </tr>
              </thead>
              <tbody>
                {q.runs.map((r) => (
                  <tr key={r.id}>
                    <td className="nowrap">{WHEN.format(new Date(r.createdAt))}</td>
                    <td>{r.error ? "error" : r.passed ? "pass" : "fail"}</td>
                    <td>{r.trigger}</td>
                    <td>{r.citedFiles.join(", ") || "—"}</td>
                    <td>{r.missingFiles.join(", ") || "—"}</td>
                    <td className="num nowrap">{formatLatency(r.durationMs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      ) : null}
      <div className="golden-actions">
        <button
          type="button"
          className="button secondary"
          onClick={props.onRun}
          disabled={props.running}
          data-testid="golden-run-one"
        >
          Run
        </button>
        {confirm ? (
          <>
            <button
              type="button"
              className="button danger"
              onClick={() => remove.mutate()}
              data-testid="golden-delete-confirm"
            >
              Delete with history
            </button>
            <button type="button" className="button secondary" onClick={() => setConfirm(false)}>
              Keep
            </button>
          </>
        ) : (
          <button
            type="button"
            className="button secondary"
            onClick={() => setConfirm(true)}
            data-testid="golden-delete"
          >
            Delete…
          </button>
        )}
      </div>
    </li>
  );
}

const noSubscription = () => () => {};
const hydrated = () => true;
const notHydrated = () => false;

function AddGoldenForm({ repositoryId, onAdded }: { repositoryId: string; onAdded: () => void }) {
  const ids = useId();
  const [question, setQuestion] = useState("");
  const [mode, setMode] = useState("");
  const [files, setFiles] = useState("");
  // Typing into the form before it is hydrated is lost to React's state: say when it listens
  // (false in the server's HTML and while hydrating, true once the client renders).
  const ready = useSyncExternalStore(noSubscription, hydrated, notHydrated);
  const add = useMutation({
    mutationFn: () =>
      adminFetch("/api/admin/golden", {
        method: "POST",
        body: {
          repositoryId,
          question,
          mode: mode || null,
          expectedFiles: files
            .split(/[\n,]+/)
            .map((f) => f.trim())
            .filter(Boolean),
        },
      }),
    onSuccess: () => {
      setQuestion("");
      setFiles("");
      setMode("");
      onAdded();
    },
  });
  const errors = fieldErrorMap(add.error);
  const message = add.error instanceof AdminApiError && !add.error.fields.length ? add.error.message : null;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate();
  };
  return (
    <form
      className="card golden-form"
      onSubmit={onSubmit}
      noValidate
      data-testid="golden-form"
      data-ready={ready}
    >
      <h2>Add a golden question</h2>
      <div className="field">
        <label htmlFor={`${ids}-q`}>Question</label>
        <textarea
          id={`${ids}-q`}
          rows={2}
          value={question}
          onChange={(e) => setQuestion(e.target.value)}
          data-testid="golden-question-input"
          placeholder="Why do I get PaymentDeclined when placing an order?"
        />
      </div>
      <div className="golden-form-row">
        <div className="field">
          <label htmlFor={`${ids}-mode`}>Mode</label>
          <select
            id={`${ids}-mode`}
            value={mode}
            onChange={(e) => setMode(e.target.value)}
            data-testid="golden-mode-input"
          >
            <option value="">Let the classifier decide</option>
            {QUERY_MODE_LIST.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </div>
        <div className="field grow">
          <label htmlFor={`${ids}-files`}>Files the answer must cite (one per line)</label>
          <textarea
            id={`${ids}-files`}
            rows={2}
            value={files}
            onChange={(e) => setFiles(e.target.value)}
            aria-invalid={errors.has("expectedFiles") ? true : undefined}
            aria-describedby={errors.has("expectedFiles") ? `${ids}-files-error` : undefined}
            data-testid="golden-files-input"
            placeholder="shop/payments.py"
            spellCheck={false}
          />
          {errors.has("expectedFiles") ? (
            <p id={`${ids}-files-error`} className="field-error small" data-testid="golden-files-error">
              {errors.get("expectedFiles")}
            </p>
          ) : null}
        </div>
      </div>
      {message ? (
        <p className="field-error small" role="alert">
          {message}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={add.isPending} data-testid="golden-add">
        {add.isPending ? "Adding…" : "Add question"}
      </button>
    </form>
  );
}
