/**
 * Provider failures never cost the user an answer: a model that throws, one that
 * never answers (or stalls mid-reply) within its timeout, and one whose output has
 * no answer text all hand over to the offline evidence engine, with a
 * provider_fallback notice and metadata.fallback. The classifier likewise uses the
 * model's structured output when valid and the trained classifier (with a notice) when not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askQuestion } from "../qa/ask.ts";
import { classifyOffline } from "../qa/classify.ts";
import type { ClassificationPart, NoticePart } from "../qa/types.ts";
import { indexFixture, setupQaHome, type IndexedFixture } from "../../test-support/qa-env.ts";
import { PartLog, scriptedModel, tagged, type Reply } from "../../test-support/qa-model.ts";
import { ModelAnswerer } from "./model-answerer.ts";

let fx: IndexedFixture;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-fallback-"));
  fx = await indexFixture();
});
afterAll(() => cleanup());

const QUESTION = "Why does create_order return 402 with PaymentDeclined?";

async function askWith(reply: Reply, timeoutMs = 5000) {
  const scripted = scriptedModel([reply]);
  const log = new PartLog();
  const started = performance.now();
  const result = await askQuestion(
    { repository: fx.repositoryId, question: QUESTION, overrides: { mode: "diagnostic" } },
    log,
    {
      model: null,
      answerer: new ModelAnswerer(scripted.model, "mock:test", timeoutMs),
    },
  );
  return { result, log, scripted, elapsedMs: performance.now() - started };
}

function expectEvidenceFallback({ result, log }: Awaited<ReturnType<typeof askWith>>, reason: RegExp) {
  const notices = log.data<NoticePart>("data-notice").map((n) => n.data);
  const fallback = notices.filter((n) => n.code === "provider_fallback");
  expect(fallback).toHaveLength(1);
  expect(fallback[0]?.level).toBe("warning");
  expect(fallback[0]?.message).toMatch(reason);
  expect(result.metadata.fallback?.reason).toMatch(reason);
  expect(result.metadata.engine).toBe("evidence");
  // Still a real, cited answer from the evidence engine.
  expect(result.loop.answer).toContain("Evidence summary");
  expect(result.loop.answer).toMatch(/shop\/payments\.py:\d+-\d+/);
  expect(result.citations.some((c) => c.verified)).toBe(true);
  expect(log.text("answer-1")).toContain("Evidence summary");
  expect(log.ofType("finish")).toHaveLength(1);
}

describe("answer fallback", () => {
  it("falls back when the provider throws", async () => {
    const run = await askWith({ error: new Error("connect ECONNREFUSED 127.0.0.1:11434") });
    expectEvidenceFallback(run, /provider failed: .*ECONNREFUSED/);
    // Later passes stay with the evidence engine instead of retrying the broken model.
    expect(run.scripted.streamCalls).toBe(1);
  });

  it("falls back when the provider never answers within the timeout", async () => {
    const run = await askWith({ hang: true }, 250);
    expectEvidenceFallback(run, /did not answer in time/);
    expect(run.elapsedMs).toBeLessThan(5000);
  });

  it("does not accept a reply cut off by the timeout as the answer", async () => {
    const run = await askWith(
      {
        chunks: [
          "<answer>The card is",
          " declined by the gateway",
          " in charge_card.</answer>",
          "<missing>NONE</missing>",
        ],
        delayMs: 300,
      },
      200,
    );
    expectEvidenceFallback(run, /did not answer in time/);
    expect(run.result.loop.answer).not.toContain("The card is");
  });

  it.each([
    ["an empty reply", ""],
    ["empty answer tags", "<answer>\n</answer>\n<missing>\n- lookup_rate()\n</missing>"],
    ["only a missing section", "<missing>- compute_total in shop/pricing.py</missing>"],
  ])("falls back on malformed output: %s", async (_label, reply) => {
    const run = await askWith(reply);
    expectEvidenceFallback(run, /no answer text/);
  });

  it("does not fall back when the model answers properly", async () => {
    const run = await askWith(tagged("`charge_card` raises it (shop/payments.py:12-19).", "NONE"));
    expect(run.result.metadata.fallback).toBeNull();
    expect(run.result.metadata.engine).toBe("mock:test");
    expect(run.log.data<NoticePart>("data-notice")).toEqual([]);
  });
});

describe("classifier", () => {
  async function classifyWith(generate: string[]) {
    const scripted = scriptedModel([tagged("Answer.", "NONE")], { generate });
    const log = new PartLog();
    const result = await askQuestion({ repository: fx.repositoryId, question: QUESTION }, log, {
      model: { model: scripted.model, label: "mock:test", timeoutMs: 5000 },
    });
    return { result, log, notices: log.data<NoticePart>("data-notice").map((n) => n.data) };
  }

  it("uses a valid structured classification from the model", async () => {
    // The trained classifier would not call this exploratory; the model's choice must win.
    expect(classifyOffline(QUESTION).mode).not.toBe("exploratory");
    const { result, log, notices } = await classifyWith([
      JSON.stringify({
        mode: "EXPLORATORY",
        reasoning: "It asks how the order flow reaches a 402.",
        scope: "shop/api.py",
      }),
    ]);
    expect(result.classification).toMatchObject({
      mode: "exploratory",
      source: "llm",
      scope: "shop/api.py",
      forced: false,
    });
    expect(log.data<ClassificationPart>("data-classification")[0]?.data.mode).toBe("exploratory");
    expect(result.metadata.mode).toBe("exploratory");
    expect(notices.map((n) => n.code)).not.toContain("classifier_fallback");
  });

  it.each([
    ["malformed JSON", '{"mode": "DIAGNOS'],
    ["a mode outside the schema", JSON.stringify({ mode: "PHILOSOPHICAL", reasoning: "?", scope: null })],
  ])("falls back to the trained classifier on %s, with a notice", async (_label, text) => {
    const { result, notices } = await classifyWith([text, text]);
    expect(result.classification).toMatchObject({
      mode: classifyOffline(QUESTION).mode,
      source: "classifier",
    });
    const notice = notices.find((n) => n.code === "classifier_fallback");
    expect(notice?.level).toBe("warning");
    // The answer still comes from the model: only classification fell back.
    expect(result.metadata.engine).toBe("mock:test");
  });
});
