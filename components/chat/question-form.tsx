"use client";
/**
 * The question box with its options: quality preset and mode override. Enter sends,
 * Shift+Enter adds a line (and Enter while composing with an IME does neither).
 */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { QUALITY_LIST, QUERY_MODE_LIST, type Quality, type QueryMode } from "@/lib/qa/types";

export interface QuestionOptions {
  quality: Quality;
  mode: QueryMode | "auto";
}

interface QuestionFormProps {
  repositoryName: string;
  busy: boolean;
  onAsk: (question: string, options: QuestionOptions) => void;
  onStop: () => void;
  /** text put into the box from outside (example questions) */
  draft: string;
  onDraftChange: (value: string) => void;
  /** what the chat is doing, announced politely to screen readers */
  status: string;
  /** focus the box on arrival (a new, empty conversation) */
  autoFocus?: boolean;
}

const QUALITY_HELP: Record<Quality, string> = {
  quick: "quick: fewer passes, smaller budget",
  balanced: "balanced",
  thorough: "thorough: more passes, larger budget",
};

export function QuestionForm({
  repositoryName,
  busy,
  onAsk,
  onStop,
  draft,
  onDraftChange,
  status,
  autoFocus = false,
}: QuestionFormProps) {
  const id = useId();
  const [options, setOptions] = useState<QuestionOptions>({ quality: "balanced", mode: "auto" });
  const canSend = draft.trim().length > 0 && !busy;
  const input = useRef<HTMLTextAreaElement>(null);
  // Text typed before the page's script ran is in the box but not in the draft, and React,
  // which then finds the box already holding that text, would not report it as a change
  // when it is typed again: the box would look filled with Ask disabled. Take it over once.
  useEffect(() => {
    const typed = input.current?.value ?? "";
    if (typed && !draft) onDraftChange(typed);
    // Only what was typed before mounting; later typing arrives through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    onAsk(draft.trim(), options);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <form className="question-form" onSubmit={submit} data-testid="question-form">
      <label htmlFor={`${id}-q`} className="visually-hidden">
        Question about {repositoryName}
      </label>
      <textarea
        id={`${id}-q`}
        className="question-input"
        data-testid="question-input"
        rows={2}
        maxLength={20_000}
        placeholder={`Ask about ${repositoryName}… (Enter to send, Shift+Enter for a new line)`}
        ref={input}
        value={draft}
        onChange={(e) => onDraftChange(e.target.value)}
        onKeyDown={onKeyDown}
        aria-describedby={`${id}-hint`}
        autoFocus={autoFocus}
      />
      <div className="question-bar">
        <div className="question-options">
          <label className="field-inline">
            <span>Quality</span>
            <select
              data-testid="quality-select"
              value={options.quality}
              onChange={(e) => setOptions((o) => ({ ...o, quality: e.target.value as Quality }))}
            >
              {QUALITY_LIST.map((q) => (
                <option key={q} value={q} title={QUALITY_HELP[q]}>
                  {q}
                </option>
              ))}
            </select>
          </label>
          <label className="field-inline">
            <span>Mode</span>
            <select
              data-testid="mode-select"
              value={options.mode}
              onChange={(e) => setOptions((o) => ({ ...o, mode: e.target.value as QueryMode | "auto" }))}
            >
              <option value="auto">auto</option>
              {QUERY_MODE_LIST.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
        </div>
        <p className="chat-status small" role="status" aria-live="polite" data-testid="chat-status">
          {status}
        </p>
        <span id={`${id}-hint`} className="visually-hidden">
          Enter sends the question; Shift+Enter inserts a new line.
        </span>
        {busy ? (
          <button type="button" className="button secondary" onClick={onStop} data-testid="stop-button">
            Stop
          </button>
        ) : (
          <button type="submit" className="button" disabled={!canSend} data-testid="ask-button">
            Ask
          </button>
        )}
      </div>
    </form>
  );
}
