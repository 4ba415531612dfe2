/**
 * What a retrieval signal ranks: a symbol, a chunk of text, or both, under one key, with
 * the reason it was put forward. Its own module so the helpers that narrow a candidate
 * (answering.ts) and the fusion that ranks them (shared.ts) both read it without importing
 * each other.
 */
import type { ChunkHit, SymbolRecord } from "../../db/code-graph.ts";

export interface Candidate {
  key: string;
  symbol: SymbolRecord | null;
  chunk: ChunkHit | null;
  reason: string;
}
