/**
 * Retrieval without an answer for people: the full CGRAG loop with the evidence
 * engine, reported as ranked files and symbols per pass. Used by the `retrieve`
 * CLI command and the localization benchmark.
 */
import "server-only";
import { EvidenceEngine } from "../answerers/evidence-engine.ts";
import { askQuestion, type PartWriter } from "./ask.ts";
import type { RequestOverrides } from "../settings/config.ts";
import type { QueryMode, StopReason } from "./types.ts";

export interface RetrievalReport {
  mode: QueryMode;
  /** a close runner-up retrieved beside the mode */
  secondaryMode: QueryMode | null;
  /** the scope the classifier read from the question (a path or a named part), if any */
  scope: string | null;
  passes: { gaps: string[]; files: string[]; symbols: string[] }[];
  files: string[];
  symbols: string[];
  timings: { totalMs: number; firstPartMs: number };
  signals: Record<string, string[]>;
  stopReason: StopReason;
  /** passes that produced an answer (a pass that found nothing new does not count) */
  passesUsed: number;
  /** the evidence engine's final answer and the files its verified citations point at */
  answer: string;
  citedFiles: string[];
}

const silent: PartWriter = { write: () => undefined };

export async function retrieveReport(
  repository: string,
  question: string,
  overrides: RequestOverrides = {},
): Promise<RetrievalReport> {
  const result = await askQuestion({ repository, question, overrides }, silent, {
    model: null,
    answerer: new EvidenceEngine(),
    ephemeral: true,
  });
  const passes = result.loop.passes.map((p) => ({
    gaps: p.part.gapsIdentified,
    files: p.files,
    symbols: p.symbols,
  }));
  return {
    mode: result.classification.mode,
    secondaryMode: result.classification.secondaryMode,
    scope: result.classification.scope,
    passes,
    files: unique([...result.loop.retrieval.rankedFiles, ...passes.flatMap((p) => p.files)]),
    symbols: unique([...result.loop.retrieval.rankedSymbols, ...passes.flatMap((p) => p.symbols)]),
    timings: { totalMs: result.metadata.timings.totalMs, firstPartMs: result.metadata.timings.firstPartMs },
    signals: result.loop.retrieval.signals ?? {},
    stopReason: result.loop.stopReason,
    passesUsed: result.loop.passesUsed,
    answer: result.loop.answer,
    citedFiles: unique(result.citations.filter((c) => c.verified).map((c) => c.path)),
  };
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
