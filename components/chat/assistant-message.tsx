"use client";
/**
 * One answer with everything the stream carried: notices, the Markdown answer (the
 * latest pass's draft, earlier drafts collapsed), diagrams and the final numbers in
 * the main column; the timeline, gaps and citations in the side column. The same
 * component renders a live answer and a stored one (chat reload, share page).
 */
import { useId, useRef } from "react";
import { CitationContext } from "@/components/citations/citation-context";
import { CitationList, type CitationDrift } from "@/components/citations/citation-list";
import type { HighlightedSnippets } from "@/components/citations/use-highlighted-snippets";
import { DiagramView } from "@/components/diagrams/diagram-view";
import type { WayfinderUIMessage } from "@/lib/qa/types";
import { AnswerMarkdown } from "./answer-markdown";
import { AnswerMeta } from "./answer-meta";
import { GapsPanel, type GapFilling } from "./gaps-panel";
import {
  activePassOf,
  answeredPassesOf,
  answerOf,
  citationsOf,
  classificationOf,
  diagramsOf,
  draftsOf,
  gapsOf,
  noticesOf,
  passesOf,
} from "./message-parts";
import { NoticeBanner } from "./notice-banner";
import { PassTimeline, phaseLabel } from "./pass-timeline";
import { SideResizer } from "./side-resizer";
import { useGrowOnlyHeight } from "./use-grow-only-height";

interface AssistantMessageProps {
  message: WayfinderUIMessage;
  repositoryId: string;
  /** true while this message is the one streaming in */
  streaming: boolean;
  /** which answer of the conversation this is (1-based): names it for screen readers */
  ordinal: number;
  /** the latest answer of a live chat: its open gaps can be filled */
  filling?: GapFilling;
  /** share page extras: server-highlighted snippets and "changed since" per citation */
  highlighted?: HighlightedSnippets;
  drift?: Record<string, CitationDrift>;
}

export function AssistantMessage({
  message,
  repositoryId,
  streaming,
  ordinal,
  filling,
  highlighted,
  drift,
}: AssistantMessageProps) {
  const classification = classificationOf(message);
  const passes = passesOf(message);
  const active = streaming ? activePassOf(message) : null;
  const answer = answerOf(message);
  const drafts = draftsOf(message);
  const citations = citationsOf(message);
  const diagrams = diagramsOf(message);
  const notices = noticesOf(message);
  const gaps = gapsOf(message);
  // Links open the generation the answer was checked against, even after a re-index.
  const generationId = message.metadata?.generationId ?? null;
  const stopReason = message.metadata?.stopReason ?? passes.at(-1)?.stopReason ?? null;
  const answered = answeredPassesOf(message);
  const settled = !streaming;
  const answerRef = useRef<HTMLDivElement>(null);
  const answerHeadingId = useId();
  useGrowOnlyHeight(answerRef, streaming);

  return (
    <div className="turn-answer" data-testid="assistant-message" data-streaming={String(streaming)}>
      <div className="turn-main">
        <h2 className="visually-hidden" id={answerHeadingId}>
          Answer {ordinal}
        </h2>
        {notices.map((notice) => (
          <NoticeBanner key={`${notice.code}:${notice.message}`} notice={notice} />
        ))}
        <div className="answer-status" data-testid="answer-status">
          {active ? (
            <span className="working">
              <span className="spinner" aria-hidden /> Pass {active.pass}: {phaseLabel(active)}
            </span>
          ) : streaming ? (
            <span className="working">
              <span className="spinner" aria-hidden />{" "}
              {classification ? "Finishing…" : "Classifying the question…"}
            </span>
          ) : classification ? (
            <span>
              <span className="badge mode">{classification.mode}</span>{" "}
              {answered > 0 ? `${answered} ${answered === 1 ? "pass" : "passes"}` : null}
              {gaps.resolved.length + gaps.unresolved.length > 0
                ? ` · ${gaps.resolved.length} of ${gaps.resolved.length + gaps.unresolved.length + gaps.open.length} gaps resolved`
                : null}
            </span>
          ) : null}
        </div>
        <div className="answer" data-testid="answer" aria-busy={streaming} ref={answerRef}>
          {answer ? (
            <CitationContext.Provider value={{ repositoryId, generationId, citations, pending: streaming }}>
              <AnswerMarkdown text={answer} streaming={streaming} />
            </CitationContext.Provider>
          ) : streaming ? (
            <div className="answer-skeleton" aria-hidden>
              <span />
              <span />
              <span />
            </div>
          ) : (
            <p className="muted">No answer was written.</p>
          )}
        </div>
        {drafts.length > 0 ? (
          <details className="drafts" data-testid="drafts">
            <summary className="small">Earlier drafts ({drafts.length})</summary>
            {drafts.map((draft, i) => (
              <div key={i} className="draft">
                <p className="small muted">Pass {i + 1} draft</p>
                <CitationContext.Provider
                  value={{ repositoryId, generationId, citations, pending: streaming }}
                >
                  <AnswerMarkdown text={draft} />
                </CitationContext.Provider>
              </div>
            ))}
          </details>
        ) : null}
        {diagrams.map((diagram, i) => (
          <DiagramView
            key={`${i}:${diagram.mermaid.length}`}
            diagram={diagram}
            repositoryId={repositoryId}
            generationId={generationId}
          />
        ))}
        <AnswerMeta metadata={settled ? message.metadata : undefined} />
      </div>
      <SideResizer />
      <aside className="turn-side" aria-label={`How answer ${ordinal} was found`}>
        <PassTimeline
          answerHeadingId={answerHeadingId}
          classification={classification}
          passes={passes}
          repositoryId={repositoryId}
          generationId={generationId}
          streaming={streaming}
        />
        <GapsPanel
          answerHeadingId={answerHeadingId}
          gaps={gaps}
          repositoryId={repositoryId}
          generationId={generationId}
          streaming={streaming}
          stopReason={stopReason}
          filling={filling}
        />
        <CitationList
          answerHeadingId={answerHeadingId}
          citations={citations}
          repositoryId={repositoryId}
          generationId={generationId}
          settled={settled}
          highlighted={highlighted}
          drift={drift}
        />
      </aside>
    </div>
  );
}
