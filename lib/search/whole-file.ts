/**
 * The whole-file lexical channel: whole files ranked by BM25 of the question's words
 * (lib/db/file-terms.ts), the ranking the benchmarks' baseline computes. Every mode
 * fuses it, so what plain BM25 finds is never lost to chunking, anchors or demotion.
 */
import "server-only";
import { bm25Files, type FileScore } from "../db/file-terms.ts";
import { queryTerms } from "../db/tokenize.ts";

export interface WholeFileOptions {
  limit?: number;
  pathPrefix?: string;
}

export async function wholeFileSearch(
  generationId: string,
  question: string,
  options: WholeFileOptions = {},
): Promise<FileScore[]> {
  const words = queryTerms(question, 200).map((word) => ({ word, weight: 1 }));
  return bm25Files(generationId, words, options);
}
