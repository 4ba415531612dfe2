/**
 * Verifies the citations in an answer against the question's index generation: the
 * file exists there, the lines exist, and a named symbol is at those lines. Verified
 * citations carry the lines their snippet shows, as indexed (`shown-lines.ts`: the lines
 * that answer within the cited span); unverified ones are flagged.
 */
import "server-only";
import { fileLinesOf } from "../db/index-reads.ts";
import { symbolSpansInFiles } from "../db/code-graph.ts";
import { isSafeRelativePath } from "../paths.ts";
import { citationRangeKey, mergeOverlapping, parseCitations, verifyCitations } from "./citations.ts";
import type { SourceReader } from "./context.ts";
import type { FocusQuery } from "./focus.ts";
import { citationCues, mergeCues, shownLines, type CitationCues } from "./shown-lines.ts";
import type { CitationPart } from "./types.ts";

export async function verifyAnswerCitations(
  answer: string,
  generationId: string,
  reader: SourceReader,
  /** what the question looks for in code: the snippet shows the lines matching it */
  query: FocusQuery | null = null,
): Promise<CitationPart[]> {
  const parsed = parseCitations(answer);
  const paths = [...new Set(parsed.map((c) => c.path))].filter(isSafeRelativePath);
  const files = await fileLinesOf(generationId, paths);
  const symbols = await symbolSpansInFiles(generationId, [...files.keys()]);
  const symbolsAt = (p: string, start: number, end: number) =>
    (symbols.get(p) ?? []).filter((s) => s.startLine <= end && s.endLine >= start);
  // Overlapping citations of one file are one stretch of it: listed once, shown once.
  const verified = verifyCitations(parsed, { fileLines: (p) => files.get(p)?.lines ?? null, symbolsAt });
  const results = mergeOverlapping(verified, symbolsAt);
  // What the answer says at each citation, by its lines: a merged citation gets all of it.
  const cues = new Map<string, CitationCues[]>();
  const spans = parsed.map((c) => ({ index: c.index, length: c.raw.length }));
  verified.forEach((c, i) => {
    const key = citationRangeKey(c);
    const own = [c.namedSymbol, c.symbol];
    cues.set(key, [...(cues.get(key) ?? []), citationCues(answer, spans[i]!, spans, own)]);
  });
  const out: CitationPart[] = [];
  const seen = new Set<string>();
  for (const r of results) {
    const key = `${r.path}:${r.startLine}-${r.endLine}`;
    if (seen.has(key)) continue;
    seen.add(key);
    let snippet: string | null = null;
    let shown: CitationPart["shown"];
    const lines = r.verified ? await reader.lines(r.path) : null;
    if (lines) {
      shown = shownLines({
        lines,
        startLine: r.startLine,
        endLine: r.endLine,
        symbolStart: symbolsAt(r.path, r.startLine, r.startLine).some((s) => s.startLine === r.startLine),
        query,
        cues: mergeCues(r.alsoCites.flatMap((k) => cues.get(k) ?? [])),
      });
      snippet = lines.slice(shown.startLine - 1, shown.endLine).join("\n");
    }
    out.push({
      raw: r.raw,
      path: r.path,
      startLine: r.startLine,
      endLine: r.endLine,
      verified: r.verified,
      reason: r.reason,
      symbol: r.symbol,
      wholeFile: r.wholeFile,
      snippet,
      ...(shown ? { shown } : {}),
      ...(r.alsoCites.length > 1 ? { alsoCites: r.alsoCites } : {}),
      language: files.get(r.path)?.language ?? null,
    });
  }
  return out;
}
