/**
 * Recent conversations of a repository, newest first, as links that continue them.
 * Collapsed by default so it never pushes the chat down.
 */
import Link from "next/link";

export interface SessionLink {
  id: string;
  title: string;
  lastAccessedAt: string;
}

export function SessionList({
  repositoryId,
  sessions,
  current,
}: {
  repositoryId: string;
  sessions: SessionLink[];
  current: string | null;
}) {
  if (sessions.length === 0) return null;
  return (
    <details className="session-list" data-testid="session-list">
      <summary>Recent conversations ({sessions.length})</summary>
      <ul className="plain-list">
        {sessions.map((s) => (
          <li key={s.id}>
            <Link
              href={`/repos/${encodeURIComponent(repositoryId)}?session=${encodeURIComponent(s.id)}`}
              aria-current={s.id === current ? "page" : undefined}
              data-testid="session-link"
            >
              {s.title || "Untitled conversation"}
            </Link>{" "}
            <time className="muted small" dateTime={s.lastAccessedAt}>
              {new Date(s.lastAccessedAt).toISOString().slice(0, 16).replace("T", " ")}
            </time>
          </li>
        ))}
      </ul>
    </details>
  );
}
