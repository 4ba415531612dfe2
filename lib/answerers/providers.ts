/**
 * Language-model provider registry: builds an AI SDK model from the environment
 * (or admin settings) — OpenAI, Anthropic, or any OpenAI-compatible server such as
 * Ollama, vLLM, llama.cpp or LM Studio. Returns null when none is configured, which
 * means the offline evidence engine answers.
 */
import type { LanguageModel } from "ai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
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

export function createLanguageModel(choice: ProviderChoice): ConfiguredModel | null {
  if (choice.provider === "none") return null;
  const modelId = choice.model ?? DEFAULT_MODELS[choice.provider];
  const label = `${choice.provider}:${modelId}`;
  switch (choice.provider) {
    case "openai":
      return {
        model: createOpenAI({ apiKey: choice.apiKey, baseURL: choice.baseURL })(modelId),
        label,
        timeoutMs: choice.timeoutMs,
      };
    case "anthropic":
      return {
        model: createAnthropic({ apiKey: choice.apiKey, baseURL: choice.baseURL })(modelId),
        label,
        timeoutMs: choice.timeoutMs,
      };
    case "openai-compatible":
      return {
        model: createOpenAICompatible({
          name: "openai-compatible",
          baseURL: choice.baseURL ?? "http://127.0.0.1:11434/v1",
          apiKey: choice.apiKey,
        }).chatModel(modelId),
        label,
        timeoutMs: choice.timeoutMs,
      };
  }
}
