"use client";
/**
 * The gaps the answerer named and what became of them: resolved ones with where
 * each was found (linked into the source) — or what the user provided, an excerpt
 * marked as not verified — unresolved ones with what was searched, skipped ones with
 * why, and gaps the loop stopped before looking up. On the latest answer of a live
 * chat, each gap left open offers "I know where this is" (gap-fill-form.tsx).
 */
import Link from "next/link";
import { useId, useState } from "react";
import { parseCitation, type GapSummary } from "@/components/chat/message-parts";
import { sourceHref } from "@/components/source/source-href";
import { BreakableName } from "@/components/ui/breakable-name";
import { GapFillForm, type GapAnswerInput } from "./gap-fill-form";

const VIA_LABEL: Record<string, string> = {
  cache: "from the session cache",
  direct: "by direct lookup",
  file: "as a file",
  function: "as a function",
  mode: "by mode search",
  semantic: "by semantic search",
  user: "provided by you",
};

function FoundLocation({
  value,
  repositoryId,
  generationId,
}: {
  value: string;
  repositoryId: string;
  generationId: string | null;
}) {
  const citation = parseCitation(value);
  const path = citation?.path ?? (value.includes("::") ? value.split("::")[0] : null);
  if (!path) return <code>{value}</code>;
  return (
    <Link
      prefetch={false}
      className="name-wrap"
      href={sourceHref({
        repositoryId,
        path,
        startLine: citation?.startLine,
        endLine: citation?.endLine,
        generationId,
      })}
    >
      <code>
        <BreakableName text={value} />
      </code>
    </Link>
  );
}

/** What a live chat needs to let the user fill the latest answer's open gaps. */
export interface GapFilling {
  sessionId: string;
  answerId: string;
  onContinue: (answers: GapAnswerInput[]) => void;
}

interface GapsPanelProps {
  /** id of the answer's heading: the panel is named "Answer 2 Gaps", unique on the page */
  answerHeadingId?: string;
  gaps: GapSummary;
  repositoryId: string;
  generationId: string | null;
  streaming: boolean;
  stopReason: string | null;
  /** set on the latest answer of a live chat */
  filling?: GapFilling;
}

function GapName({ gap }: { gap: string }) {
  return (
    <code className="gap-name name-wrap">
      <BreakableName text={gap} />
    </code>
  );
}

export function GapsPanel({
  gaps,
  repositoryId,
  generationId,
  streaming,
  stopReason,
  answerHeadingId,
  filling,
}: GapsPanelProps) {
  const headingId = useId();
  const [filled, setFilled] = useState<string | null>(null);
  const total = gaps.resolved.length + gaps.unresolved.length + gaps.skipped.length + gaps.open.length;
  const open = gaps.unresolved.length + gaps.open.length;

  /** The affordance (and, once chosen, the form) under a gap left open. */
  const fill = (gap: string) => {
    if (!filling || streaming) return null;
    if (filled === gap)
      return (
        <GapFillForm
          gap={gap}
          repositoryId={repositoryId}
          sessionId={filling.sessionId}
          answerId={filling.answerId}
          onContinue={filling.onContinue}
          onCancel={() => setFilled(null)}
        />
      );
    return (
      <button
        type="button"
        className="link-button small gap-fill-open"
        onClick={() => setFilled(gap)}
        data-testid="gap-fill-open"
        aria-label={`I know where ${gap} is`}
      >
        I know where this is
      </button>
    );
  };

  return (
    <section
      className="panel"
      aria-labelledby={answerHeadingId ? `${answerHeadingId} ${headingId}` : headingId}
      data-testid="gaps-panel"
    >
      <h3 className="panel-title" id={headingId}>
        Gaps{" "}
        <span className="muted panel-count">
          {gaps.resolved.length} resolved, {open} unresolved
        </span>
      </h3>
      {total === 0 ? (
        <p className="muted small">
          {streaming ? "Gaps appear when a pass names missing context." : "No context was reported missing."}
        </p>
      ) : null}
      {gaps.resolved.length > 0 ? (
        <ul className="gap-list" aria-label="Resolved gaps">
          {gaps.resolved.map((g) => (
            <li
              key={g.gap}
              className="gap gap-resolved"
              data-testid="gap-resolved"
              data-via={g.via ?? undefined}
            >
              <span className="gap-status" aria-hidden>
                ✓
              </span>
              <div>
                <GapName gap={g.gap} />{" "}
                <span className="muted small">
                  {g.via ? (VIA_LABEL[g.via] ?? g.via) : "found"} {g.via === "user" ? "for" : "after"} pass{" "}
                  {g.via === "user" ? g.pass : g.pass - 1}
                </span>
                {g.found.length > 0 ? (
                  <div className="small gap-where">
                    {g.via === "user" ? "read from" : "found in"}{" "}
                    {g.found.map((f, i) => (
                      <span key={f}>
                        {i > 0 ? ", " : null}
                        <FoundLocation value={f} repositoryId={repositoryId} generationId={generationId} />
                      </span>
                    ))}
                  </div>
                ) : null}
                {g.excerpt !== undefined ? (
                  <div className="gap-excerpt" data-testid="gap-excerpt">
                    <span className="badge warn">provided by the user, not verified</span>
                    <pre tabIndex={0} aria-label={`Excerpt you provided for ${g.gap}`}>
                      <code>{g.excerpt}</code>
                    </pre>
                  </div>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      {gaps.unresolved.length + gaps.open.length > 0 ? (
        <ul className="gap-list" aria-label="Unresolved gaps">
          {gaps.unresolved.map((g) => (
            <li key={g.gap} className="gap gap-unresolved" data-testid="gap-unresolved">
              <span className="gap-status" aria-hidden>
                ✗
              </span>
              <div>
                <GapName gap={g.gap} />{" "}
                <span className="muted small">not found (looked up after pass {g.pass - 1})</span>
                {g.searched.length > 0 ? (
                  <div className="small gap-where">
                    searched:{" "}
                    {g.searched.map((s) => (
                      <code key={s} className="gap-chip">
                        {s}
                      </code>
                    ))}
                  </div>
                ) : null}
                {fill(g.gap)}
              </div>
            </li>
          ))}
          {gaps.open.map((g) => (
            <li key={g} className="gap gap-unresolved" data-testid="gap-unresolved">
              <span className="gap-status" aria-hidden>
                …
              </span>
              <div>
                <GapName gap={g} />{" "}
                <span className="muted small">
                  not looked up{stopReason ? ` (stopped: ${stopReason.replace(/-/g, " ")})` : ""}
                </span>
                {fill(g)}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      {gaps.skipped.length > 0 ? (
        <ul className="gap-list" aria-label="Skipped gaps">
          {gaps.skipped.map((g) => (
            <li key={g.gap} className="gap gap-skipped" data-testid="gap-skipped">
              <span className="gap-status" aria-hidden>
                –
              </span>
              <div>
                <GapName gap={g.gap} />{" "}
                <span className="muted small">skipped{g.note ? `: ${g.note}` : ""}</span>
                {fill(g.gap)}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
