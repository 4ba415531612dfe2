/**
 * Citation snippets highlighted on the server, in the parts the chat would ask for
 * (snippet-parts.ts): the share page highlights every citation, a reopened chat the
 * ones it shows first, so those pages are complete as served.
 */
import "server-only";
import { highlightCode } from "@/components/source/highlight";
import type { CitationPart } from "@/lib/qa/types";
import { highlightKey, snippetLines } from "./citation-key";
import { snippetParts } from "./snippet-parts";
import type { HighlightedSnippets } from "./use-highlighted-snippets";

export async function highlightCitations(citations: CitationPart[]): Promise<HighlightedSnippets> {
  const out: HighlightedSnippets = {};
  for (const c of citations) {
    if (!c.verified || !c.snippet) continue;
    out[highlightKey(c)] = await Promise.all(
      snippetParts(c.snippet, snippetLines(c).startLine).map((part) =>
        part.highlight ? highlightCode({ ...part, language: c.language }) : null,
      ),
    );
  }
  return out;
}
