/**
 * Chooses what the chat starts from: a new session, or a stored one the page loaded
 * on the server (rendered with the page, so a reopened conversation shows at first
 * paint instead of after the script, a fetch and a second render), with clear states
 * for an unknown session or one of another repository.
 */
import Link from "next/link";
import type { ReactNode } from "react";
import type { WayfinderUIMessage } from "@/lib/qa/types";
import { Chat } from "./chat";
import type { MessageExtras } from "./conversation";

export interface StoredConversation {
  repositoryId: string;
  messages: WayfinderUIMessage[];
  /** the first citations of each answer, highlighted on the server */
  extras: Record<string, MessageExtras>;
}

interface ChatWorkspaceProps {
  repositoryId: string;
  repositoryName: string;
  sessionId: string;
  /** the URL named this session: its stored conversation, or null when there is none */
  stored: StoredConversation | null | undefined;
  /** true when the URL named a session (continue it), false for a fresh one */
  resume: boolean;
  toolbar?: ReactNode;
  /** text to start the question box with */
  initialDraft?: string;
}

export function ChatWorkspace({
  repositoryId,
  repositoryName,
  sessionId,
  stored,
  resume,
  toolbar,
  initialDraft,
}: ChatWorkspaceProps) {
  const newChat = `/repos/${encodeURIComponent(repositoryId)}`;
  if (resume && !stored) {
    return (
      <div className="card empty" role="alert" data-testid="unknown-session">
        <h2>This conversation does not exist</h2>
        <p className="muted">The session id in the link is unknown: it may have been mistyped or removed.</p>
        <p>
          <Link className="button" href={newChat}>
            Start a new conversation
          </Link>
        </p>
      </div>
    );
  }
  if (stored && stored.repositoryId !== repositoryId) {
    return (
      <div className="card empty" role="alert" data-testid="unknown-session">
        <h2>This conversation belongs to another repository</h2>
        <p>
          <Link
            href={`/repos/${encodeURIComponent(stored.repositoryId)}?session=${encodeURIComponent(sessionId)}`}
          >
            Open it there
          </Link>{" "}
          or <Link href={newChat}>start a new conversation here</Link>.
        </p>
      </div>
    );
  }
  return (
    <Chat
      repositoryId={repositoryId}
      repositoryName={repositoryName}
      sessionId={sessionId}
      initialMessages={stored?.messages ?? []}
      extras={stored?.extras}
      toolbar={toolbar}
      initialDraft={initialDraft}
    />
  );
}
