/**
 * An answer as structured claims: each statement (a list item, or a sentence of a
 * paragraph) with the citations written in it, each resolved to its verification
 * result. Coding agents read claims instead of prose: which statement rests on which
 * lines, and whether those lines were checked against the index.
 */
import { parseCitations } from "./citations.ts";
import type { CitationPart } from "./types.ts";

export interface Claim {
  /** the statement as written, without list markers */
  text: string;
  /** citations in the statement, verified or not (the verification result says) */
  citations: CitationPart[];
  /** true when the statement cites something and every citation was verified */
  verified: boolean;
}

const citationKey = (c: { path: string; startLine: number; endLine: number }) =>
  `${c.path}:${c.startLine}-${c.endLine}`;

/** Statement spans of the text: list items and headings whole, paragraphs split into sentences. */
function statementSpans(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  let offset = 0;
  let inFence = false;
  for (const line of text.split("\n")) {
    const start = offset;
    offset += line.length + 1;
    if (/^[ \t]*(?:```|~~~)/.test(line)) inFence = !inFence;
    if (inFence || !line.trim() || /^[ \t]*(?:```|~~~)/.test(line)) continue;
    if (/^\s*(?:[-*+]|\d+[.)]|#{1,6})\s/.test(line)) {
      spans.push({ start, end: start + line.length });
      continue;
    }
    // Sentence ends: ". " (or ! ?) before a capital, a backtick or a bracket.
    let from = 0;
    for (const m of line.matchAll(/[.!?](?=\s+[A-Z`[(*])/g)) {
      const end = (m.index ?? 0) + 1;
      spans.push({ start: start + from, end: start + end });
      from = end;
    }
    spans.push({ start: start + from, end: start + line.length });
  }
  return spans;
}

/** The answer's cited statements, in order, with the verification of each citation. */
export function claimsOf(answer: string, verified: CitationPart[]): Claim[] {
  const byKey = new Map(
    verified.flatMap((c) => [
      [citationKey(c), c] as const,
      ...(c.alsoCites ?? []).map((k) => [k, c] as const),
    ]),
  );
  const cited = parseCitations(answer);
  const claims: Claim[] = [];
  for (const span of statementSpans(answer)) {
    const inside = cited.filter((c) => c.index >= span.start && c.index < span.end);
    if (inside.length === 0) continue;
    const citations: CitationPart[] = [];
    for (const c of inside) {
      const result = byKey.get(citationKey(c));
      if (result && !citations.includes(result)) citations.push(result);
    }
    if (citations.length === 0) continue;
    const text = answer
      .slice(span.start, span.end)
      .replace(/^\s*(?:[-*+]|\d+[.)]|#{1,6})\s+/, "")
      .trim();
    claims.push({ text, citations, verified: citations.every((c) => c.verified) });
  }
  return claims;
}
