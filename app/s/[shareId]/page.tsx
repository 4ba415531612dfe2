/**
 * A shared conversation, read-only: every question and answer with its timeline,
 * gaps, citations and diagrams, pinned to the generation it was answered against.
 * Each verified citation says whether its lines have changed in the repository's
 * current index since (or the file was removed), naming the generations compared.
 * Diagrams arrive laid out and snippets highlighted: the page is complete as served.
 */
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { CitationDrift } from "@/components/citations/citation-list";
import { citationKey } from "@/components/citations/citation-key";
import { highlightCitations } from "@/components/citations/highlight-citations";
import { citationsOf } from "@/components/chat/message-parts";
import { Conversation, type MessageExtras } from "@/components/chat/conversation";
import { citationDrift } from "@/components/share/citation-drift";
import { CommitRef } from "@/components/repos/commit-ref";
import { generationNumber, getGeneration } from "@/lib/db/generations";
import { getFileContent } from "@/lib/db/index-reads";
import { requireShareAccess } from "@/lib/auth/page";
import { getSharedConversation } from "@/lib/qa/conversations";
import type { WayfinderUIMessage } from "@/lib/qa/types";

export const dynamic = "force-dynamic";

interface PageProps {
  params: Promise<{ shareId: string }>;
}

export async function generateMetadata({ params }: PageProps): Promise<Metadata> {
  const { shareId } = await params;
  await requireShareAccess(`/s/${encodeURIComponent(shareId)}`);
  const shared = await getSharedConversation(shareId);
  // Share links are private by being unguessable: keep them out of search indexes.
  return {
    title: shared ? shared.session.title || "Shared conversation" : "Not found",
    robots: { index: false },
  };
}

async function extrasFor(
  message: WayfinderUIMessage,
  active: { id: string; number: number } | null,
  fallbackGenerationId: string,
): Promise<MessageExtras> {
  const pinned = message.metadata?.generationId ?? fallbackGenerationId;
  const answeredIn = (await getGeneration(pinned))?.number ?? null;
  const highlighted = await highlightCitations(citationsOf(message));
  const drift: Record<string, CitationDrift> = {};
  const files = new Map<string, Promise<string | null>>();
  const read = (generationId: string, path: string) => {
    const key = `${generationId}\n${path}`;
    if (!files.has(key)) files.set(key, getFileContent(generationId, path));
    return files.get(key) as Promise<string | null>;
  };
  for (const citation of citationsOf(message).filter((c) => c.verified)) {
    const key = citationKey(citation);
    if (!active || answeredIn === null) continue;
    const status =
      active.id === pinned
        ? "unchanged"
        : citationDrift(citation, await read(pinned, citation.path), await read(active.id, citation.path));
    drift[key] = { status, answeredIn, current: active.number };
  }
  return { highlighted, drift };
}

export default async function SharePage({ params }: PageProps) {
  const { shareId } = await params;
  await requireShareAccess(`/s/${encodeURIComponent(shareId)}`);
  const shared = await getSharedConversation(shareId);
  if (!shared) notFound();
  const { session, repository, messages } = shared;
  const [pinned, active] = await Promise.all([
    getGeneration(session.generationId),
    repository.activeGenerationId ? getGeneration(repository.activeGenerationId) : null,
  ]);
  const extras: Record<string, MessageExtras> = {};
  for (const message of messages) {
    if (message.role === "assistant") {
      extras[message.id] = await extrasFor(message, active, session.generationId);
    }
  }
  const reindexed = !!active && active.id !== session.generationId;

  return (
    <article className="share-page" data-testid="share-page">
      <header className="share-header">
        <p className="badge">read-only shared conversation</p>
        <h1 data-testid="share-title">Conversation about {repository.name}</h1>
        <div className="stat-row">
          <span>
            {messages.filter((m) => m.role === "user").length} question
            {messages.filter((m) => m.role === "user").length === 1 ? "" : "s"}
          </span>
          {pinned ? (
            <span className="badge ok" data-testid="share-generation">
              answered on generation {generationNumber(pinned)}
            </span>
          ) : null}
          {pinned?.commitSha ? (
            <span data-testid="share-commit">
              commit <CommitRef sha={pinned.commitSha} />
            </span>
          ) : null}
          <time dateTime={session.createdAt.toISOString()}>
            {session.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC
          </time>
        </div>
        {reindexed ? (
          <p className="notice notice-info small" role="status" data-testid="share-reindexed">
            {repository.name} has been re-indexed since (now generation {generationNumber(active)}). Each
            citation says whether its lines changed since.
          </p>
        ) : null}
      </header>
      {messages.length === 0 ? (
        <p className="card empty muted">This conversation has no messages yet.</p>
      ) : (
        <Conversation messages={messages} repositoryId={repository.id} extras={extras} />
      )}
    </article>
  );
}
