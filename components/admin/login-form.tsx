"use client";
/**
 * The admin sign-in: the token (printed at the server's first start, or by
 * `npm run wayfinder -- admin-token`) and an optional name that signs the change log.
 * A refusal says only that the token was not accepted.
 */
import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent } from "react";

export function LoginForm({ next }: { next: string }) {
  const router = useRouter();
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
      const response = await fetch("/api/admin/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: token.trim(), name: name.trim() }),
      });
      if (response.ok) {
        router.replace(next);
        router.refresh();
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
    <form className="card login-form" onSubmit={onSubmit} noValidate data-testid="login-form">
      <div className="field">
        <label htmlFor={`${ids}-token`}>Admin token</label>
        <input
          id={`${ids}-token`}
          type="password"
          autoComplete="current-password"
          required
          value={token}
          onChange={(e) => setToken(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${ids}-error` : `${ids}-help`}
          data-testid="login-token"
          autoFocus
        />
        <p id={`${ids}-help`} className="small muted">
          Printed once when the server first started; <code>npm run wayfinder -- admin-token</code> shows it
          again.
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${ids}-name`}>
          Your name <span className="muted">(optional, shown in the change log)</span>
        </label>
        <input
          id={`${ids}-name`}
          type="text"
          autoComplete="nickname"
          maxLength={40}
          value={name}
          onChange={(e) => setName(e.target.value)}
          data-testid="login-name"
        />
      </div>
      {error ? (
        <p id={`${ids}-error`} className="field-error" role="alert" data-testid="login-error">
          {error}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={pending || !token.trim()} data-testid="login-submit">
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
