/** How citations are known and shown across panels: the key `path:start-end` and how many show first (pure, usable on server and client). */
import type { CitationPart } from "@/lib/qa/types";

export function citationKey(c: Pick<CitationPart, "path" | "startLine" | "endLine">): string {
  return `${c.path}:${c.startLine}-${c.endLine}`;
}

/** Citations shown before "Show N more" (and highlighted with the page when a chat is reopened). */
export const FIRST_CITATIONS = 4;
