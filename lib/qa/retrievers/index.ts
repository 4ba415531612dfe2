/**
 * Routes a classified question to its mode's retriever. With mode routing switched
 * off every question takes the conceptual path (docs-first hybrid search).
 */
import "server-only";
import { retrieveAnalytical } from "./analytical.ts";
import { retrieveConceptual } from "./conceptual.ts";
import { retrieveDiagnostic } from "./diagnostic.ts";
import { retrieveExploratory } from "./exploratory.ts";
import type { RetrievalInput, RetrievalOutput } from "./shared.ts";

export type { RetrievalInput, RetrievalOutput } from "./shared.ts";

export async function retrieveForMode(input: RetrievalInput): Promise<RetrievalOutput> {
  if (!input.config.features.useModeRouting) return retrieveConceptual(input);
  switch (input.mode) {
    case "diagnostic":
      return retrieveDiagnostic(input);
    case "exploratory":
      return retrieveExploratory(input);
    case "analytical":
      return retrieveAnalytical(input);
    case "conceptual":
      return retrieveConceptual(input);
  }
}
