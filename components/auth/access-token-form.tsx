"use client";
/**
 * The sign-in of token mode: the team access token, entered once per browser (the
 * server keeps a signed, httpOnly cookie), and an optional name for the logs. A
 * refusal says only that the token was not accepted.
 */
import { useId, useState, type FormEvent } from "react";

export function AccessTokenForm({ next }: { next: string }) {
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
      const response = await fetch("/api/access/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: token.trim(), name: name.trim() }),
      });
      if (response.ok) {
        // A full load, so the layout renders with the new identity.
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
    <form className="card login-form" onSubmit={onSubmit} noValidate data-testid="access-form">
      <div className="field">
        <label htmlFor={`${ids}-token`}>Access token</label>
        <input
          id={`${ids}-token`}
          type="password"
          autoComplete="current-password"
          required
          value={token}
          onChange={(e) => setToken(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${ids}-error` : `${ids}-help`}
          data-testid="access-token"
          autoFocus
        />
        <p id={`${ids}-help`} className="small muted">
          Your team&apos;s token for this server; ask whoever runs it.
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${ids}-name`}>
          Your name <span className="muted">(optional)</span>
        </label>
        <input
          id={`${ids}-name`}
          type="text"
          autoComplete="nickname"
          maxLength={40}
          value={name}
          onChange={(e) => setName(e.target.value)}
          data-testid="access-name"
        />
      </div>
      {error ? (
        <p id={`${ids}-error`} className="field-error" role="alert" data-testid="access-error">
          {error}
        </p>
      ) : null}
      <button
        type="submit"
        className="button"
        disabled={pending || !token.trim()}
        data-testid="access-submit"
      >
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
