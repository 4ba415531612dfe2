"use client";
/** Error boundary for pages: says what failed and offers a retry instead of a blank screen. */
import { useEffect } from "react";

export default function PageError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div className="card empty" role="alert" data-testid="page-error">
      <h1>Something went wrong</h1>
      <p className="muted">
        This page could not be shown. {error.digest ? `(reference ${error.digest})` : null}
      </p>
      <button type="button" className="button" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
