/**
 * A repository's own term associations: which of its words occur together in its code
 * (within a few words of each other, and a function's name with its docstring and
 * first lines), measured by PPMI over its chunks weighed by how often they meet, and
 * for each word the few it is most associated with. They carry what no general corpus can know — that in this
 * repository "expiration" is written `max_age`, or "placeholder" `slot`. Trained by an
 * index build (lib/indexer/associations.ts) and read to expand questions.
 *
 * Encoded (little-endian): "WFRA", version u32, words u32, neighbours per word u32,
 * vocabulary byte length u32, the vocabulary (UTF-8, one word a line), neighbours u16 ×
 * words × neighbours (65535: none), their strength u8 × words × neighbours (0–255,
 * each word's best 255).
 */
import { countPairs, MAX_VOCABULARY, PairCounts } from "./cooccurrence.ts";
import { ppmiMatrix } from "./ppmi.ts";
import { chunkWords } from "./words.ts";

const MAGIC = "WFRA";
const VERSION = 1;
const NONE = 65_535;
const NEIGHBOURS = 6;
const WINDOW = 3;
const NAME_REACH = 32;
const WORDS_PER_CHUNK = 200;
/** A word must occur in this many chunks to be learned about: rarer ones have no reliable company. */
const MIN_CHUNKS = 3;
/** Words in more than this share of the chunks (`self`, `return` in some languages) say nothing. */
const MAX_CHUNK_SHARE = 0.2;

export interface RepositoryAssociations {
  vocabulary: string[];
  index: Map<string, number>;
  neighbourCount: number;
  neighbours: Uint16Array;
  strength: Uint8Array;
}

/**
 * Learns associations from a repository's chunks, given batch by batch (`chunks` yields
 * arrays of title and text). One pass: words get ids as they come (up to the
 * vocabulary's limit) and pairs are counted at once; the vocabulary is cut by chunk
 * frequency afterwards.
 */
export async function trainRepositoryAssociations(
  chunks: AsyncIterable<{ title: string; text: string }[]>,
): Promise<RepositoryAssociations> {
  const ids = new Map<string, number>();
  const words: string[] = [];
  const chunkFrequency: number[] = [];
  const counts = new PairCounts(1 << 18);
  let total = 0;
  const idOf = (word: string) => {
    let id = ids.get(word);
    if (id === undefined) {
      if (words.length >= MAX_VOCABULARY - 1) return -1;
      id = words.length;
      ids.set(word, id);
      words.push(word);
      chunkFrequency.push(0);
    }
    return id;
  };
  for await (const batch of chunks) {
    for (const chunk of batch) {
      const read = chunkWords(chunk.title, chunk.text, WORDS_PER_CHUNK);
      if (read.words.length < 2) continue;
      total++;
      const sequence = Int32Array.from(read.words, idOf);
      for (const id of new Set(sequence))
        if (id >= 0) chunkFrequency[id] = (chunkFrequency[id] as number) + 1;
      countPairs(counts, sequence, Int32Array.from(read.name, idOf), {
        window: WINDOW,
        nameReach: NAME_REACH,
      });
    }
  }
  const usable = (id: number) =>
    (chunkFrequency[id] as number) >= MIN_CHUNKS && (chunkFrequency[id] as number) <= MAX_CHUNK_SHARE * total;
  const kept = new PairCounts(Math.max(1024, counts.size));
  // A pair met once, far apart, is chance.
  counts.forEach((a, b, c) => {
    if (c >= 1 && usable(a) && usable(b)) kept.add(a, b, c);
  });
  // PMI favours pairs of rare words met once or twice; weighing it by the (log) count
  // prefers associations the code shows again and again.
  const matrix = ppmiMatrix(kept, words.length, { value: (pmi, count) => pmi * Math.log1p(count) });
  // Each usable word's strongest associations; the vocabulary keeps the words that have any.
  const best: { word: number; neighbours: { id: number; value: number }[] }[] = [];
  for (let row = 0; row < words.length; row++) {
    const start = matrix.rowStart[row] as number;
    const end = matrix.rowStart[row + 1] as number;
    if (end === start) continue;
    const neighbours: { id: number; value: number }[] = [];
    for (let p = start; p < end; p++)
      neighbours.push({ id: matrix.columns[p] as number, value: matrix.values[p] as number });
    neighbours.sort((x, y) => y.value - x.value || x.id - y.id);
    best.push({ word: row, neighbours: neighbours.slice(0, NEIGHBOURS) });
  }
  const vocabulary = best.map((b) => words[b.word] as string);
  const newId = new Map(best.map((b, i) => [b.word, i]));
  const neighbours = new Uint16Array(best.length * NEIGHBOURS).fill(NONE);
  const strength = new Uint8Array(best.length * NEIGHBOURS);
  best.forEach((b, i) => {
    const top = b.neighbours[0]?.value ?? 1;
    b.neighbours.forEach((n, j) => {
      const id = newId.get(n.id);
      if (id === undefined) return;
      neighbours[i * NEIGHBOURS + j] = id;
      strength[i * NEIGHBOURS + j] = Math.max(1, Math.round((n.value / top) * 255));
    });
  });
  return {
    vocabulary,
    index: new Map(vocabulary.map((w, i) => [w, i])),
    neighbourCount: NEIGHBOURS,
    neighbours,
    strength,
  };
}

export function encodeRepositoryAssociations(a: RepositoryAssociations): Buffer {
  const vocabulary = Buffer.from(a.vocabulary.join("\n"), "utf8");
  const header = Buffer.alloc(20);
  header.write(MAGIC, 0, "ascii");
  header.writeUInt32LE(VERSION, 4);
  header.writeUInt32LE(a.vocabulary.length, 8);
  header.writeUInt32LE(a.neighbourCount, 12);
  header.writeUInt32LE(vocabulary.length, 16);
  return Buffer.concat([
    header,
    vocabulary,
    Buffer.from(a.neighbours.buffer, a.neighbours.byteOffset, a.neighbours.byteLength),
    Buffer.from(a.strength),
  ]);
}

export function decodeRepositoryAssociations(data: Uint8Array): RepositoryAssociations {
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (buffer.toString("ascii", 0, 4) !== MAGIC || buffer.readUInt32LE(4) !== VERSION) {
    throw new Error("not repository associations of this version");
  }
  const words = buffer.readUInt32LE(8);
  const neighbourCount = buffer.readUInt32LE(12);
  const vocabularyBytes = buffer.readUInt32LE(16);
  let at = 20;
  const vocabulary = words === 0 ? [] : buffer.toString("utf8", at, at + vocabularyBytes).split("\n");
  at += vocabularyBytes;
  const neighbours = new Uint16Array(
    buffer.buffer.slice(buffer.byteOffset + at, buffer.byteOffset + at + words * neighbourCount * 2),
  );
  at += words * neighbourCount * 2;
  const strength = Uint8Array.from(buffer.subarray(at, at + words * neighbourCount));
  at += words * neighbourCount;
  if (vocabulary.length !== words || at !== buffer.length)
    throw new Error("repository associations are truncated");
  return {
    vocabulary,
    index: new Map(vocabulary.map((w, i) => [w, i])),
    neighbourCount,
    neighbours,
    strength,
  };
}

/** The words a repository associates most with `word`, strongest first (strength 0–1 against the strongest). */
export function associatedWords(
  a: RepositoryAssociations,
  word: string,
  limit: number,
): { word: string; strength: number }[] {
  const id = a.index.get(word);
  if (id === undefined) return [];
  const out: { word: string; strength: number }[] = [];
  for (let j = 0; j < a.neighbourCount && out.length < limit; j++) {
    const other = a.neighbours[id * a.neighbourCount + j] as number;
    if (other === NONE) break;
    out.push({
      word: a.vocabulary[other] as string,
      strength: (a.strength[id * a.neighbourCount + j] as number) / 255,
    });
  }
  return out;
}
