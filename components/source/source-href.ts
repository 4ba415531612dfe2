/**
 * Links into the source view. Every citation, diagram node and gap location goes
 * through here so they all land on the same URL shape: the path and line range as
 * query parameters (validated by the page) and a `#L<start>` anchor to scroll to.
 * Links to it are not prefetched (`prefetch={false}`): an answer shows dozens, and
 * prefetching rendered the source view once for each while the chat was loading.
 */
export interface SourceTarget {
  repositoryId: string;
  path: string;
  startLine?: number | null;
  endLine?: number | null;
  /** pin to a generation (share pages); the repository's active one otherwise */
  generationId?: string | null;
}

export function sourceHref({ repositoryId, path, startLine, endLine, generationId }: SourceTarget): string {
  const params = new URLSearchParams({ path });
  if (startLine)
    params.set("lines", endLine && endLine !== startLine ? `${startLine}-${endLine}` : `${startLine}`);
  if (generationId) params.set("generation", generationId);
  return `/repos/${encodeURIComponent(repositoryId)}/source?${params.toString()}${startLine ? `#L${startLine}` : ""}`;
}

/** Parses `10-20` or `10` into an inclusive range; null for anything else. */
export function parseLineRange(value: string | null | undefined): { start: number; end: number } | null {
  const match = /^(\d{1,7})(?:-(\d{1,7}))?$/.exec(value ?? "");
  if (!match) return null;
  const start = Number(match[1]);
  const end = match[2] ? Number(match[2]) : start;
  if (start < 1 || end < start) return null;
  return { start, end };
}
