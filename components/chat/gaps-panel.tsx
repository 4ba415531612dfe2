"use client";
/**
 * The gaps the answerer named and what became of them: resolved ones with where
 * each was found (linked into the source), unresolved ones with what was searched,
 * skipped ones with why, and gaps the loop stopped before looking up.
 */
import Link from "next/link";
import { useId } from "react";
import { parseCitation, type GapSummary } from "@/components/chat/message-parts";
import { sourceHref } from "@/components/source/source-href";
import { BreakableName } from "@/components/ui/breakable-name";

const VIA_LABEL: Record<string, string> = {
  cache: "from the session cache",
  direct: "by direct lookup",
  file: "as a file",
  function: "as a function",
  mode: "by mode search",
  semantic: "by semantic search",
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
      href={sourceHref({
        repositoryId,
        path,
        startLine: citation?.startLine,
        endLine: citation?.endLine,
        generationId,
      })}
    >
      <code>{value}</code>
    </Link>
  );
}

interface GapsPanelProps {
  gaps: GapSummary;
  repositoryId: string;
  generationId: string | null;
  streaming: boolean;
  stopReason: string | null;
}

export function GapsPanel({ gaps, repositoryId, generationId, streaming, stopReason }: GapsPanelProps) {
  const headingId = useId();
  const total = gaps.resolved.length + gaps.unresolved.length + gaps.skipped.length + gaps.open.length;
  return (
    <section className="panel" aria-labelledby={headingId} data-testid="gaps-panel">
      <h3 className="panel-title" id={headingId}>
        Gaps{" "}
        <span className="muted panel-count">
          {gaps.resolved.length} resolved, {gaps.unresolved.length + gaps.open.length} unresolved
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
            <li key={g.gap} className="gap gap-resolved" data-testid="gap-resolved">
              <span className="gap-status" aria-hidden>
                ✓
              </span>
              <div>
                <code className="gap-name name-wrap">
                  <BreakableName text={g.gap} />
                </code>{" "}
                <span className="muted small">
                  {g.via ? (VIA_LABEL[g.via] ?? g.via) : "found"} after pass {g.pass - 1}
                </span>
                {g.found.length > 0 ? (
                  <div className="small gap-where">
                    found in{" "}
                    {g.found.map((f, i) => (
                      <span key={f}>
                        {i > 0 ? ", " : null}
                        <FoundLocation value={f} repositoryId={repositoryId} generationId={generationId} />
                      </span>
                    ))}
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
                <code className="gap-name name-wrap">
                  <BreakableName text={g.gap} />
                </code>{" "}
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
              </div>
            </li>
          ))}
          {gaps.open.map((g) => (
            <li key={g} className="gap gap-unresolved" data-testid="gap-unresolved">
              <span className="gap-status" aria-hidden>
                …
              </span>
              <div>
                <code className="gap-name name-wrap">
                  <BreakableName text={g} />
                </code>{" "}
                <span className="muted small">
                  not looked up{stopReason ? ` (stopped: ${stopReason.replace(/-/g, " ")})` : ""}
                </span>
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
                <code className="gap-name name-wrap">
                  <BreakableName text={g.gap} />
                </code>{" "}
                <span className="muted small">skipped{g.note ? `: ${g.note}` : ""}</span>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
