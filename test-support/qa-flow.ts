/**
 * The flow an offline exploratory answer walks (its `flow` context item), the symbols it
 * ranks and the answer's first paragraph, for a question about a repository indexed by the
 * real indexer.
 */
import { askQuestion } from "../lib/qa/ask.ts";
import type { DiagramPart, QueryMode } from "../lib/qa/types.ts";
import { PartLog } from "./qa-model.ts";

export async function exploratoryFlow(
  repositoryId: string,
  question: string,
): Promise<{ flow: string; symbols: string[]; opening: string }> {
  const result = await askQuestion(
    { repository: repositoryId, question, overrides: { mode: "exploratory" } },
    new PartLog(),
    { model: null, ephemeral: true },
  );
  const flow = result.loop.retrieval.items.find((i) => i.kind === "flow")?.text ?? "";
  const opening = result.loop.answer.split(/\n\s*\n/)[0] ?? "";
  return { flow, symbols: result.loop.retrieval.rankedSymbols, opening };
}

/** What an offline answer in a forced mode gives a test to look at. */
export interface OfflineAnswer {
  /** the answer's first paragraph */
  opening: string;
  answer: string;
  files: string[];
  symbols: string[];
  /** paths of the answer's citations */
  cited: string[];
  diagram: DiagramPart | null;
}

/** Asks a question of a repository indexed by the real indexer, offline, in the given mode. */
export async function askOffline(
  repositoryId: string,
  question: string,
  mode: QueryMode,
): Promise<OfflineAnswer> {
  const result = await askQuestion(
    { repository: repositoryId, question, overrides: { mode } },
    new PartLog(),
    { model: null, ephemeral: true },
  );
  const { answer, retrieval } = result.loop;
  return {
    opening: answer.split(/\n\s*\n/)[0] ?? "",
    answer,
    files: retrieval.rankedFiles,
    symbols: retrieval.rankedSymbols,
    cited: result.citations.map((c) => c.path),
    diagram: retrieval.diagram,
  };
}
