"use client";
/**
 * "I know where this is" for one open gap: the user names a file, folder or symbol of
 * the repository (or `path:start-end`), or pastes a short excerpt. What they give is
 * checked first (POST /api/sessions/[id]/gap-answers: the location must be in the
 * answer's index), so a mistake is reported here, next to what they typed, and the
 * answer stays as it is; once it checks out, the answer continues from that pass.
 */
import { useId, useRef, useState, type FormEvent } from "react";
import { ApiError, fetchJson } from "@/components/api/fetch-json";
import { MAX_GAP_EXCERPT_CHARS } from "@/lib/qa/types";

export interface GapAnswerInput {
  gap: string;
  location?: string;
  excerpt?: string;
}

interface GapFillFormProps {
  gap: string;
  sessionId: string;
  repositoryId: string;
  answerId: string;
  /** continues the answer with this answer (the chat regenerates it) */
  onContinue: (answers: GapAnswerInput[]) => void;
  onCancel: () => void;
}

type Kind = "location" | "excerpt";

export function GapFillForm({
  gap,
  sessionId,
  repositoryId,
  answerId,
  onContinue,
  onCancel,
}: GapFillFormProps) {
  const id = useId();
  const [kind, setKind] = useState<Kind>("location");
  const [location, setLocation] = useState("");
  const [excerpt, setExcerpt] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const fieldRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = kind === "location" ? location.trim() : excerpt;
    if (!value.trim()) {
      setError(kind === "location" ? "Name a file, folder or symbol." : "Paste the code.");
      fieldRef.current?.focus();
      return;
    }
    const answer: GapAnswerInput = kind === "location" ? { gap, location: value } : { gap, excerpt: value };
    setChecking(true);
    setError(null);
    try {
      await fetchJson(`/api/sessions/${encodeURIComponent(sessionId)}/gap-answers`, {
        method: "POST",
        body: JSON.stringify({ repositoryId, answerId, gapAnswers: [answer] }),
      });
      onContinue([answer]);
    } catch (e) {
      setError(e instanceof ApiError || e instanceof Error ? e.message : String(e));
      fieldRef.current?.focus();
    } finally {
      setChecking(false);
    }
  };

  const errorId = `${id}-error`;
  return (
    <form className="gap-fill" onSubmit={submit} data-testid="gap-fill-form" aria-label={`Where ${gap} is`}>
      <fieldset className="gap-fill-kind">
        <legend className="visually-hidden">What you know</legend>
        <label>
          <input
            type="radio"
            name={`${id}-kind`}
            checked={kind === "location"}
            onChange={() => setKind("location")}
            data-testid="gap-fill-kind-location"
          />{" "}
          Where it is
        </label>
        <label>
          <input
            type="radio"
            name={`${id}-kind`}
            checked={kind === "excerpt"}
            onChange={() => setKind("excerpt")}
            data-testid="gap-fill-kind-excerpt"
          />{" "}
          Paste the code
        </label>
      </fieldset>
      {kind === "location" ? (
        <div className="field">
          <label htmlFor={`${id}-location`}>File, folder or symbol</label>
          <input
            id={`${id}-location`}
            ref={fieldRef}
            value={location}
            onChange={(e) => setLocation(e.target.value)}
            placeholder="lib/auth/users.py, lib/auth/, Auth.verify_user or lib/auth.py:10-40"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            data-testid="gap-fill-location"
            autoFocus
          />
        </div>
      ) : (
        <div className="field">
          <label htmlFor={`${id}-excerpt`}>
            Code excerpt <span className="muted">(shown as provided by you, not verified)</span>
          </label>
          <textarea
            id={`${id}-excerpt`}
            ref={fieldRef}
            value={excerpt}
            onChange={(e) => setExcerpt(e.target.value)}
            rows={6}
            maxLength={MAX_GAP_EXCERPT_CHARS}
            spellCheck={false}
            className="gap-fill-excerpt"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            data-testid="gap-fill-excerpt"
            autoFocus
          />
        </div>
      )}
      {error ? (
        <p className="field-error small" id={errorId} role="alert" data-testid="gap-fill-error">
          {error}
        </p>
      ) : null}
      <div className="gap-fill-actions">
        <button type="submit" className="button" disabled={checking} data-testid="gap-fill-submit">
          {checking ? "Checking…" : "Continue the answer"}
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
