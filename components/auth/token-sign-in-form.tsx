"use client";
/**
 * A token sign-in (the admin token, or the team access token): the token and an
 * optional name for the logs. A refusal says only that the token was not accepted;
 * success loads `next` in full, so the whole page renders with the new identity.
 */
import { useId, useState, type FormEvent, type ReactNode } from "react";

export interface TokenSignInProps {
  /** the sign-in endpoint (POST { token, name }) */
  endpoint: string;
  next: string;
  tokenLabel: string;
  help: ReactNode;
  nameHint: string;
  /** data-testid prefix of the form's parts */
  testId: string;
}

export function TokenSignInForm({ endpoint, next, tokenLabel, help, nameHint, testId }: TokenSignInProps) {
  const ids = useId();
  const [token, setToken] = useState("");
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      const response = await fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: token.trim(), name: name.trim() }),
      });
      if (response.ok) {
        window.location.assign(next);
        return;
      }
      const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
      setError(
        response.status === 401
          ? "That token was not accepted."
          : (body?.error?.message ?? "Sign-in failed; try again."),
      );
    } catch {
      setError("The server could not be reached.");
    }
    setPending(false);
  };

  return (
    <form className="card login-form" onSubmit={onSubmit} noValidate data-testid={`${testId}-form`}>
      <div className="field">
        <label htmlFor={`${ids}-token`}>{tokenLabel}</label>
        <input
          id={`${ids}-token`}
          type="password"
          autoComplete="current-password"
          required
          value={token}
          onChange={(e) => setToken(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${ids}-error` : `${ids}-help`}
          data-testid={`${testId}-token`}
          autoFocus
        />
        <p id={`${ids}-help`} className="small muted">
          {help}
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${ids}-name`}>
          Your name <span className="muted">({nameHint})</span>
        </label>
        <input
          id={`${ids}-name`}
          type="text"
          autoComplete="nickname"
          maxLength={40}
          value={name}
          onChange={(e) => setName(e.target.value)}
          data-testid={`${testId}-name`}
        />
      </div>
      {error ? (
        <p id={`${ids}-error`} className="field-error" role="alert" data-testid={`${testId}-error`}>
          {error}
        </p>
      ) : null}
      <button
        type="submit"
        className="button"
        disabled={pending || !token.trim()}
        data-testid={`${testId}-submit`}
      >
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
