"use client";
/**
 * The citations of one answer: verified ones with their highlighted snippet and a
 * link that opens the source view at the cited lines; unverified ones struck out,
 * with the reason, and no snippet (they are never presented as fact). Each says what
 * it cites: a symbol, or "whole file". Paths and names wrap only at separators, and
 * code lines scroll sideways rather than wrap or clip. On share pages each verified
 * citation also says whether its lines changed since the answer's generation.
 */
import Link from "next/link";
import { useId, useState } from "react";
import { PlainCode } from "@/components/source/plain-code";
import { sourceHref } from "@/components/source/source-href";
import { BreakableName } from "@/components/ui/breakable-name";
import type { CitationPart } from "@/lib/qa/types";
import { citationKey, FIRST_CITATIONS, highlightKey, snippetLines } from "./citation-key";
import { snippetParts } from "./snippet-parts";
import { useHighlightedSnippets, type HighlightedSnippets } from "./use-highlighted-snippets";

export type DriftStatus = "unchanged" | "changed" | "file-removed";

/** Whether a shared citation's lines still read the same, and the generations compared. */
export interface CitationDrift {
  status: DriftStatus;
  /** the generation the answer was checked against */
  answeredIn: number;
  /** the repository's serving generation now */
  current: number;
}

export function driftLabel(drift: CitationDrift): string {
  if (drift.status === "unchanged") return `unchanged since generation ${drift.answeredIn}`;
  if (drift.status === "changed") return `changed in generation ${drift.current}`;
  return `file removed in generation ${drift.current}`;
}

/** What a citation points at, in words: its symbol (without the path shown above it), or "whole file". */
export function citationTarget(c: Pick<CitationPart, "symbol" | "wholeFile">): string | null {
  if (c.wholeFile) return "whole file";
  if (!c.symbol) return null;
  const separator = c.symbol.lastIndexOf("::");
  return separator >= 0 ? c.symbol.slice(separator + 2) : c.symbol;
}

function Snippet({ citation, html }: { citation: CitationPart; html: (string | null)[] | undefined }) {
  const lines = snippetLines(citation);
  const parts = snippetParts(citation.snippet ?? "", lines.startLine);
  const highlighted = html !== undefined && parts.some((p, i) => p.highlight && html[i]);
  return (
    <div
      className="snippet"
      data-testid="citation-snippet"
      data-highlighted={highlighted ? "true" : "false"}
      data-first-line={lines.startLine}
      // It scrolls both ways: keyboard users must be able to reach it too.
      tabIndex={0}
      role="group"
      aria-label={`${citation.path} lines ${lines.startLine}–${lines.endLine}`}
    >
      {parts.map((part, i) => {
        const partHtml = html?.[i];
        return partHtml ? (
          <div key={i} dangerouslySetInnerHTML={{ __html: partHtml }} />
        ) : (
          <PlainCode key={i} code={part.code} firstLine={part.firstLine} />
        );
      })}
    </div>
  );
}

interface CitationListProps {
  /** id of the answer's heading: the panel is named "Answer 2 Timeline", unique on the page */
  answerHeadingId?: string;
  citations: CitationPart[];
  repositoryId: string;
  generationId: string | null;
  /** false while the answer still streams (the list may still change) */
  settled: boolean;
  /** snippets highlighted on the server, by citation key; the others are fetched when shown */
  highlighted?: HighlightedSnippets;
  drift?: Record<string, CitationDrift>;
}

export function CitationList({
  citations,
  repositoryId,
  generationId,
  settled,
  highlighted,
  drift,
  answerHeadingId,
}: CitationListProps) {
  const headingId = useId();
  const [showAll, setShowAll] = useState(false);
  // Long lists stay scannable: the first few open, the rest one click away (and only
  // then highlighted).
  const shown = showAll ? citations : citations.slice(0, FIRST_CITATIONS);
  const missing = (list: CitationPart[]) => list.filter((c) => !highlighted?.[highlightKey(c)]);
  const first = useHighlightedSnippets(missing(citations.slice(0, FIRST_CITATIONS)), settled);
  const rest = useHighlightedSnippets(missing(citations.slice(FIRST_CITATIONS)), settled && showAll);
  const html = { ...first, ...rest, ...highlighted };
  const verified = citations.filter((c) => c.verified).length;
  const unverified = citations.length - verified;
  return (
    <section
      className="panel"
      aria-labelledby={answerHeadingId ? `${answerHeadingId} ${headingId}` : headingId}
      data-testid="citations-panel"
    >
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
            const target = citationTarget(c);
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
                      prefetch={false}
                      href={sourceHref({
                        repositoryId,
                        path: c.path,
                        startLine: c.startLine,
                        endLine: c.endLine,
                        generationId,
                      })}
                      className="citation-path name-wrap"
                      data-testid="citation-open"
                    >
                      <BreakableName text={c.path} />:{c.startLine}–{c.endLine}
                    </Link>
                  ) : (
                    <span className="citation-path name-wrap struck">
                      <BreakableName text={c.raw} />
                    </span>
                  )}
                  <span className={c.verified ? "badge ok" : "badge bad"}>
                    {c.verified ? "verified" : "unverified"}
                  </span>
                  {change ? (
                    <span
                      className={change.status === "unchanged" ? "badge" : "badge warn"}
                      data-testid="citation-drift"
                      data-drift={change.status}
                    >
                      {driftLabel(change)}
                    </span>
                  ) : null}
                </div>
                {target ? (
                  <div className="citation-symbol muted small name-wrap" data-testid="citation-target">
                    <BreakableName text={target} />
                  </div>
                ) : null}
                {c.verified && c.snippet ? <Snippet citation={c} html={html[highlightKey(c)]} /> : null}
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
