"use client";
/**
 * One inline citation in an answer. Verified citations link to the source view at
 * the cited lines; unverified ones are struck through and labelled so they never
 * read as fact; while the answer streams, not-yet-checked ones look neutral.
 */
import Link from "next/link";
import { matchCitation, parseCitation } from "@/components/chat/message-parts";
import { sourceHref } from "@/components/source/source-href";
import { BreakableName } from "@/components/ui/breakable-name";
import { useCitationContext } from "./citation-context";

export function CitationRef({ raw, code }: { raw: string; code: boolean }) {
  const { citations, repositoryId, generationId, pending } = useCitationContext();
  const location = parseCitation(raw);
  const citation = location ? matchCitation(citations, location, raw) : null;
  const label = code ? (
    <code>
      <BreakableName text={raw} />
    </code>
  ) : (
    <BreakableName text={raw} />
  );
  if (citation?.verified) {
    return (
      <Link
        prefetch={false}
        href={sourceHref({
          repositoryId,
          path: citation.path,
          startLine: citation.startLine,
          endLine: citation.endLine,
          generationId,
        })}
        className="cite cite-verified"
        data-testid="citation-ref"
        data-verified="true"
        title={`Open ${citation.path} at lines ${citation.startLine}–${citation.endLine}`}
      >
        {label}
      </Link>
    );
  }
  if (!citation && pending) {
    return (
      <span
        className="cite cite-pending"
        data-testid="citation-ref"
        data-verified="pending"
        title="Being checked"
      >
        {label}
      </span>
    );
  }
  const reason = citation?.reason ?? "This citation could not be checked against the index.";
  return (
    <span
      className="cite cite-unverified"
      data-testid="citation-ref"
      data-verified="false"
      title={`Unverified: ${reason}`}
    >
      <span className="cite-text">{label}</span>
      <span className="cite-flag" aria-label={`unverified citation: ${reason}`}>
        unverified
      </span>
    </span>
  );
}
