/**
 * Text → vector through the term-association model: a text is the weighted sum of its
 * words' vectors (sublinear count × how specific the word is across the training
 * corpus × how much of a code word it is), so a question and code that use different
 * words for one thing ("expiration" and `max_age`) still land close. Beside it, with a
 * smaller weight, the hashing embedder's features of the text itself, so exact names
 * keep counting. Deterministic, offline, no download: the model ships with Wayfinder.
 */
import { forEachWord, isSignificant } from "../../db/tokenize.ts";
import type { Embedder } from "../embedder.ts";
import { HashingEmbedder } from "../embedder.ts";
import { addWordVector, type AssociationModel } from "./model.ts";
import { wordWeight } from "./weights.ts";

/** Longer texts add little to a sum of word vectors and only cost time. */
const MAX_EMBEDDED_CHARS = 16_000;

export interface AssociationEmbedderOptions {
  model: AssociationModel;
  /** dimensions of the hashed part (0: none) */
  hashedDimensions?: number;
  /** weight of the hashed part against the association part (both unit length) */
  hashedWeight?: number;
}

export class AssociationEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly model: AssociationModel;
  private readonly hashing: HashingEmbedder | null;
  private readonly hashedWeight: number;
  /** per vocabulary word: specificity across the corpus × code-word weight */
  private readonly weights: Float32Array;

  constructor(options: AssociationEmbedderOptions) {
    const { model } = options;
    this.model = model;
    const hashed = options.hashedDimensions ?? 0;
    this.hashing = hashed > 0 ? new HashingEmbedder({ dimensions: hashed }) : null;
    this.hashedWeight = options.hashedWeight ?? 1;
    this.dimensions = model.rank + hashed;
    this.id = `associations-${model.fingerprint}-${model.rank}+${hashed}x${this.hashedWeight}`;
    this.weights = Float32Array.from(model.vocabulary, (word, i) => {
      const specificity = Math.log(
        1 + model.corpusRepositories / Math.max(1, model.repositories[i] as number),
      );
      return specificity * wordWeight(model, word);
    });
  }

  embedOne(text: string): Float32Array {
    const { model } = this;
    const counts = new Map<number, number>();
    const count = (part: string) => {
      const id = model.index.get(part);
      if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
    };
    const clipped = text.length > MAX_EMBEDDED_CHARS ? text.slice(0, MAX_EMBEDDED_CHARS) : text;
    // With a hashed part the text is read once: the hashing embedder hands over its words.
    const hashed = this.hashing ? this.hashing.embedOne(clipped, count) : null;
    if (!hashed) {
      forEachWord(clipped, (parts) => {
        for (const part of parts) if (isSignificant(part)) count(part);
      });
    }
    const dense = new Float32Array(model.rank);
    for (const [id, n] of counts)
      addWordVector(model, id, (1 + Math.log(n)) * (this.weights[id] as number), dense);
    normalise(dense);
    const out = new Float32Array(this.dimensions);
    out.set(dense, 0);
    if (hashed)
      for (let i = 0; i < hashed.length; i++) out[model.rank + i] = (hashed[i] as number) * this.hashedWeight;
    return normalise(out);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((text) => this.embedOne(text));
  }
}

function normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += (vector[i] as number) ** 2;
  if (sum === 0) return vector;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) * scale;
  return vector;
}
