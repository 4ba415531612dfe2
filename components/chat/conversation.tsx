"use client";
/**
 * A conversation as question/answer turns. The live chat passes which answer is
 * streaming (and a placeholder answer while waiting for the first byte, so the
 * layout is in place before anything arrives); the share page renders it settled.
 */
import type { CitationDrift } from "@/components/citations/citation-list";
import type { HighlightedSnippets } from "@/components/citations/use-highlighted-snippets";
import type { WayfinderUIMessage } from "@/lib/qa/types";
import { AssistantMessage } from "./assistant-message";
import type { GapAnswerInput } from "./gap-fill-form";
import { questionOf } from "./message-parts";

const PENDING: WayfinderUIMessage = { id: "pending-answer", role: "assistant", parts: [] };

interface ConversationProps {
  messages: WayfinderUIMessage[];
  repositoryId: string;
  /** the last answer is streaming (or about to) */
  streaming?: boolean;
  /** share page: server-highlighted snippets and citation drift, by message id */
  extras?: Record<string, MessageExtras>;
  /** a live chat: lets the user fill the latest answer's open gaps (it continues that answer) */
  onFillGaps?: { sessionId: string; continueAnswer: (answerId: string, answers: GapAnswerInput[]) => void };
}

export interface MessageExtras {
  highlighted: HighlightedSnippets;
  /** share pages: whether each citation's lines changed since */
  drift?: Record<string, CitationDrift>;
}

export function Conversation({
  messages,
  repositoryId,
  streaming = false,
  extras,
  onFillGaps,
}: ConversationProps) {
  const shown = streaming && messages.at(-1)?.role === "user" ? [...messages, PENDING] : messages;
  // Only the latest answer can be continued: the questions after an earlier one built on it.
  const latest = shown.at(-1);
  const filling =
    onFillGaps && !streaming && latest?.role === "assistant"
      ? {
          sessionId: onFillGaps.sessionId,
          answerId: latest.id,
          onContinue: (answers: GapAnswerInput[]) => onFillGaps.continueAnswer(latest.id, answers),
        }
      : undefined;
  return (
    <ol className="conversation" data-testid="conversation">
      {shown.map((message, index) =>
        message.role === "user" ? (
          <li key={message.id} className="turn-question" data-testid="user-message">
            <span className="visually-hidden">Question: </span>
            <p>{questionOf(message)}</p>
          </li>
        ) : message.role === "assistant" ? (
          <li key={message.id === PENDING.id ? PENDING.id : message.id} className="turn">
            <AssistantMessage
              message={message}
              repositoryId={repositoryId}
              streaming={streaming && index === shown.length - 1}
              ordinal={shown.slice(0, index + 1).filter((m) => m.role === "assistant").length}
              filling={index === shown.length - 1 ? filling : undefined}
              highlighted={extras?.[message.id]?.highlighted}
              drift={extras?.[message.id]?.drift}
            />
          </li>
        ) : null,
      )}
    </ol>
  );
}
