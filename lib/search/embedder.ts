/**
 * Text → vector. The offline default is a deterministic hashing embedder (no model
 * download, no network); a provider embedder wraps any AI SDK embedding model for
 * deployments that have one. Both return L2-normalised Float32Arrays.
 */
import type { EmbeddingModel } from "ai";
import { WayfinderError } from "../errors.ts";
import { forEachWord, isSignificant } from "../db/tokenize.ts";

export interface EmbedOptions {
  /** Cancels outstanding provider calls (the hashing embedder finishes synchronously). */
  signal?: AbortSignal;
}

export interface Embedder {
  /** Identifies the vector space: vectors from embedders with different ids must not be mixed. */
  readonly id: string;
  readonly dimensions: number;
  embed(texts: string[], options?: EmbedOptions): Promise<Float32Array[]>;
}

// ---------------------------------------------------------------------------
// Hashing embedder

export interface HashingEmbedderOptions {
  dimensions?: number;
}

/**
 * Feature weights before sublinear tf. Unigrams carry most of the meaning; whole
 * identifiers reward an exact name; bigrams reward word order ("user id" vs "id
 * user"); character trigrams bridge morphology (parse/parser, user/users) and are
 * many per token, hence their smaller weight.
 */
const WEIGHT_UNIGRAM = 1;
const WEIGHT_IDENTIFIER = 1;
const WEIGHT_BIGRAM = 0.6;
const WEIGHT_TRIGRAM = 0.3;

const SEED_UNIGRAM = 0x9e3779b1;
const SEED_IDENTIFIER = 0x85ebca77;
const SEED_BIGRAM = 0xc2b2ae3d;
const SEED_TRIGRAM = 0x27d4eb2f;
const SEED_SIGN = 0x165667b1;

/** Longer texts add little to a bag of hashed features and only cost time. */
const MAX_HASHED_CHARS = 32_000;

/** Murmur3's finaliser: spreads FNV's weak low bits across the word before bucketing. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a over UTF-16 code units, seeded, then finalised. */
function hashString(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

function hashPair(a: number, b: number, seed: number): number {
  return fmix32(Math.imul(a ^ seed, 0x01000193) ^ Math.imul(b, 0x9e3779b1));
}

/**
 * Feature counts per text in an open-addressing table over typed arrays: several
 * times faster than a Map for the few hundred features a chunk has, and reused
 * across texts without reallocating.
 */
class FeatureCounts {
  private keys = new Uint32Array(1024);
  private counts = new Uint32Array(1024);
  private used: number[] = [];
  private mask = 1023;

  clear(): void {
    for (const slot of this.used) this.counts[slot] = 0;
    this.used.length = 0;
  }

  add(key: number): void {
    if (this.used.length * 2 >= this.mask) this.grow();
    let slot = key & this.mask;
    for (;;) {
      const count = this.counts[slot] as number;
      if (count === 0) {
        this.keys[slot] = key;
        this.counts[slot] = 1;
        this.used.push(slot);
        return;
      }
      if (this.keys[slot] === key) {
        this.counts[slot] = count + 1;
        return;
      }
      slot = (slot + 1) & this.mask;
    }
  }

  /**
   * Adds each feature's weight × (1 + ln tf) to its bucket. The sign comes from an
   * independent hash so colliding features cancel on average instead of piling up.
   */
  accumulateInto(out: Float32Array, weight: number): void {
    const dims = out.length;
    for (const slot of this.used) {
      const key = this.keys[slot] as number;
      const value = weight * (1 + Math.log(this.counts[slot] as number));
      const bucket = key % dims;
      out[bucket] = (out[bucket] as number) + ((fmix32(key ^ SEED_SIGN) & 1) === 0 ? value : -value);
    }
  }

  private grow(): void {
    const { keys, counts, used } = this;
    const size = keys.length * 2;
    this.keys = new Uint32Array(size);
    this.counts = new Uint32Array(size);
    this.mask = size - 1;
    this.used = [];
    for (const slot of used) {
      const key = keys[slot] as number;
      const count = counts[slot] as number;
      let target = key & this.mask;
      while ((this.counts[target] as number) !== 0) target = (target + 1) & this.mask;
      this.keys[target] = key;
      this.counts[target] = count;
      this.used.push(target);
    }
  }
}

/** Trigrams of `^token$` hashed straight from char codes, without building substrings. */
function addTrigrams(token: string, counts: FeatureCounts): void {
  const n = token.length + 2;
  for (let i = 0; i + 3 <= n; i++) {
    let h = (0x811c9dc5 ^ SEED_TRIGRAM) >>> 0;
    for (let j = i; j < i + 3; j++) {
      const code = j === 0 ? 0x5e : j === n - 1 ? 0x24 : token.charCodeAt(j - 1);
      h = Math.imul(h ^ code, 0x01000193);
    }
    counts.add(fmix32(h));
  }
}

function normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += (vector[i] as number) * (vector[i] as number);
  if (sum === 0) return vector;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) * scale;
  return vector;
}

/**
 * Deterministic bag-of-features embedding: identifier-split tokens (stopwords
 * dropped), whole identifiers, token bigrams and character trigrams, hashed into
 * `dimensions` signed buckets with sublinear tf, L2-normalised. Text without a
 * significant token embeds to the zero vector (cosine 0 with everything).
 */
export class HashingEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  // Reused across texts: embedding is synchronous, so no two calls interleave.
  private readonly unigrams = new FeatureCounts();
  private readonly identifiers = new FeatureCounts();
  private readonly bigrams = new FeatureCounts();
  private readonly trigrams = new FeatureCounts();

  constructor(options: HashingEmbedderOptions = {}) {
    const dimensions = options.dimensions ?? 384;
    if (!Number.isInteger(dimensions) || dimensions < 8 || dimensions > 65_536) {
      throw new WayfinderError("bad_request:embedding_dimensions", "Embedding dimensions must be 8–65536.");
    }
    this.dimensions = dimensions;
    this.id = `hashing-v1-${dimensions}`;
  }

  /**
   * The text's vector; `onWord`, when given, sees each significant word part as it is
   * hashed, so an embedder built on this one reads the text once.
   */
  embedOne(text: string, onWord?: (part: string) => void): Float32Array {
    const { unigrams, identifiers, bigrams, trigrams } = this;
    unigrams.clear();
    identifiers.clear();
    bigrams.clear();
    trigrams.clear();
    let previous = -1;
    forEachWord(text.length > MAX_HASHED_CHARS ? text.slice(0, MAX_HASHED_CHARS) : text, (parts) => {
      if (parts.length > 1) identifiers.add(hashString(parts.join(""), SEED_IDENTIFIER));
      for (const part of parts) {
        if (!isSignificant(part)) continue;
        onWord?.(part);
        const h = hashString(part, SEED_UNIGRAM);
        unigrams.add(h);
        if (previous >= 0) bigrams.add(hashPair(previous, h, SEED_BIGRAM));
        previous = h;
        addTrigrams(part, trigrams);
      }
    });
    const vector = new Float32Array(this.dimensions);
    unigrams.accumulateInto(vector, WEIGHT_UNIGRAM);
    identifiers.accumulateInto(vector, WEIGHT_IDENTIFIER);
    bigrams.accumulateInto(vector, WEIGHT_BIGRAM);
    trigrams.accumulateInto(vector, WEIGHT_TRIGRAM);
    return normalise(vector);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((text) => this.embedOne(text));
  }
}

// ---------------------------------------------------------------------------
// Provider embedder

export type EmbeddingFailureReason = "timeout" | "aborted" | "provider" | "bad_response";

/** A failed provider embedding call. The message is safe to show; `cause` has the SDK error. */
export class EmbeddingError extends WayfinderError {
  readonly reason: EmbeddingFailureReason;
  readonly statusCode: number | undefined;

  constructor(
    reason: EmbeddingFailureReason,
    message: string,
    options: { cause?: unknown; statusCode?: number } = {},
  ) {
    super(reason === "bad_response" ? "internal:embedding" : "unavailable:embedding", message, options);
    this.name = "EmbeddingError";
    this.reason = reason;
    this.statusCode = options.statusCode;
  }
}

/** An AI SDK embedding model object (gateway model-id strings are not accepted: they need the network). */
type EmbeddingModelObject = Exclude<EmbeddingModel, string>;

/**
 * A model built on first use, and the embedder's id meanwhile: the AI SDK and its
 * provider packages take about 250 ms to load, which a process that never embeds
 * through a provider (an offline CLI run, a test) should not pay.
 */
export interface DeferredEmbeddingModel {
  id: string;
  load: () => Promise<EmbeddingModelObject>;
}

export interface ProviderEmbedderOptions {
  model: EmbeddingModelObject | DeferredEmbeddingModel;
  /** Size of the vectors the model returns; every response is checked against it. */
  dimensions: number;
  /** Ask the provider for `dimensions` (OpenAI text-embedding-3 can shorten its vectors). */
  requestDimensions?: boolean;
  id?: string;
  /** Texts per embedMany call. */
  batchSize?: number;
  /** Batches in flight at once. */
  concurrency?: number;
  /** Per batch, covering the SDK's retries. */
  timeoutMs?: number;
  maxRetries?: number;
}

function statusCodeOf(error: unknown): number | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 4; depth++) {
    const record = e as { statusCode?: unknown; lastError?: unknown; cause?: unknown };
    if (typeof record.statusCode === "number") return record.statusCode;
    e = record.lastError ?? record.cause;
  }
  return undefined;
}

export class ProviderEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly loadModel: () => Promise<EmbeddingModelObject>;
  private model: Promise<EmbeddingModelObject> | null = null;
  private readonly requestDimensions: boolean;
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;

  constructor(options: ProviderEmbedderOptions) {
    if (!Number.isInteger(options.dimensions) || options.dimensions < 1) {
      throw new WayfinderError(
        "bad_request:embedding_dimensions",
        "Embedding dimensions must be a positive integer.",
      );
    }
    const { model } = options;
    this.dimensions = options.dimensions;
    this.requestDimensions = options.requestDimensions ?? false;
    if ("load" in model) {
      this.loadModel = model.load;
      this.id = options.id ?? model.id;
    } else {
      this.loadModel = async () => model;
      this.id = options.id ?? `${model.provider}:${model.modelId}:${options.dimensions}`;
    }
    this.batchSize = Math.max(1, options.batchSize ?? 64);
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxRetries = options.maxRetries ?? 2;
  }

  async embed(texts: string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const out = new Array<Float32Array>(texts.length);
    // The first failure cancels the batches still in flight instead of paying for them.
    const siblings = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, siblings.signal]) : siblings.signal;
    let next = 0;
    // A small worker pool: batches run `concurrency` at a time, results land by index.
    const worker = async (): Promise<void> => {
      while (next < texts.length && !siblings.signal.aborted) {
        const start = next;
        next += this.batchSize;
        const batch = texts.slice(start, start + this.batchSize);
        try {
          const vectors = await this.embedBatch(batch, signal);
          for (let i = 0; i < vectors.length; i++) out[start + i] = vectors[i] as Float32Array;
        } catch (error) {
          siblings.abort();
          throw error;
        }
      }
    };
    const workers = Math.min(this.concurrency, Math.ceil(texts.length / this.batchSize));
    await Promise.all(Array.from({ length: workers }, worker));
    return out;
  }

  private async embedBatch(values: string[], callerSignal: AbortSignal | undefined): Promise<Float32Array[]> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const abortSignal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    const label = this.id;
    let embeddings: number[][];
    try {
      abortSignal.throwIfAborted();
      this.model ??= this.loadModel();
      const [model, { embedMany }] = await Promise.all([this.model, import("ai")]);
      const result = await embedMany({
        model,
        values,
        maxRetries: this.maxRetries,
        abortSignal,
        ...(this.requestDimensions ? { dimensions: this.dimensions } : {}),
      });
      embeddings = result.embeddings;
    } catch (error) {
      if (callerSignal?.aborted) {
        throw new EmbeddingError("aborted", "Embedding was cancelled.", { cause: error });
      }
      if (timeout.aborted) {
        throw new EmbeddingError(
          "timeout",
          `Embedding provider ${label} did not answer within ${this.timeoutMs} ms.`,
          {
            cause: error,
          },
        );
      }
      const statusCode = statusCodeOf(error);
      const status = statusCode === undefined ? "" : ` (HTTP ${statusCode})`;
      throw new EmbeddingError("provider", `Embedding provider ${label} failed${status}.`, {
        cause: error,
        statusCode,
      });
    }
    if (embeddings.length !== values.length) {
      throw new EmbeddingError(
        "bad_response",
        `Embedding provider ${label} returned ${embeddings.length} vectors for ${values.length} texts.`,
      );
    }
    return embeddings.map((embedding) => {
      if (embedding.length !== this.dimensions) {
        throw new EmbeddingError(
          "bad_response",
          `Embedding provider ${label} returned ${embedding.length}-dimensional vectors; ${this.dimensions} were configured.`,
        );
      }
      return normalise(Float32Array.from(embedding));
    });
  }
}

// ---------------------------------------------------------------------------
// Factory

export type EmbedderConfig =
  | { provider: "hashing"; dimensions?: number }
  | {
      provider: "openai" | "openai-compatible";
      model: string;
      baseURL?: string;
      apiKey?: string;
      dimensions?: number;
      timeoutMs?: number;
    };

/**
 * Output sizes of well-known models, so the common configurations need no
 * `dimensions`. Only unambiguous names: a model that ships in several sizes must
 * be configured explicitly.
 */
const KNOWN_DIMENSIONS: Record<string, number> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
  "nomic-embed-text": 768,
  "mxbai-embed-large": 1024,
  "all-minilm": 384,
  "bge-m3": 1024,
};

/** `nomic-ai/nomic-embed-text:v1.5` → `nomic-embed-text`. */
export function knownDimensions(model: string): number | undefined {
  const base = model.split("/").pop()?.split(":")[0]?.toLowerCase() ?? "";
  return KNOWN_DIMENSIONS[base];
}

export function createEmbedder(config: EmbedderConfig): Embedder {
  if (config.provider === "hashing") return new HashingEmbedder({ dimensions: config.dimensions });
  const dimensions = config.dimensions ?? knownDimensions(config.model);
  if (dimensions === undefined) {
    throw new WayfinderError(
      "bad_request:embedding_dimensions",
      `Set the embedding dimensions for model "${config.model}": its vector size is not known in advance.`,
    );
  }
  const { provider, model, apiKey, baseURL } = config;
  const id = `${provider}:${model}:${dimensions}`;
  if (provider === "openai") {
    return new ProviderEmbedder({
      model: {
        id,
        load: async () => {
          const { createOpenAI } = await import("@ai-sdk/openai");
          return createOpenAI({ apiKey, baseURL }).embeddingModel(model);
        },
      },
      dimensions,
      // text-embedding-3 models shorten on request; older ones reject the parameter.
      requestDimensions: config.dimensions !== undefined,
      timeoutMs: config.timeoutMs,
    });
  }
  if (!baseURL) {
    throw new WayfinderError(
      "bad_request:embedding_base_url",
      "An openai-compatible embedding provider needs a base URL.",
    );
  }
  // Compatible servers differ on the `dimensions` parameter, so it is never sent.
  return new ProviderEmbedder({
    model: {
      id,
      load: async () => {
        const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
        return createOpenAICompatible({ name: "openai-compatible", baseURL, apiKey }).embeddingModel(model);
      },
    },
    dimensions,
    timeoutMs: config.timeoutMs,
  });
}
