"use client";
/**
 * The citations of one answer: verified ones with their highlighted snippet and a
 * link that opens the source view at the cited lines; unverified ones struck out,
 * with the reason, and no snippet (they are never presented as fact). On share
 * pages each verified citation also says whether its lines changed since.
 */
import Link from "next/link";
import { useId, useState } from "react";
import { PlainCode } from "@/components/source/plain-code";
import { sourceHref } from "@/components/source/source-href";
import type { CitationPart } from "@/lib/qa/types";
import { citationKey } from "./citation-key";
import { useHighlightedSnippets } from "./use-highlighted-snippets";

const INITIAL_VISIBLE = 4;

export type CitationDrift = "unchanged" | "changed" | "file-removed";

const DRIFT_LABEL: Record<CitationDrift, string> = {
  unchanged: "unchanged since",
  changed: "lines changed since",
  "file-removed": "file removed since",
};

interface CitationListProps {
  citations: CitationPart[];
  repositoryId: string;
  generationId: string | null;
  /** false while the answer still streams (the list may still change) */
  settled: boolean;
  /** server-highlighted snippets by citation key (share page); fetched otherwise */
  highlighted?: Record<string, string>;
  drift?: Record<string, CitationDrift>;
}

export function CitationList({
  citations,
  repositoryId,
  generationId,
  settled,
  highlighted,
  drift,
}: CitationListProps) {
  const fetched = useHighlightedSnippets(citations, settled && !highlighted);
  const html = highlighted ?? fetched;
  const headingId = useId();
  const [showAll, setShowAll] = useState(false);
  // Long lists stay scannable: the first few open, the rest one click away.
  const shown = showAll ? citations : citations.slice(0, INITIAL_VISIBLE);
  const verified = citations.filter((c) => c.verified).length;
  const unverified = citations.length - verified;
  return (
    <section className="panel" aria-labelledby={headingId} data-testid="citations-panel">
      <h3 className="panel-title" id={headingId}>
        Citations{" "}
        <span className="muted panel-count">
          {verified} verified{unverified ? `, ${unverified} unverified` : ""}
        </span>
      </h3>
      {citations.length === 0 ? (
        <p className="muted small">
          {settled
            ? "This answer cites no source lines."
            : "Citations are checked when the answer is complete."}
        </p>
      ) : (
        <ul className="citation-list">
          {shown.map((c, i) => {
            const key = citationKey(c);
            const change = drift?.[key];
            return (
              <li
                key={`${key}-${i}`}
                className={c.verified ? "citation" : "citation citation-unverified"}
                data-testid="citation-item"
                data-verified={String(c.verified)}
              >
                <div className="citation-head">
                  {c.verified ? (
                    <Link
                      href={sourceHref({
                        repositoryId,
                        path: c.path,
                        startLine: c.startLine,
                        endLine: c.endLine,
                        generationId,
                      })}
                      className="citation-path"
                      data-testid="citation-open"
                    >
                      {c.path}:{c.startLine}–{c.endLine}
                    </Link>
                  ) : (
                    <span className="citation-path struck">{c.raw}</span>
                  )}
                  <span className={c.verified ? "badge ok" : "badge bad"}>
                    {c.verified ? "verified" : "unverified"}
                  </span>
                  {change ? (
                    <span
                      className={change === "unchanged" ? "badge" : "badge warn"}
                      data-testid="citation-drift"
                    >
                      {DRIFT_LABEL[change]}
                    </span>
                  ) : null}
                </div>
                {c.symbol ? <div className="citation-symbol muted small">{c.symbol}</div> : null}
                {c.verified && c.snippet ? (
                  <div
                    className="snippet"
                    data-testid="citation-snippet"
                    data-highlighted={html[key] ? "true" : "false"}
                  >
                    {html[key] ? (
                      <div dangerouslySetInnerHTML={{ __html: html[key] }} />
                    ) : (
                      <PlainCode code={c.snippet} firstLine={c.startLine} />
                    )}
                  </div>
                ) : null}
                {!c.verified ? (
                  <p className="small unverified-reason">
                    Not verified{c.reason ? `: ${c.reason}` : ""}. Treat this reference as unconfirmed.
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {citations.length > shown.length ? (
        <button
          type="button"
          className="link-button small"
          onClick={() => setShowAll(true)}
          data-testid="citations-more"
        >
          Show {citations.length - shown.length} more citations
        </button>
      ) : null}
    </section>
  );
}
