/**
 * Query understanding for prose questions: the words a lexical channel searches for,
 * each with a weight. The question's terms, its scaffolding ("what is the relationship
 * between", lib/db/tokenize.ts) weighing little, each weighed by how much of a code
 * word it is — the general association model knows how often a word is part of
 * identifiers across many repositories, so words of prose ("mechanism", "deployment")
 * count less than words code is named with ("cookie", "retry"), and words it has never
 * seen (a repository's own names) count fully — then expanded with the words the model
 * associates with them ("expiration" → expiry, ttl, maxage) and with those the
 * repository itself uses them with (lib/search/associations/repository.ts), weighted
 * by how close they are.
 */
import { isScaffolding, queryTerms } from "../db/tokenize.ts";
import type { WeightedWord } from "../db/file-terms.ts";
import { generalModel, nearestWords, type AssociationModel } from "./associations/model.ts";
import { associatedWords, type RepositoryAssociations } from "./associations/repository.ts";
import { wordWeight } from "./associations/weights.ts";

/** Expansions per question word, how close they must be, and how much they weigh against the word. */
const EXPANSIONS_PER_WORD = 3;
const EXPANSION_SIMILARITY = 0.6;
const EXPANSION_WEIGHT = 0.35;
/**
 * Only the first content terms (not scaffolding) are expanded: a question names what it asks about early,
 * and a long bug report has words enough of its own (expanding all of them would add
 * more noise than reach).
 */
const EXPANDED_TERMS = 24;

export interface QuestionWordsOptions {
  /** add associated words (default true) */
  expand?: boolean;
  maxTerms?: number;
  /** the association model (default: the general model shipped with Wayfinder) */
  model?: AssociationModel | null;
  /** the repository's own associations, when it has learned them */
  repository?: RepositoryAssociations | null;
}

/**
 * The weight of a word of question scaffolding ("relationship", "mechanism",
 * "coordinate"): low, not nothing — some of them are also what a repository's code is
 * about (xarray's coordinates, seaborn's semantic mappings, pylint's patterns).
 */
const SCAFFOLDING_WEIGHT = 0.25;

/** The weighted words to search a question by: its terms, weighed, then their associations. */
export function questionWords(question: string, options: QuestionWordsOptions = {}): WeightedWord[] {
  const model = options.model === undefined ? generalModel() : options.model;
  const terms = queryTerms(question, options.maxTerms ?? 64);
  const out = new Map<string, number>();
  for (const word of terms)
    out.set(word, wordWeight(model, word) * (isScaffolding(word) ? SCAFFOLDING_WEIGHT : 1));
  if (options.expand !== false) {
    const asked = new Set(terms);
    const add = (word: string, weight: number) => {
      if (!asked.has(word)) out.set(word, Math.max(out.get(word) ?? 0, weight));
    };
    const content = terms.filter((t) => !isScaffolding(t));
    for (const word of content.slice(0, EXPANDED_TERMS)) {
      const weight = out.get(word) ?? 0;
      if (model) {
        for (const n of nearestWords(model, word, EXPANSIONS_PER_WORD, { minimum: EXPANSION_SIMILARITY }))
          add(n.word, EXPANSION_WEIGHT * n.similarity * weight);
      }
      if (options.repository) {
        for (const n of associatedWords(options.repository, word, EXPANSIONS_PER_WORD))
          add(n.word, EXPANSION_WEIGHT * n.strength * weight);
      }
    }
  }
  return [...out].map(([word, weight]) => ({ word, weight }));
}
