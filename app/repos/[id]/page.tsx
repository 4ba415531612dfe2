/**
 * A repository's chat. `?session=<id>` continues a stored conversation of the caller's,
 * loaded here and rendered with the page; without it (or for someone else's) a new
 * session id is minted here and becomes the chat id (the URL adopts it on the first
 * question). "Recent conversations" lists only the caller's own. A repository without a
 * finished index shows its build instead.
 */
import { randomUUID } from "node:crypto";
import type { Metadata } from "next";
import Link from "next/link";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { ChatWorkspace } from "@/components/chat/chat-workspace";
import { SessionList } from "@/components/chat/session-list";
import { CommitRef } from "@/components/repos/commit-ref";
import { seesGitReasons } from "@/lib/auth/guards";
import { requirePageAccess } from "@/lib/auth/page";
import { WaitingForIndex } from "@/components/repos/waiting-for-index";
import { pageConversations } from "@/lib/auth/conversation-owner";
import { getSession } from "@/lib/db/sessions";
import { conversationMessages, listOwnSessions, mayRead } from "@/lib/qa/conversations";
import type { WayfinderUIMessage } from "@/lib/qa/types";
import { highlightCitations } from "@/components/citations/highlight-citations";
import { FIRST_CITATIONS } from "@/components/citations/citation-key";
import { citationsOf } from "@/components/chat/message-parts";
import type { MessageExtras } from "@/components/chat/conversation";
import { getRepositoryView } from "@/lib/db/ui-queries";
import { repositoryViewFor } from "@/lib/sources/git-errors";

export const dynamic = "force-dynamic";

interface PageProps {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata({ params }: PageProps): Promise<Metadata> {
  const { id } = await params;
  await requirePageAccess("reader", `/repos/${encodeURIComponent(id)}`);
  const repository = await getRepositoryView(id);
  return { title: repository ? repository.name : "Repository not found" };
}

/** Each stored answer's first citations, highlighted here so the reopened chat is complete at first paint. */
async function firstCitationsHighlighted(
  messages: WayfinderUIMessage[],
): Promise<Record<string, MessageExtras>> {
  const extras: Record<string, MessageExtras> = {};
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    extras[message.id] = {
      highlighted: await highlightCitations(citationsOf(message).slice(0, FIRST_CITATIONS)),
    };
  }
  return extras;
}

export default async function RepositoryChatPage({ params, searchParams }: PageProps) {
  const [{ id }, query] = await Promise.all([params, searchParams]);
  const identity = await requirePageAccess("reader", `/repos/${encodeURIComponent(id)}`);
  const view = await getRepositoryView(id);
  if (!view) notFound();
  const repository = repositoryViewFor(view, seesGitReasons(identity));
  const conversations = pageConversations(await headers(), identity);
  const requested = typeof query.session === "string" && query.session ? query.session : null;
  // Someone else's conversation opens as a new one, as if it did not exist.
  const existing = requested ? await getSession(requested) : null;
  const readable = existing && mayRead(existing, conversations) ? existing : null;
  const sessionId = requested && (!existing || readable) ? requested : randomUUID();
  const conversation = readable
    ? { session: readable, messages: await conversationMessages(readable) }
    : null;
  // `?ask=` prefills the question box (e.g. "Ask about this file" from a wiki page); it is never sent by itself.
  const ask = typeof query.ask === "string" ? query.ask.slice(0, 2000) : "";
  const sessions = (await listOwnSessions(repository.id, conversations, 12)).map((s) => ({
    id: s.id,
    title: s.title,
    lastAccessedAt: s.lastAccessedAt.toISOString(),
  }));

  return (
    <section className="chat-page">
      <header className="chat-header">
        <div className="chat-title">
          <h1>{repository.name}</h1>
          {repository.active ? (
            <span className="badge ok" data-testid="chat-generation">
              generation {repository.active.number}
            </span>
          ) : null}
          {repository.active?.commitSha ? (
            <CommitRef sha={repository.active.commitSha} testId="chat-commit" />
          ) : null}
          {repository.status === "indexing" && repository.active ? (
            <span className="badge">re-indexing</span>
          ) : null}
        </div>
        <nav className="chat-nav" aria-label="Conversation">
          <Link href="/" className="small">
            All repositories
          </Link>
          {repository.active ? (
            <>
              <Link
                href={`/repos/${encodeURIComponent(repository.id)}/wiki`}
                className="small"
                data-testid="nav-wiki"
              >
                Wiki
              </Link>
              <Link
                href={`/repos/${encodeURIComponent(repository.id)}/issues`}
                className="small"
                data-testid="nav-issues"
              >
                Issues
              </Link>
            </>
          ) : null}
          <Link
            href={`/repos/${encodeURIComponent(repository.id)}`}
            className="button secondary"
            data-testid="new-chat"
          >
            New conversation
          </Link>
        </nav>
      </header>
      {repository.active ? (
        <ChatWorkspace
          initialDraft={ask}
          key={sessionId}
          repositoryId={repository.id}
          repositoryName={repository.name}
          sessionId={sessionId}
          resume={requested !== null}
          stored={
            conversation
              ? {
                  repositoryId: conversation.session.repositoryId,
                  messages: conversation.messages,
                  extras: await firstCitationsHighlighted(conversation.messages),
                }
              : null
          }
          toolbar={<SessionList repositoryId={repository.id} sessions={sessions} current={requested} />}
        />
      ) : (
        <WaitingForIndex initial={repository} />
      )}
    </section>
  );
}
