/**
 * A term-association model: a vocabulary, one unit vector per word (8-bit, with a
 * scale) in which words used alike lie close, and what the training corpus says of
 * each word — in how many of its repositories it occurs, and how often as part of an
 * identifier rather than as a word of prose. The general model is trained offline on
 * many repositories (scripts/train-associations.ts) and ships as `general.bin` beside
 * this file, loaded on first use; nothing is downloaded.
 *
 * Each word's nearest words are computed once, at training, and stored with it, so
 * expanding a question costs a lookup.
 *
 * File layout (little-endian): "WFAS", version u32, words u32, rank u32, corpus
 * repositories u32, vocabulary byte length u32, neighbours per word u32, the
 * vocabulary (UTF-8, one word a line), scales f32 × words, vectors i8 × words × rank,
 * repositories u8 × words, identifier share u8 × words (0–255 for 0–1), neighbours
 * u16 × words × neighbours (65535: none), their similarity u8 × words × neighbours
 * (0–255 for 0–1).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const MAGIC = "WFAS";
const VERSION = 2;
const NO_NEIGHBOUR = 65_535;

export interface AssociationModel {
  /** a hash of the model file: what a vector space built from it is named by */
  fingerprint: string;
  vocabulary: string[];
  index: Map<string, number>;
  rank: number;
  /** repositories of the training corpus */
  corpusRepositories: number;
  scales: Float32Array;
  vectors: Int8Array;
  /** per word: in how many corpus repositories it occurs (at most 255) */
  repositories: Uint8Array;
  /** per word: the share of its occurrences inside identifiers, 0–255 */
  identifierShare: Uint8Array;
  /** nearest words stored per word */
  neighbourCount: number;
  /** per word, its nearest words (ids, best first; 65535 where there are fewer) */
  neighbours: Uint16Array;
  /** their cosine similarity, 0–255 */
  neighbourSimilarity: Uint8Array;
}

export interface ModelInput {
  vocabulary: string[];
  rank: number;
  corpusRepositories: number;
  /** unit vectors, words × rank */
  vectors: Float32Array;
  repositories: ArrayLike<number>;
  /** 0–1 */
  identifierShare: ArrayLike<number>;
  /** nearest words to store per word */
  neighbourCount: number;
}

export function encodeModel(input: ModelInput): Buffer {
  const words = input.vocabulary.length;
  const { rank } = input;
  const vocabulary = Buffer.from(input.vocabulary.join("\n"), "utf8");
  const scales = new Float32Array(words);
  const vectors = new Int8Array(words * rank);
  for (let i = 0; i < words; i++) {
    let max = 0;
    for (let k = 0; k < rank; k++) max = Math.max(max, Math.abs(input.vectors[i * rank + k] as number));
    const scale = max / 127 || 1;
    scales[i] = scale;
    for (let k = 0; k < rank; k++)
      vectors[i * rank + k] = Math.round((input.vectors[i * rank + k] as number) / scale);
  }
  const { neighbours, similarity } = allNeighbours(input.vectors, words, rank, input.neighbourCount);
  const header = Buffer.alloc(28);
  header.write(MAGIC, 0, "ascii");
  header.writeUInt32LE(VERSION, 4);
  header.writeUInt32LE(words, 8);
  header.writeUInt32LE(rank, 12);
  header.writeUInt32LE(input.corpusRepositories, 16);
  header.writeUInt32LE(vocabulary.length, 20);
  header.writeUInt32LE(input.neighbourCount, 24);
  return Buffer.concat([
    header,
    vocabulary,
    Buffer.from(scales.buffer),
    Buffer.from(vectors.buffer),
    Buffer.from(Uint8Array.from(input.repositories, (r) => Math.min(255, r))),
    Buffer.from(Uint8Array.from(input.identifierShare, (s) => Math.round(Math.min(1, Math.max(0, s)) * 255))),
    Buffer.from(neighbours.buffer),
    Buffer.from(similarity),
  ]);
}

/** Each word's `count` nearest words by cosine (unit vectors), a full scan per word. */
function allNeighbours(
  vectors: Float32Array,
  words: number,
  rank: number,
  count: number,
): { neighbours: Uint16Array; similarity: Uint8Array } {
  const neighbours = new Uint16Array(words * count).fill(NO_NEIGHBOUR);
  const similarity = new Uint8Array(words * count);
  const best = new Float64Array(count);
  const bestIds = new Int32Array(count);
  for (let a = 0; a < words; a++) {
    best.fill(-Infinity);
    bestIds.fill(-1);
    for (let b = 0; b < words; b++) {
      if (a === b) continue;
      let dot = 0;
      for (let k = 0; k < rank; k++)
        dot += (vectors[a * rank + k] as number) * (vectors[b * rank + k] as number);
      if (dot <= (best[count - 1] as number)) continue;
      let at = count - 1;
      while (at > 0 && dot > (best[at - 1] as number)) {
        best[at] = best[at - 1] as number;
        bestIds[at] = bestIds[at - 1] as number;
        at--;
      }
      best[at] = dot;
      bestIds[at] = b;
    }
    for (let j = 0; j < count; j++) {
      if ((bestIds[j] as number) < 0 || (best[j] as number) <= 0) break;
      neighbours[a * count + j] = bestIds[j] as number;
      similarity[a * count + j] = Math.round(Math.min(1, best[j] as number) * 255);
    }
  }
  return { neighbours, similarity };
}

export function decodeModel(data: Buffer): AssociationModel {
  if (data.toString("ascii", 0, 4) !== MAGIC || data.readUInt32LE(4) !== VERSION) {
    throw new Error("not a term-association model of this version");
  }
  const words = data.readUInt32LE(8);
  const rank = data.readUInt32LE(12);
  const corpusRepositories = data.readUInt32LE(16);
  const vocabularyBytes = data.readUInt32LE(20);
  const neighbourCount = data.readUInt32LE(24);
  let at = 28;
  const vocabulary = words === 0 ? [] : data.toString("utf8", at, at + vocabularyBytes).split("\n");
  at += vocabularyBytes;
  // Copies, so the typed arrays are aligned whatever the vocabulary's byte length.
  const copy = (bytes: number) => {
    const out = data.buffer.slice(data.byteOffset + at, data.byteOffset + at + bytes);
    at += bytes;
    return out;
  };
  const scales = new Float32Array(copy(words * 4));
  const vectors = new Int8Array(copy(words * rank));
  const repositories = new Uint8Array(copy(words));
  const identifierShare = new Uint8Array(copy(words));
  const neighbours = new Uint16Array(copy(words * neighbourCount * 2));
  const neighbourSimilarity = new Uint8Array(copy(words * neighbourCount));
  if (vocabulary.length !== words || at !== data.length)
    throw new Error("term-association model is truncated");
  return {
    fingerprint: createHash("sha256").update(data).digest("hex").slice(0, 12),
    vocabulary,
    index: new Map(vocabulary.map((w, i) => [w, i])),
    rank,
    corpusRepositories,
    scales,
    vectors,
    repositories,
    identifierShare,
    neighbourCount,
    neighbours,
    neighbourSimilarity,
  };
}

/** Cosine similarity of two words of the model (their vectors are unit length before quantisation). */
export function wordSimilarity(model: AssociationModel, a: number, b: number): number {
  const { rank, vectors, scales } = model;
  let dot = 0;
  for (let k = 0; k < rank; k++) dot += (vectors[a * rank + k] as number) * (vectors[b * rank + k] as number);
  return dot * (scales[a] as number) * (scales[b] as number);
}

/** Adds `weight` × the word's vector to `out` (length rank). */
export function addWordVector(
  model: AssociationModel,
  word: number,
  weight: number,
  out: Float32Array,
): void {
  const { rank, vectors } = model;
  const scale = weight * (model.scales[word] as number);
  for (let k = 0; k < rank; k++) out[k] = (out[k] as number) + scale * (vectors[word * rank + k] as number);
}

/** The `limit` words nearest to `word` (cosine at least `minimum`), best first, among those `accept` lets through. */
export function nearestWords(
  model: AssociationModel,
  word: string,
  limit: number,
  options: { minimum?: number; accept?: (word: string) => boolean } = {},
): { word: string; similarity: number }[] {
  const id = model.index.get(word);
  if (id === undefined) return [];
  const minimum = options.minimum ?? 0.3;
  const out: { word: string; similarity: number }[] = [];
  const { neighbourCount } = model;
  for (let j = 0; j < neighbourCount && out.length < limit; j++) {
    const other = model.neighbours[id * neighbourCount + j] as number;
    if (other === NO_NEIGHBOUR) break;
    const similarity = (model.neighbourSimilarity[id * neighbourCount + j] as number) / 255;
    if (similarity < minimum) break;
    const candidate = model.vocabulary[other] as string;
    if (options.accept && !options.accept(candidate)) continue;
    out.push({ word: candidate, similarity });
  }
  return out;
}

/** Where the shipped model lies: beside this module, or under the project root when bundled. */
function modelFile(): string | null {
  const dirs = [path.join(process.cwd(), "lib", "search", "associations")];
  if (typeof __dirname === "string" && __dirname) dirs.unshift(__dirname);
  return dirs.map((d) => path.join(d, "general.bin")).find((f) => fs.existsSync(f)) ?? null;
}

let general: AssociationModel | null | undefined;

/** The general model shipped with Wayfinder, loaded once; null when the file is missing. */
export function generalModel(): AssociationModel | null {
  if (general === undefined) {
    const file = modelFile();
    // Found at run time (see modelFile), not traced into the build: without the hint the
    // bundler cannot bound the path and traces the whole project into the server output.
    general = file ? decodeModel(fs.readFileSync(/* turbopackIgnore: true */ file)) : null;
  }
  return general;
}
