/**
 * A scripted language model for QA tests (AI SDK MockLanguageModelV4): each doStream
 * call plays the next scripted reply as real V4 stream parts (stream-start,
 * text-start / text-delta / text-end, finish), so the production streamText path,
 * the answer-stream filter and the parser all run as they do against a provider.
 */
import { simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import type { MessageChunk, PartWriter } from "../lib/qa/ask.ts";

type StreamResult = Awaited<ReturnType<MockLanguageModelV4["doStream"]>>;
type StreamPart = StreamResult["stream"] extends ReadableStream<infer P> ? P : never;
type GenerateResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;
type CallOptions = MockLanguageModelV4["doStreamCalls"][number];

/** One scripted model turn. */
export type Reply =
  /** streamed as text deltas of `chunkSize` characters */
  | string
  /** streamed exactly as these deltas (to split tags across chunks) */
  | { chunks: string[]; delayMs?: number }
  /** doStream rejects (a provider error before any output) */
  | { error: Error }
  /** doStream never settles and ignores the abort signal (a stuck provider) */
  | { hang: true };

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 20, text: 20, reasoning: undefined },
};

export function textStreamParts(deltas: string[]): StreamPart[] {
  return [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t1" },
    ...deltas.map((delta): StreamPart => ({ type: "text-delta", id: "t1", delta })),
    { type: "text-end", id: "t1" },
    { type: "finish", usage: USAGE, finishReason: { unified: "stop", raw: "stop" } },
  ];
}

function splitEvery(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export function generateResult(text: string): GenerateResult {
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: "stop" },
    usage: USAGE,
    warnings: [],
  };
}

export interface ScriptedModel {
  model: MockLanguageModelV4;
  /** how many answer streams were requested */
  readonly streamCalls: number;
  /** the full prompt text (system + user) of each doStream call, in order */
  prompts(): string[];
}

/**
 * A model that answers each doStream call with the next reply; the last reply repeats
 * once the script runs out (a model that keeps asking for the same thing). doGenerate
 * (classification, sufficiency judgments, rewriting) answers with `generate` replies
 * in order, or fails when none are scripted, which the callers treat as a fallback.
 */
export function scriptedModel(
  replies: Reply[],
  options: { generate?: string[]; chunkSize?: number } = {},
): ScriptedModel {
  let index = 0;
  let generateIndex = 0;
  const chunkSize = options.chunkSize ?? 7;
  const model = new MockLanguageModelV4({
    provider: "mock",
    modelId: "scripted",
    doStream: async () => {
      const reply = replies[Math.min(index, replies.length - 1)];
      index++;
      if (reply === undefined) throw new Error("scripted model has no replies");
      if (typeof reply === "string") {
        return {
          stream: simulateReadableStream({
            chunks: textStreamParts(splitEvery(reply, chunkSize)),
            initialDelayInMs: null,
            chunkDelayInMs: null,
          }),
        };
      }
      if ("error" in reply) throw reply.error;
      if ("hang" in reply) return new Promise<StreamResult>(() => undefined);
      return {
        stream: simulateReadableStream({
          chunks: textStreamParts(reply.chunks),
          initialDelayInMs: null,
          chunkDelayInMs: reply.delayMs ?? null,
        }),
      };
    },
    doGenerate: async () => {
      const text = options.generate?.[generateIndex++];
      if (text === undefined) throw new Error("scripted model: no generate reply");
      return generateResult(text);
    },
  });
  return {
    model,
    get streamCalls() {
      return model.doStreamCalls.length;
    },
    prompts: () => model.doStreamCalls.map(promptText),
  };
}

/** The text of a call's prompt messages (system and user), joined. */
export function promptText(call: CallOptions): string {
  return call.prompt
    .map((m) =>
      typeof m.content === "string"
        ? m.content
        : m.content.map((p) => ("text" in p && typeof p.text === "string" ? p.text : "")).join(""),
    )
    .join("\n");
}

/** A tagged reply in the format the answer prompt asks for. */
export function tagged(
  answer: string,
  missing: string[] | "NONE",
  reasoning = "The context was enough.",
): string {
  const gaps = missing === "NONE" ? "NONE" : missing.map((g) => `- ${g}`).join("\n");
  return `<answer>\n${answer}\n</answer>\n<missing>\n${gaps}\n</missing>\n<reasoning>${reasoning}</reasoning>`;
}

/** Collects every part askQuestion writes, with helpers to read them back. */
export class PartLog implements PartWriter {
  readonly parts: MessageChunk[] = [];

  write(part: MessageChunk): void {
    this.parts.push(part);
  }

  ofType<T extends MessageChunk["type"]>(type: T): Extract<MessageChunk, { type: T }>[] {
    return this.parts.filter((p): p is Extract<MessageChunk, { type: T }> => p.type === type);
  }

  /** the latest state of each `data-*` part with the given type, by id */
  data<T = unknown>(type: `data-${string}`): { id: string | undefined; data: T }[] {
    return this.parts
      .filter((p) => p.type === type)
      .map((p) => p as unknown as { id?: string; data: T })
      .map((p) => ({ id: p.id, data: p.data }));
  }

  /** all text deltas of one text part id, joined */
  text(id: string): string {
    return this.ofType("text-delta")
      .filter((p) => p.id === id)
      .map((p) => p.delta)
      .join("");
  }
}
