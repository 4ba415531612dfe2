import { APICallError } from "ai";
import { MockEmbeddingModelV4 } from "ai/test";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  EmbeddingError,
  HashingEmbedder,
  ProviderEmbedder,
  createEmbedder,
  knownDimensions,
  type Embedder,
} from "./embedder.ts";

function cosine(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

function norm(v: Float32Array): number {
  return Math.sqrt(cosine(v, v));
}

async function embedOne(embedder: Embedder, text: string): Promise<Float32Array> {
  const [vector] = await embedder.embed([text]);
  if (!vector) throw new Error("no vector");
  return vector;
}

describe("HashingEmbedder", () => {
  const embedder = new HashingEmbedder();

  it("has 384 dimensions by default and an id naming its vector space", () => {
    expect(embedder.dimensions).toBe(384);
    expect(embedder.id).toBe("hashing-v1-384");
    expect(new HashingEmbedder({ dimensions: 256 }).id).toBe("hashing-v1-256");
  });

  it("returns L2-normalised vectors of the configured size", async () => {
    const [a, b] = await embedder.embed(["def parse_config(path): ...", "x"]);
    expect(a).toHaveLength(384);
    expect(norm(a as Float32Array)).toBeCloseTo(1, 5);
    expect(b).toHaveLength(384);
  });

  it("is deterministic, and independent of batch composition", async () => {
    const alone = await embedOne(embedder, "class HTTPServerError extends Error");
    const [, inBatch] = await new HashingEmbedder().embed([
      "something else entirely",
      "class HTTPServerError extends Error",
    ]);
    expect(Array.from(inBatch as Float32Array)).toEqual(Array.from(alone));
  });

  it("gives the same vector whether or not its feature table had to grow meanwhile", async () => {
    // 3,000 distinct words force the table to rehash during the first call but not the second.
    const long = Array.from({ length: 3000 }, (_, i) => `word${i.toString(36)}x`).join(" ");
    const fresh = new HashingEmbedder();
    const first = await embedOne(fresh, long);
    const second = await embedOne(fresh, long);
    expect(Array.from(first)).toEqual(Array.from(second));
  });

  it("puts similar code nearer than unrelated text", async () => {
    const query = await embedOne(embedder, "getUserById lookup");
    const related = await embedOne(embedder, "function get_user_by_id(id)");
    const unrelated = await embedOne(embedder, "render chart axis labels");
    expect(cosine(query, related)).toBeGreaterThan(cosine(query, unrelated) + 0.3);
  });

  it("bridges word forms through character trigrams", async () => {
    const query = await embedOne(embedder, "users");
    const related = await embedOne(embedder, "class UserRepository");
    const unrelated = await embedOne(embedder, "class ChartAxis");
    expect(cosine(query, related)).toBeGreaterThan(cosine(query, unrelated));
  });

  it("ignores stopwords and language keywords", async () => {
    const a = await embedOne(embedder, "the parser of the config");
    const b = await embedOne(embedder, "def parser(config): return");
    expect(cosine(a, b)).toBeGreaterThan(0.8);
  });

  it("embeds text without significant tokens to the zero vector", async () => {
    const v = await embedOne(embedder, "the a of ?!");
    expect(norm(v)).toBe(0);
  });

  it("rejects silly dimensions", () => {
    expect(() => new HashingEmbedder({ dimensions: 0 })).toThrow(/dimensions/);
    expect(() => new HashingEmbedder({ dimensions: 3.5 })).toThrow(/dimensions/);
  });

  it("embeds 2,000 chunks of code quickly", async () => {
    const chunk =
      "export async function loadUserSettings(userId: string) {\n  const row = await db.settings.find(userId);\n  return row ?? defaults;\n}\n".repeat(
        4,
      );
    const texts = Array.from({ length: 2000 }, (_, i) => `${chunk}\n// ${i}`);
    const started = performance.now();
    await embedder.embed(texts);
    // Budget in production is ~10k chunks in well under 2 s; this is a generous bound for slow CI.
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

/** A mock model whose vector for text "t<i>" is [i, 1, 0, 0]. */
function indexModel(options: { maxEmbeddingsPerCall?: number } = {}) {
  return new MockEmbeddingModelV4({
    maxEmbeddingsPerCall: options.maxEmbeddingsPerCall ?? 1000,
    doEmbed: async ({ values }) => ({
      embeddings: values.map((v) => [Number(v.slice(1)), 1, 0, 0]),
      warnings: [],
    }),
  });
}

describe("ProviderEmbedder", () => {
  it("batches, keeps order and normalises", async () => {
    const model = indexModel();
    const embedder = new ProviderEmbedder({ model, dimensions: 4, batchSize: 64, concurrency: 3 });
    const texts = Array.from({ length: 130 }, (_, i) => `t${i}`);
    const vectors = await embedder.embed(texts);
    expect(model.doEmbedCalls.map((c) => c.values.length).sort((a, b) => a - b)).toEqual([2, 64, 64]);
    expect(vectors).toHaveLength(130);
    vectors.forEach((v, i) => {
      expect(norm(v)).toBeCloseTo(1, 5);
      // Direction encodes the index: v[0] / v[1] === i.
      expect((v[0] as number) / (v[1] as number)).toBeCloseTo(i, 3);
    });
  });

  it("names its vector space after provider, model and size", () => {
    const embedder = new ProviderEmbedder({ model: indexModel(), dimensions: 4 });
    expect(embedder.id).toBe("mock-provider:mock-model-id:4");
  });

  it("builds a deferred model once, on the first embed, and is named before it", async () => {
    const model = indexModel();
    let loads = 0;
    const embedder = new ProviderEmbedder({
      model: {
        id: "openai:text-embedding-3-small:4",
        load: async () => {
          loads++;
          return model;
        },
      },
      dimensions: 4,
      batchSize: 1,
      concurrency: 3,
    });
    expect(embedder.id).toBe("openai:text-embedding-3-small:4");
    expect(loads).toBe(0);
    await embedder.embed(["t1", "t2", "t3"]);
    await embedder.embed(["t4"]);
    expect(loads).toBe(1);
    expect(model.doEmbedCalls).toHaveLength(4);
  });

  it("sends dimensions to the provider only when asked to", async () => {
    const model = indexModel();
    await new ProviderEmbedder({ model, dimensions: 4 }).embed(["t1"]);
    await new ProviderEmbedder({ model, dimensions: 4, requestDimensions: true }).embed(["t1"]);
    expect(model.doEmbedCalls.map((c) => c.dimensions)).toEqual([undefined, 4]);
  });

  it("fails with a typed error when the vector size is not the configured one", async () => {
    const embedder = new ProviderEmbedder({ model: indexModel(), dimensions: 8 });
    const error = await embedder.embed(["t1"]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect(error).toMatchObject({ reason: "bad_response", code: "internal:embedding" });
    expect((error as Error).message).toMatch(/4-dimensional.*8/);
  });

  it("wraps provider failures, keeping the status code and hiding the body", async () => {
    const model = new MockEmbeddingModelV4({
      doEmbed: async () => {
        throw new APICallError({
          message: "Incorrect API key provided: sk-secret",
          url: "https://api.example.test/v1/embeddings",
          requestBodyValues: {},
          statusCode: 401,
          isRetryable: false,
        });
      },
    });
    const embedder = new ProviderEmbedder({ model, dimensions: 4, maxRetries: 0 });
    const error = await embedder.embed(["t1"]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect(error).toMatchObject({ reason: "provider", statusCode: 401, type: "unavailable" });
    expect((error as Error).message).toContain("HTTP 401");
    expect((error as Error).message).not.toContain("sk-secret");
    expect((error as Error).cause).toBeInstanceOf(APICallError);
  });

  it("retries retryable provider errors before giving up", async () => {
    let calls = 0;
    const model = new MockEmbeddingModelV4({
      doEmbed: async ({ values }) => {
        calls++;
        if (calls === 1) {
          throw new APICallError({
            message: "overloaded",
            url: "https://api.example.test",
            requestBodyValues: {},
            statusCode: 503,
            isRetryable: true,
          });
        }
        return { embeddings: values.map(() => [1, 0, 0, 0]), warnings: [] };
      },
    });
    const vectors = await new ProviderEmbedder({ model, dimensions: 4, maxRetries: 1 }).embed(["t1"]);
    expect(calls).toBe(2);
    expect(vectors).toHaveLength(1);
  });

  it("times out a provider that never answers", async () => {
    const model = new MockEmbeddingModelV4({
      doEmbed: ({ abortSignal }) =>
        new Promise((_, reject) => abortSignal?.addEventListener("abort", () => reject(abortSignal.reason))),
    });
    const embedder = new ProviderEmbedder({ model, dimensions: 4, timeoutMs: 50, maxRetries: 0 });
    const started = performance.now();
    const error = await embedder.embed(["t1"]).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: "timeout" });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("reports a caller's cancellation as aborted, before or during the call", async () => {
    let started = 0;
    const model = new MockEmbeddingModelV4({
      doEmbed: ({ abortSignal }) => {
        started++;
        return new Promise((_, reject) =>
          abortSignal?.addEventListener("abort", () => reject(abortSignal.reason)),
        );
      },
    });
    const embedder = new ProviderEmbedder({ model, dimensions: 4, timeoutMs: 10_000, maxRetries: 0 });

    const early = new AbortController();
    early.abort();
    expect(await embedder.embed(["t1"], { signal: early.signal }).catch((e: unknown) => e)).toMatchObject({
      reason: "aborted",
    });
    expect(started).toBe(0);

    const late = new AbortController();
    const pending = embedder.embed(["t1"], { signal: late.signal }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(started).toBe(1));
    late.abort();
    expect(await pending).toMatchObject({ reason: "aborted" });
  });

  it("stops starting new batches after one fails", async () => {
    let calls = 0;
    const model = new MockEmbeddingModelV4({
      doEmbed: async () => {
        calls++;
        throw new APICallError({ message: "no", url: "u", requestBodyValues: {}, statusCode: 400 });
      },
    });
    const embedder = new ProviderEmbedder({
      model,
      dimensions: 4,
      batchSize: 1,
      concurrency: 1,
      maxRetries: 0,
    });
    await expect(embedder.embed(["t1", "t2", "t3", "t4"])).rejects.toBeInstanceOf(EmbeddingError);
    expect(calls).toBe(1);
  });
});

describe("createEmbedder", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("builds the hashing embedder", () => {
    const embedder = createEmbedder({ provider: "hashing" });
    expect(embedder).toBeInstanceOf(HashingEmbedder);
    expect(embedder.dimensions).toBe(384);
  });

  it("knows the size of common models", () => {
    expect(knownDimensions("text-embedding-3-small")).toBe(1536);
    expect(knownDimensions("nomic-ai/nomic-embed-text:v1.5")).toBe(768);
    expect(knownDimensions("my-own-model")).toBeUndefined();
  });

  it("requires dimensions for unknown models and a base URL for compatible servers", () => {
    expect(() =>
      createEmbedder({ provider: "openai-compatible", model: "my-own-model", baseURL: "http://x" }),
    ).toThrow(/dimensions/);
    expect(() => createEmbedder({ provider: "openai-compatible", model: "bge-m3" })).toThrow(/base URL/);
  });

  function stubEmbeddingsEndpoint(dimensions: number) {
    const requests: { url: string; body: { input: string[]; model: string; dimensions?: number } }[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string | URL, init?: RequestInit) => {
        const body = JSON.parse(String(init?.body)) as {
          input: string[];
          model: string;
          dimensions?: number;
        };
        requests.push({ url: String(url), body });
        const data = body.input.map((_, index) => ({
          object: "embedding",
          index,
          embedding: Array.from({ length: dimensions }, (_, j) => (j === index ? 3 : 0)),
        }));
        return new Response(
          JSON.stringify({
            object: "list",
            data,
            model: body.model,
            usage: { prompt_tokens: 1, total_tokens: 1 },
          }),
          { status: 200, headers: { "content-type": "application/json" } },
        );
      }),
    );
    return requests;
  }

  it("wires the OpenAI provider end to end (fetch stubbed, no network)", async () => {
    const requests = stubEmbeddingsEndpoint(8);
    const embedder = createEmbedder({
      provider: "openai",
      model: "text-embedding-3-small",
      apiKey: "k",
      dimensions: 8,
    });
    expect(embedder.dimensions).toBe(8);
    const [a, b] = await embedder.embed(["alpha", "beta"]);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toBe("https://api.openai.com/v1/embeddings");
    expect(requests[0]?.body).toMatchObject({
      model: "text-embedding-3-small",
      input: ["alpha", "beta"],
      dimensions: 8,
    });
    expect(Array.from(a as Float32Array).slice(0, 2)).toEqual([1, 0]);
    expect(Array.from(b as Float32Array).slice(0, 2)).toEqual([0, 1]);
  });

  it("wires an OpenAI-compatible server without sending dimensions", async () => {
    const requests = stubEmbeddingsEndpoint(6);
    const embedder = createEmbedder({
      provider: "openai-compatible",
      model: "local-embedder",
      baseURL: "http://127.0.0.1:11434/v1",
      dimensions: 6,
    });
    await embedder.embed(["alpha"]);
    expect(requests[0]?.url).toBe("http://127.0.0.1:11434/v1/embeddings");
    expect(requests[0]?.body.dimensions).toBeUndefined();
  });
});
