/** How citations are known and shown across panels: the key `path:start-end` and how many show first (pure, usable on server and client). */
import type { CitationPart } from "@/lib/qa/types";

export function citationKey(c: Pick<CitationPart, "path" | "startLine" | "endLine">): string {
  return `${c.path}:${c.startLine}-${c.endLine}`;
}

/**
 * The file lines a citation's snippet shows: those recorded with it, or in answers stored
 * before they were (`shown` absent), as many lines as the snippet holds from the span's
 * first line.
 */
export function snippetLines(c: Pick<CitationPart, "startLine" | "snippet" | "shown">): {
  startLine: number;
  endLine: number;
} {
  if (c.shown) return c.shown;
  const text = c.snippet ?? "";
  const count = (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n").length;
  return { startLine: c.startLine, endLine: c.startLine + count - 1 };
}

/** Citations shown before "Show N more" (and highlighted with the page when a chat is reopened). */
export const FIRST_CITATIONS = 4;

/**
 * The key of a citation's highlighted snippet: its location, where the snippet starts and a hash of the text, so
 * HTML highlighted from other text (the server's copy of an answer the browser
 * streamed) is never shown for it.
 */
export function highlightKey(
  c: Pick<CitationPart, "path" | "startLine" | "endLine" | "snippet" | "shown">,
): string {
  let hash = 5381;
  const text = c.snippet ?? "";
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) + hash + text.charCodeAt(i)) | 0;
  return `${citationKey(c)}@${snippetLines(c).startLine}#${(hash >>> 0).toString(36)}`;
}
