"use client";
/**
 * Highlighted HTML for citation snippets, fetched from /api/highlight (shiki runs on
 * the server, see components/source/highlight.ts) and cached by react-query so
 * re-renders while streaming do not refetch. Only the citations on screen are asked
 * for, each in parts (snippet-parts.ts) so a large snippet is never refused; a part
 * that is not highlighted is shown plain.
 */
import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/components/api/fetch-json";
import type { CitationPart } from "@/lib/qa/types";
import { highlightKey, snippetLines } from "./citation-key";
import { snippetParts } from "./snippet-parts";

/** Per highlight key (citation-key.ts), the HTML of each part of its snippet (null: shown plain). */
export type HighlightedSnippets = Record<string, (string | null)[]>;

/** The route takes at most this many parts per request. */
const PER_REQUEST = 60;

async function highlight(citations: CitationPart[]): Promise<HighlightedSnippets> {
  const jobs = citations.flatMap((c) =>
    snippetParts(c.snippet ?? "", snippetLines(c).startLine).map((part, index) => ({
      key: highlightKey(c),
      index,
      part,
      c,
    })),
  );
  const out: HighlightedSnippets = {};
  for (const job of jobs) (out[job.key] ??= [])[job.index] = null;
  const wanted = jobs.filter((j) => j.part.highlight);
  for (let i = 0; i < wanted.length; i += PER_REQUEST) {
    const batch = wanted.slice(i, i + PER_REQUEST);
    const { html } = await fetchJson<{ html: string[] }>("/api/highlight", {
      method: "POST",
      body: JSON.stringify({
        items: batch.map((j) => ({ code: j.part.code, language: j.c.language, firstLine: j.part.firstLine })),
      }),
    });
    batch.forEach((j, n) => ((out[j.key] as (string | null)[])[j.index] = html[n] ?? null));
  }
  return out;
}

export function useHighlightedSnippets(citations: CitationPart[], enabled: boolean): HighlightedSnippets {
  const items = citations.filter((c) => c.verified && c.snippet);
  const query = useQuery({
    queryKey: ["highlight", items.map((c) => `${highlightKey(c)}\n${c.language}`)],
    queryFn: () => highlight(items),
    enabled: enabled && items.length > 0,
    staleTime: Infinity,
    retry: 1,
  });
  return query.data ?? {};
}
