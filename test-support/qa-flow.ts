/**
 * The flow an offline exploratory answer walks (its `flow` context item) and the symbols
 * it ranks, for a question about a repository indexed by the real indexer.
 */
import { askQuestion } from "../lib/qa/ask.ts";
import { PartLog } from "./qa-model.ts";

export async function exploratoryFlow(
  repositoryId: string,
  question: string,
): Promise<{ flow: string; symbols: string[] }> {
  const result = await askQuestion(
    { repository: repositoryId, question, overrides: { mode: "exploratory" } },
    new PartLog(),
    { model: null, ephemeral: true },
  );
  const flow = result.loop.retrieval.items.find((i) => i.kind === "flow")?.text ?? "";
  return { flow, symbols: result.loop.retrieval.rankedSymbols };
}
