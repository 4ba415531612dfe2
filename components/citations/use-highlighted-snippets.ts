"use client";
/**
 * Highlighted HTML for citation snippets, fetched in one batch from /api/highlight
 * (shiki runs on the server, see components/source/highlight.ts) and cached by
 * react-query so re-renders while streaming do not refetch.
 */
import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/components/api/fetch-json";
import type { CitationPart } from "@/lib/qa/types";
import { citationKey } from "./citation-key";

export function useHighlightedSnippets(citations: CitationPart[], enabled: boolean): Record<string, string> {
  const items = citations.filter((c) => c.verified && c.snippet);
  const query = useQuery({
    queryKey: ["highlight", items.map((c) => `${citationKey(c)}\n${c.language}\n${c.snippet}`)],
    queryFn: async () => {
      const { html } = await fetchJson<{ html: string[] }>("/api/highlight", {
        method: "POST",
        body: JSON.stringify({
          items: items.map((c) => ({ code: c.snippet ?? "", language: c.language, firstLine: c.startLine })),
        }),
      });
      return Object.fromEntries(items.map((c, i) => [citationKey(c), html[i] ?? ""]));
    },
    enabled: enabled && items.length > 0,
    staleTime: Infinity,
    retry: 1,
  });
  return query.data ?? {};
}
