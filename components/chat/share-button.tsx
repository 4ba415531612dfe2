"use client";
/**
 * Makes the session shareable (POST /api/sessions/[id]/share) and shows the
 * read-only link with a copy button. Sharing twice returns the same link. The link
 * takes the focus when it appears, selected, so a keyboard user can copy it at once.
 */
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { fetchJson } from "@/components/api/fetch-json";

export function ShareButton({ sessionId, disabled }: { sessionId: string; disabled: boolean }) {
  const [copied, setCopied] = useState(false);
  const share = useMutation({
    mutationFn: () =>
      fetchJson<{ shareId: string; path: string }>(`/api/sessions/${encodeURIComponent(sessionId)}/share`, {
        method: "POST",
      }),
  });
  const url = share.data ? `${window.location.origin}${share.data.path}` : null;
  const linkRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (url) linkRef.current?.focus();
  }, [url]);

  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      // Clipboard refused (permissions): the link stays selected in the field instead.
      setCopied(false);
    }
  };

  return (
    <div className="share" data-testid="share">
      <button
        type="button"
        className="button secondary"
        onClick={() => share.mutate()}
        disabled={disabled || share.isPending}
        data-testid="share-button"
      >
        {share.isPending ? "Sharing…" : "Share"}
      </button>
      {url ? (
        <div className="share-link" role="status">
          <label className="visually-hidden" htmlFor="share-url">
            Share link
          </label>
          <input
            ref={linkRef}
            id="share-url"
            readOnly
            value={url}
            onFocus={(e) => e.currentTarget.select()}
            data-testid="share-link"
          />
          <button type="button" className="button secondary" onClick={copy} data-testid="copy-share-link">
            {copied ? "Copied" : "Copy"}
          </button>
        </div>
      ) : null}
      {share.isError ? (
        <p className="field-error small" role="alert">
          {share.error.message}
        </p>
      ) : null}
    </div>
  );
}
