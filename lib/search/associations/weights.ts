/**
 * How much a word counts when searching by it: 1 for words code is named with and for
 * words the model has never seen (a repository's own names), less for words of prose.
 * The general association model knows, for each word, the share of its occurrences
 * inside identifiers across many repositories: "cookie" and "retry" name code,
 * "mechanism" and "deployment" almost only describe it.
 */
import type { AssociationModel } from "./model.ts";

/** Identifier share at or above which a word counts as a full code word. */
const CODE_WORD_SHARE = 0.3;
/** The weight of a word never seen inside an identifier. */
const PROSE_WEIGHT = 0.4;

export function wordWeight(model: AssociationModel | null, word: string): number {
  const id = model?.index.get(word);
  if (!model || id === undefined) return 1;
  const share = (model.identifierShare[id] as number) / 255;
  return PROSE_WEIGHT + (1 - PROSE_WEIGHT) * Math.min(1, share / CODE_WORD_SHARE);
}
