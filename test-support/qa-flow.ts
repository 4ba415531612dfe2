/**
 * The flow an offline exploratory answer walks (its `flow` context item), the symbols it
 * ranks and the answer's first paragraph, for a question about a repository indexed by the
 * real indexer.
 */
import { askQuestion } from "../lib/qa/ask.ts";
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
