/**
 * Language-model provider registry: builds an AI SDK model from the environment
 * (or admin settings) — OpenAI, Anthropic, or any OpenAI-compatible server such as
 * Ollama, vLLM, llama.cpp or LM Studio. Returns null when none is configured, which
 * means the offline evidence engine answers.
 */
import type { LanguageModel } from "ai";
import { env } from "../env.ts";

export interface ProviderChoice {
  provider: "none" | "openai" | "anthropic" | "openai-compatible";
  model?: string;
  baseURL?: string;
  apiKey?: string;
  timeoutMs: number;
}

const DEFAULT_MODELS = {
  openai: "gpt-4o-mini",
  anthropic: "claude-3-5-haiku-latest",
  "openai-compatible": "llama3.1",
} as const;

export function providerFromEnv(): ProviderChoice {
  const e = env();
  return {
    provider: e.llmProvider,
    model: e.LLM_MODEL,
    baseURL: e.LLM_BASE_URL,
    apiKey: e.LLM_API_KEY ?? (e.llmProvider === "anthropic" ? e.ANTHROPIC_API_KEY : e.OPENAI_API_KEY),
    timeoutMs: e.LLM_TIMEOUT_MS,
  };
}

export interface ConfiguredModel {
  model: LanguageModel;
  /** "provider:model", shown in answer metadata */
  label: string;
  timeoutMs: number;
}

/**
 * The provider's package loads here, not with this module: the AI SDK's providers take
 * about 250 ms to load, which the offline default never needs.
 */
export async function createLanguageModel(choice: ProviderChoice): Promise<ConfiguredModel | null> {
  if (choice.provider === "none") return null;
  const { apiKey, baseURL, timeoutMs } = choice;
  const modelId = choice.model ?? DEFAULT_MODELS[choice.provider];
  const label = `${choice.provider}:${modelId}`;
  let model: LanguageModel;
  switch (choice.provider) {
    case "openai": {
      const { createOpenAI } = await import("@ai-sdk/openai");
      model = createOpenAI({ apiKey, baseURL })(modelId);
      break;
    }
    case "anthropic": {
      const { createAnthropic } = await import("@ai-sdk/anthropic");
      model = createAnthropic({ apiKey, baseURL })(modelId);
      break;
    }
    case "openai-compatible": {
      const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
      model = createOpenAICompatible({
        name: "openai-compatible",
        baseURL: baseURL ?? "http://127.0.0.1:11434/v1",
        apiKey,
      }).chatModel(modelId);
      break;
    }
  }
  return { model, label, timeoutMs };
}
