/** The key a citation is known by across panels: `path:start-end` (pure, usable on server and client). */
import type { CitationPart } from "@/lib/qa/types";

export function citationKey(c: Pick<CitationPart, "path" | "startLine" | "endLine">): string {
  return `${c.path}:${c.startLine}-${c.endLine}`;
}
