"use client";
/**
 * Shown when an answer's request or stream fails. The partial answer (if any) stays
 * visible above; Retry asks the same question again.
 */
import { describeChatError } from "./chat-transport";

export function StreamError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const failure = describeChatError(error);
  return (
    <div className="stream-error" role="alert" data-testid="stream-error">
      <div>
        <strong>{failure.interrupted ? "Stream interrupted" : "The answer failed"}</strong>
        <p className="small">{failure.message}</p>
      </div>
      <button type="button" className="button" onClick={onRetry} data-testid="retry-button">
        Retry
      </button>
    </div>
  );
}
