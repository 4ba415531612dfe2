/**
 * The whole-file lexical channel: whole files ranked by BM25 (lib/db/file-terms.ts),
 * the ranking the benchmarks' baseline computes, over the question's weighted and
 * expanded words (lib/search/query.ts). Every mode fuses it, so what plain BM25 finds
 * is never lost to chunking, anchors or demotion.
 */
import "server-only";
import { bm25Files, type FileScore } from "../db/file-terms.ts";
import { repositoryAssociations } from "./associations/learned.ts";
import { questionWords } from "./query.ts";

export interface WholeFileOptions {
  limit?: number;
  pathPrefix?: string;
  kind?: "code" | "text";
}

export async function wholeFileSearch(
  generationId: string,
  question: string,
  options: WholeFileOptions = {},
): Promise<FileScore[]> {
  const repository = await repositoryAssociations(generationId);
  return bm25Files(generationId, questionWords(question, { maxTerms: 200, repository }), options);
}
