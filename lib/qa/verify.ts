/**
 * Verifies the citations in an answer against the question's index generation: the
 * file exists there, the lines exist, and a named symbol is at those lines. Verified
 * citations carry the cited snippet as indexed; unverified ones are flagged.
 */
import "server-only";
import { getFile } from "../db/index-reads.ts";
import { symbolSpansInFiles } from "../db/code-graph.ts";
import { isSafeRelativePath } from "../paths.ts";
import { mergeOverlapping, parseCitations, verifyCitations } from "./citations.ts";
import type { SourceReader } from "./context.ts";
import type { CitationPart } from "./types.ts";

const MAX_SNIPPET_LINES = 40;

export async function verifyAnswerCitations(
  answer: string,
  generationId: string,
  reader: SourceReader,
): Promise<CitationPart[]> {
  const parsed = parseCitations(answer);
  const paths = [...new Set(parsed.map((c) => c.path))].filter(isSafeRelativePath);
  const files = new Map<string, { lines: number; language: string }>();
  for (const p of paths) {
    const file = await getFile(generationId, p);
    if (file) files.set(p, { lines: file.lines, language: file.language });
  }
  const symbols = await symbolSpansInFiles(generationId, [...files.keys()]);
  const symbolsAt = (p: string, start: number, end: number) =>
    (symbols.get(p) ?? []).filter((s) => s.startLine <= end && s.endLine >= start);
  // Overlapping citations of one file are one stretch of it: listed once, shown once.
  const results = mergeOverlapping(
    verifyCitations(parsed, { fileLines: (p) => files.get(p)?.lines ?? null, symbolsAt }),
    symbolsAt,
  );
  const out: CitationPart[] = [];
  const seen = new Set<string>();
  for (const r of results) {
    const key = `${r.path}:${r.startLine}-${r.endLine}`;
    if (seen.has(key)) continue;
    seen.add(key);
    let snippet: string | null = null;
    if (r.verified) {
      const end = Math.min(r.endLine, r.startLine + MAX_SNIPPET_LINES - 1);
      snippet = await reader.slice(r.path, r.startLine, end);
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
      ...(r.alsoCites.length > 1 ? { alsoCites: r.alsoCites } : {}),
      language: files.get(r.path)?.language ?? null,
    });
  }
  return out;
}
