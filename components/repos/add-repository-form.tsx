"use client";
/**
 * Adds a repository — a local folder, or a Git remote and branch — (POST /api/repos)
 * and starts its first index. The server's errors land next to the field they are
 * about: a missing folder, a file instead of a folder, an already added folder or an
 * unusable URL under the path or URL, a bad branch under the branch, a taken name
 * under the name. An unreachable remote shows on the repository's card once the clone
 * has been tried.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { ApiError, fetchJson } from "@/components/api/fetch-json";
import type { RepositoryView } from "@/lib/db/ui-queries";

type Source = "folder" | "git";

function fieldOf(error: unknown): "path" | "branch" | "name" | "form" {
  if (!(error instanceof ApiError)) return "form";
  if (error.code.endsWith(":repo_name") || /\bname\b/i.test(error.message)) return "name";
  if (error.code.endsWith(":git_branch") || /\bbranch\b/i.test(error.message)) return "branch";
  if (
    error.code.endsWith(":repo_path") ||
    error.code.endsWith(":repo_form") ||
    error.code.endsWith(":git_url") ||
    error.code.endsWith(":repo_source")
  )
    return "path";
  return "form";
}

export function AddRepositoryForm() {
  const id = useId();
  const queryClient = useQueryClient();
  const [source, setSource] = useState<Source>("folder");
  const [path, setPath] = useState("");
  const [url, setUrl] = useState("");
  const [branch, setBranch] = useState("");
  const [name, setName] = useState("");
  const add = useMutation({
    mutationFn: (input: { path: string; name: string } | { url: string; branch: string; name: string }) =>
      fetchJson<{ repository: RepositoryView }>("/api/repos", {
        method: "POST",
        body: JSON.stringify(input),
      }),
    onSuccess: ({ repository }) => {
      queryClient.setQueryData<RepositoryView[]>(["repositories"], (list) =>
        list ? [...list.filter((r) => r.id !== repository.id), repository] : [repository],
      );
      void queryClient.invalidateQueries({ queryKey: ["repositories"] });
      setPath("");
      setUrl("");
      setBranch("");
      setName("");
    },
  });
  const field = add.isError ? fieldOf(add.error) : null;
  const message = add.error?.message;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(source === "git" ? { url, branch, name } : { path, name });
  };
  const git = source === "git";

  return (
    <form
      className="card add-repo"
      onSubmit={submit}
      noValidate
      data-testid="add-repo-form"
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`} className="card-title">
        Add a repository
      </h2>
      <fieldset className="source-choice" data-testid="repo-source-choice">
        <legend className="visually-hidden">Source</legend>
        {(["folder", "git"] as const).map((kind) => (
          <label key={kind} className="field-inline">
            <input
              type="radio"
              name="source"
              value={kind}
              checked={source === kind}
              onChange={() => {
                setSource(kind);
                add.reset();
              }}
              data-testid={`repo-source-${kind}`}
            />
            {kind === "folder" ? "Local folder" : "Git URL"}
          </label>
        ))}
      </fieldset>
      <div className={`add-repo-fields${git ? " git" : ""}`}>
        <div className="field grow">
          <label htmlFor={`${id}-path`}>{git ? "Git URL" : "Local folder"}</label>
          <input
            id={`${id}-path`}
            name={git ? "url" : "path"}
            data-testid={git ? "repo-url-input" : "repo-path-input"}
            placeholder={git ? "https://github.com/org/project.git" : "/home/me/code/my-project"}
            value={git ? url : path}
            onChange={(e) => (git ? setUrl(e.target.value) : setPath(e.target.value))}
            aria-invalid={field === "path"}
            aria-describedby={field === "path" ? `${id}-path-error` : `${id}-path-help`}
            autoComplete="off"
            spellCheck={false}
            required
          />
          {field === "path" ? (
            <p
              id={`${id}-path-error`}
              className="field-error small"
              role="alert"
              data-testid="repo-path-error"
            >
              {message}
            </p>
          ) : (
            <p id={`${id}-path-help`} className="muted small">
              {git
                ? "https, ssh, file:// or a bare repository on the server. Credentials come from the server's git credential helpers or SSH keys; any in the URL are dropped."
                : "A folder on the server's disk: git-tracked files are indexed, others walked honouring .gitignore."}
            </p>
          )}
        </div>
        {git ? (
          <div className="field">
            <label htmlFor={`${id}-branch`}>
              Branch <span className="muted">(optional)</span>
            </label>
            <input
              id={`${id}-branch`}
              name="branch"
              data-testid="repo-branch-input"
              placeholder="default branch"
              value={branch}
              onChange={(e) => setBranch(e.target.value)}
              aria-invalid={field === "branch"}
              aria-describedby={field === "branch" ? `${id}-branch-error` : undefined}
              autoComplete="off"
              spellCheck={false}
            />
            {field === "branch" ? (
              <p
                id={`${id}-branch-error`}
                className="field-error small"
                role="alert"
                data-testid="repo-branch-error"
              >
                {message}
              </p>
            ) : null}
          </div>
        ) : null}
        <div className="field">
          <label htmlFor={`${id}-name`}>
            Name <span className="muted">(optional)</span>
          </label>
          <input
            id={`${id}-name`}
            name="name"
            data-testid="repo-name-input"
            placeholder={git ? "repository name" : "folder name"}
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={field === "name"}
            aria-describedby={field === "name" ? `${id}-name-error` : undefined}
            autoComplete="off"
          />
          {field === "name" ? (
            <p
              id={`${id}-name-error`}
              className="field-error small"
              role="alert"
              data-testid="repo-name-error"
            >
              {message}
            </p>
          ) : null}
        </div>
        <div className="field field-submit">
          <button type="submit" className="button" disabled={add.isPending} data-testid="add-repo-submit">
            {add.isPending ? "Adding…" : "Add and index"}
          </button>
        </div>
      </div>
      {field === "form" ? (
        <p className="field-error small" role="alert" data-testid="repo-form-error">
          {message}
        </p>
      ) : null}
    </form>
  );
}
