"use client";
/**
 * Adds a repository by local path (POST /api/repos) and starts its first index. The
 * server's errors land next to the field they are about: a missing folder, a file
 * instead of a folder or an already added folder under the path, a taken name under
 * the name.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { ApiError, fetchJson } from "@/components/api/fetch-json";
import type { RepositoryView } from "@/lib/db/ui-queries";

function fieldOf(error: unknown): "path" | "name" | "form" {
  if (!(error instanceof ApiError)) return "form";
  if (error.code.endsWith(":repo_name") || /\bname\b/i.test(error.message)) return "name";
  if (error.code.endsWith(":repo_path") || error.code.endsWith(":repo_form")) return "path";
  return "form";
}

export function AddRepositoryForm() {
  const id = useId();
  const queryClient = useQueryClient();
  const [path, setPath] = useState("");
  const [name, setName] = useState("");
  const add = useMutation({
    mutationFn: (input: { path: string; name: string }) =>
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
      setName("");
    },
  });
  const field = add.isError ? fieldOf(add.error) : null;
  const message = add.error?.message;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ path, name });
  };

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
      <div className="add-repo-fields">
        <div className="field grow">
          <label htmlFor={`${id}-path`}>Local folder</label>
          <input
            id={`${id}-path`}
            name="path"
            data-testid="repo-path-input"
            placeholder="/home/me/code/my-project"
            value={path}
            onChange={(e) => setPath(e.target.value)}
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
              A folder on the server&apos;s disk: git-tracked files are indexed, others walked honouring
              .gitignore.
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor={`${id}-name`}>
            Name <span className="muted">(optional)</span>
          </label>
          <input
            id={`${id}-name`}
            name="name"
            data-testid="repo-name-input"
            placeholder="folder name"
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
