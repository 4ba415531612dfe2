"use client";
/**
 * Chooses what the chat starts from: a new session, or a stored one loaded from
 * GET /api/sessions/[id] (with a loading state that has the chat's shape, and clear
 * states for an unknown session or one of another repository).
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type ReactNode } from "react";
import { ApiError, fetchJson } from "@/components/api/fetch-json";
import type { WayfinderUIMessage } from "@/lib/qa/types";
import { Chat } from "./chat";

interface SessionResponse {
  session: { id: string; repositoryId: string; generationId: string; title: string; shareId: string | null };
  messages: WayfinderUIMessage[];
}

interface ChatWorkspaceProps {
  repositoryId: string;
  repositoryName: string;
  sessionId: string;
  /** true when the URL named this session (continue it), false for a fresh one */
  resume: boolean;
  toolbar?: ReactNode;
  /** text to start the question box with */
  initialDraft?: string;
}

export function ChatWorkspace({
  repositoryId,
  repositoryName,
  sessionId,
  resume,
  toolbar,
  initialDraft,
}: ChatWorkspaceProps) {
  // Decided once: after the first question the URL names the new session too, and a
  // server refresh must not turn a live chat into a reload of itself.
  const [load] = useState(resume);
  const stored = useQuery({
    queryKey: ["session", sessionId],
    queryFn: () => fetchJson<SessionResponse>(`/api/sessions/${encodeURIComponent(sessionId)}`),
    enabled: load,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const newChat = `/repos/${encodeURIComponent(repositoryId)}`;

  if (load && stored.isPending) {
    return (
      <div className="chat" aria-busy="true" data-testid="session-loading">
        <p className="muted" role="status">
          Loading the conversation…
        </p>
        <div className="answer-skeleton" aria-hidden>
          <span />
          <span />
          <span />
        </div>
      </div>
    );
  }
  if (load && stored.isError) {
    const unknown =
      stored.error instanceof ApiError && (stored.error.status === 404 || stored.error.status === 400);
    return (
      <div className="card empty" role="alert" data-testid={unknown ? "unknown-session" : "session-error"}>
        <h2>{unknown ? "This conversation does not exist" : "The conversation could not be loaded"}</h2>
        <p className="muted">
          {unknown
            ? "The session id in the link is unknown: it may have been mistyped or removed."
            : stored.error.message}
        </p>
        <p>
          {unknown ? null : (
            <button type="button" className="button secondary" onClick={() => void stored.refetch()}>
              Try again
            </button>
          )}{" "}
          <Link className="button" href={newChat}>
            Start a new conversation
          </Link>
        </p>
      </div>
    );
  }
  if (load && stored.data && stored.data.session.repositoryId !== repositoryId) {
    return (
      <div className="card empty" role="alert" data-testid="unknown-session">
        <h2>This conversation belongs to another repository</h2>
        <p>
          <Link
            href={`/repos/${encodeURIComponent(stored.data.session.repositoryId)}?session=${encodeURIComponent(sessionId)}`}
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
      initialMessages={load ? (stored.data?.messages ?? []) : []}
      toolbar={toolbar}
      initialDraft={initialDraft}
    />
  );
}
