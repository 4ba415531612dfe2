/**
 * Term associations from end to end on a small made-up corpus: co-occurrence counts,
 * PPMI and its truncated eigendecomposition (checked against a dense decomposition),
 * the model file round trip and its stored neighbours, a repository's own
 * associations, the embedder built on a model, and query understanding.
 */
import { EigenvalueDecomposition, Matrix } from "ml-matrix";
import { describe, expect, it } from "vitest";
import { countPairs, PairCounts } from "./cooccurrence.ts";
import { AssociationEmbedder } from "./embedder.ts";
import { decodeModel, encodeModel, nearestWords, type AssociationModel } from "./model.ts";
import { ppmiMatrix, truncatedEigen, wordVectors } from "./ppmi.ts";
import {
  associatedWords,
  decodeRepositoryAssociations,
  encodeRepositoryAssociations,
  trainRepositoryAssociations,
} from "./repository.ts";
import { chunkWords } from "./words.ts";
import { questionWords } from "../query.ts";
import { wordWeight } from "./weights.ts";

/**
 * Two topics that share no words but have their own synonyms: cache expiry (written
 * expire, expiration, ttl, maxage) and retrying (retry, backoff, attempt, delay), each
 * in code and in comments, plus filler words found everywhere.
 */
function corpus(): { title: string; text: string }[] {
  const chunks: { title: string; text: string }[] = [];
  const filler = [
    "parse",
    "render",
    "token",
    "column",
    "buffer",
    "layout",
    "glyph",
    "stream",
    "lexer",
    "pixel",
  ];
  for (let i = 0; i < 200; i++) {
    const a = filler[i % 10] as string;
    const b = filler[(i * 3 + 1) % 10] as string;
    chunks.push({
      title: `misc.${a}_${b}`,
      text: `def ${a}_${b}(${a}):\n    """Turn the ${a} into a ${b}."""\n    return ${b}(${a})`,
    });
  }
  for (let i = 0; i < 40; i++) {
    chunks.push({
      title: `cache.entry_${i}`,
      text: `def entry_${i}(store):\n    """Expire the cached value after its ttl (expiration, maxage)."""\n    maxage = store.ttl\n    return store.expire(maxage) if expiration(store) else store.value`,
    });
    chunks.push({
      title: `client.send_${i}`,
      text: `def send_${i}(request):\n    """Retry the request with a backoff delay on each attempt."""\n    for attempt in range(request.retry):\n        delay = backoff(attempt)\n    return request.value`,
    });
  }
  return chunks;
}

function trainModel(): AssociationModel {
  const chunks = corpus().map((c) => chunkWords(c.title, c.text));
  const vocabulary = [...new Set(chunks.flatMap((c) => [...c.words, ...c.name]))].sort();
  const index = new Map(vocabulary.map((w, i) => [w, i]));
  const counts = new PairCounts(16);
  for (const c of chunks) {
    countPairs(
      counts,
      c.words.map((w) => index.get(w) ?? -1),
      c.name.map((w) => index.get(w) ?? -1),
      { window: 5, nameReach: 12 },
    );
  }
  const eigen = truncatedEigen(ppmiMatrix(counts, vocabulary.length), 6, { seed: 3 });
  const share = (w: string) =>
    ["maxage", "ttl", "retry", "attempt", "delay", "backoff"].includes(w) ? 0.6 : 0;
  return decodeModel(
    encodeModel({
      vocabulary,
      rank: eigen.rank,
      corpusRepositories: 10,
      vectors: wordVectors(eigen),
      repositories: vocabulary.map(() => 5),
      identifierShare: vocabulary.map(share),
      neighbourCount: 4,
    }),
  );
}

describe("co-occurrence counts", () => {
  it("counts unordered pairs within the window, nearer ones more, and survives growing", () => {
    const counts = new PairCounts(2);
    countPairs(counts, [0, 1, 2, -1, 1], [3], { window: 2, nameReach: 2 });
    const pairs = new Map<string, number>();
    counts.forEach((a, b, c) => pairs.set(`${a}-${b}`, c));
    // 0-1 at distance 1, 0-2 at 2, 1-2 at 1 and 2-1 at 2, 1-1 never; name 3 with the first two.
    expect(Object.fromEntries(pairs)).toEqual({ "0-1": 1, "0-2": 0.5, "1-2": 1.5, "0-3": 0.5, "1-3": 0.5 });
    expect(counts.size).toBe(5);
  });
});

describe("PPMI and its truncated eigendecomposition", () => {
  it("finds the same leading eigenvalues as a dense decomposition", () => {
    const counts = new PairCounts(16);
    for (let a = 0; a < 30; a++)
      for (let b = a + 1; b < 30; b++)
        counts.add(a, b, 1 + ((a * 7 + b * 3) % 5) + (a % 3 === b % 3 ? 6 : 0));
    const matrix = ppmiMatrix(counts, 30);
    const dense = new Matrix(30, 30);
    for (let row = 0; row < 30; row++)
      for (let p = matrix.rowStart[row] as number; p < (matrix.rowStart[row + 1] as number); p++)
        dense.set(row, matrix.columns[p] as number, matrix.values[p] as number);
    const exact = new EigenvalueDecomposition(dense, { assumeSymmetric: true }).realEigenvalues.sort(
      (x, y) => y - x,
    );
    const approximate = truncatedEigen(matrix, 3, { iterations: 6 });
    for (let k = 0; k < 3; k++) expect(approximate.values[k]).toBeCloseTo(exact[k] as number, 4);
  });

  it("puts the words of one topic close together and apart from the other's", () => {
    const model = trainModel();
    const near = (w: string) => nearestWords(model, w, 3, { minimum: 0 }).map((n) => n.word);
    expect(near("expiration").some((w) => ["ttl", "maxage", "expire"].includes(w))).toBe(true);
    expect(near("backoff").some((w) => ["retry", "attempt", "delay"].includes(w))).toBe(true);
    expect(near("expiration")).not.toContain("backoff");
  });
});

describe("the model file", () => {
  it("round-trips words, statistics, vectors within 8-bit precision and true neighbours", () => {
    const vocabulary = ["alpha", "beta", "gamma", "delta"];
    const vectors = Float32Array.from([1, 0, 0, 0.8, 0.6, 0, 0, 1, 0, 0, 0.6, 0.8]);
    const model = decodeModel(
      encodeModel({
        vocabulary,
        rank: 3,
        corpusRepositories: 7,
        vectors,
        repositories: [1, 2, 300, 4],
        identifierShare: [0, 0.5, 1, 0.25],
        neighbourCount: 2,
      }),
    );
    expect(model.vocabulary).toEqual(vocabulary);
    expect(model.corpusRepositories).toBe(7);
    expect(Array.from(model.repositories)).toEqual([1, 2, 255, 4]);
    expect(Array.from(model.identifierShare)).toEqual([0, 128, 255, 64]);
    for (let i = 0; i < vectors.length; i++)
      expect(
        Math.abs(
          (model.vectors[i] as number) * (model.scales[Math.floor(i / 3)] as number) - (vectors[i] as number),
        ),
      ).toBeLessThan(0.01);
    // alpha·beta 0.8, beta·gamma 0.6, beta·delta 0.36, alpha·gamma 0.
    expect(nearestWords(model, "alpha", 2, { minimum: 0 }).map((n) => n.word)).toEqual(["beta"]);
    expect(nearestWords(model, "beta", 2, { minimum: 0 })).toEqual([
      { word: "alpha", similarity: Math.round(0.8 * 255) / 255 },
      { word: "gamma", similarity: Math.round(0.6 * 255) / 255 },
    ]);
    expect(nearestWords(model, "beta", 2, { minimum: 0.7 }).map((n) => n.word)).toEqual(["alpha"]);
    expect(nearestWords(model, "unknown", 2)).toEqual([]);
    expect(() => decodeModel(Buffer.from("not a model at all, clearly"))).toThrow(
      /not a term-association model/,
    );
  });
});

describe("query understanding", () => {
  it("weighs scaffolding and prose below code words and expands with associations", () => {
    const model = trainModel();
    const words = new Map(
      questionWords("What is the architectural relationship between the expiration and the retry?", {
        model,
      }).map((w) => [w.word, w.weight]),
    );
    // Scaffolding weighs a quarter of what it would (a repository may still name code with it).
    expect(words.get("architectural")).toBeCloseTo(0.25 * wordWeight(model, "architectural"), 9);
    expect(words.get("relationship")).toBeCloseTo(0.25 * wordWeight(model, "relationship"), 9);
    // "retry" is a code word in this model; "expiration" only prose.
    expect(words.get("retry")).toBe(1);
    expect(words.get("expiration")).toBeCloseTo(wordWeight(model, "expiration"), 9);
    expect(words.get("expiration")).toBeLessThan(1);
    const asked = new Set(["retry", "expiration", "architectural", "relationship"]);
    const expansions = [...words.keys()].filter((w) => !asked.has(w));
    expect(expansions.length).toBeGreaterThan(0);
    for (const w of expansions) expect(words.get(w)).toBeLessThan(0.5);
    expect(questionWords("retry", { model, expand: false })).toEqual([{ word: "retry", weight: 1 }]);
    // Words the model has never seen count fully.
    expect(questionWords("xylophonic", { model })).toEqual([{ word: "xylophonic", weight: 1 }]);
  });
});

describe("the association embedder", () => {
  it("brings a question close to code that says the same in other words", async () => {
    const model = trainModel();
    const embedder = new AssociationEmbedder({ model, hashedDimensions: 64, hashedWeight: 0.5 });
    const [question, expiry, retrying] = await embedder.embed([
      "when does the expiration happen",
      "maxage = store.ttl",
      "delay = backoff(attempt)",
    ]);
    const cosine = (a: Float32Array, b: Float32Array) => a.reduce((n, x, i) => n + x * (b[i] as number), 0);
    expect(question).toHaveLength(model.rank + 64);
    expect(cosine(question as Float32Array, expiry as Float32Array)).toBeGreaterThan(
      cosine(question as Float32Array, retrying as Float32Array) + 0.2,
    );
    expect(embedder.id).toBe(`associations-${model.fingerprint}-${model.rank}+64x0.5`);
  });
});

describe("a repository's own associations", () => {
  it("learns which of its words go together, and round-trips", async () => {
    async function* batches() {
      yield corpus().slice(0, 40);
      yield corpus().slice(40);
    }
    const learned = await trainRepositoryAssociations(batches());
    const near = associatedWords(learned, "expiration", 6).map((n) => n.word);
    expect(near.some((w) => ["ttl", "maxage", "expire", "store"].includes(w))).toBe(true);
    expect(near).not.toContain("backoff");
    const again = decodeRepositoryAssociations(encodeRepositoryAssociations(learned));
    expect(associatedWords(again, "backoff", 6)).toEqual(associatedWords(learned, "backoff", 6));
    expect(() => decodeRepositoryAssociations(new Uint8Array(8))).toThrow(/not repository associations/);
  });
});
