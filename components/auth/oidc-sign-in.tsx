"use client";
/** The sign-in button of oidc mode: off to the identity provider, back to the page asked for. */
import { useState } from "react";
import { oidcSignIn } from "./auth-client";

export function OidcSignIn({
  providerId,
  providerName,
  next,
}: {
  providerId: string;
  providerName: string;
  next: string;
}) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onClick = async () => {
    setPending(true);
    setError(null);
    try {
      await oidcSignIn(providerId, next);
    } catch (e) {
      setError(e instanceof Error ? e.message : "Sign-in failed; try again.");
      setPending(false);
    }
  };
  return (
    <div className="card login-form">
      <button
        type="button"
        className="button"
        onClick={onClick}
        disabled={pending}
        data-testid="oidc-sign-in"
      >
        {pending ? "Redirecting…" : `Sign in with ${providerName}`}
      </button>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
