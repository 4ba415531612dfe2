/**
 * The admin's provider and model choice layered over the environment's. Only the
 * provider, model id and base URL are stored; API keys stay in the environment and
 * leave this module only as "present / missing", never as values.
 */
import "server-only";
import { env } from "../env.ts";
import { providerFromEnv, type ProviderChoice } from "../answerers/providers.ts";

export const PROVIDERS = ["none", "openai", "anthropic", "openai-compatible"] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** What the admin stored; null means "as the environment says". */
export interface StoredProvider {
  provider: ProviderName | null;
  model: string | null;
  baseURL: string | null;
}

export const EMPTY_PROVIDER: StoredProvider = { provider: null, model: null, baseURL: null };

export interface ProviderView {
  stored: StoredProvider;
  environment: { provider: ProviderName; model: string | null; baseURL: string | null };
  effective: { provider: ProviderName; model: string | null; baseURL: string | null; hasApiKey: boolean };
  /** which key variables are set (names only) */
  keys: { LLM_API_KEY: boolean; OPENAI_API_KEY: boolean; ANTHROPIC_API_KEY: boolean };
}

/** Same key lookup as providerFromEnv, for a provider the admin picked. */
function apiKeyFor(provider: ProviderName): string | undefined {
  const e = env();
  if (provider === "none") return undefined;
  return e.LLM_API_KEY ?? (provider === "anthropic" ? e.ANTHROPIC_API_KEY : e.OPENAI_API_KEY);
}

/**
 * The provider a question uses. Switching provider drops the environment's model and
 * base URL (an Ollama URL means nothing to Anthropic); keeping it inherits them.
 */
export function resolveProviderChoice(stored: StoredProvider): ProviderChoice {
  const base = providerFromEnv();
  const provider = stored.provider ?? base.provider;
  const switched = provider !== base.provider;
  return {
    provider,
    model: stored.model ?? (switched ? undefined : base.model),
    baseURL: stored.baseURL ?? (switched ? undefined : base.baseURL),
    apiKey: switched ? apiKeyFor(provider) : base.apiKey,
    timeoutMs: base.timeoutMs,
  };
}

export function providerView(stored: StoredProvider): ProviderView {
  const e = env();
  const base = providerFromEnv();
  const choice = resolveProviderChoice(stored);
  return {
    stored,
    environment: { provider: base.provider, model: base.model ?? null, baseURL: base.baseURL ?? null },
    effective: {
      provider: choice.provider,
      model: choice.model ?? null,
      baseURL: choice.baseURL ?? null,
      hasApiKey: Boolean(choice.apiKey),
    },
    keys: {
      LLM_API_KEY: Boolean(e.LLM_API_KEY),
      OPENAI_API_KEY: Boolean(e.OPENAI_API_KEY),
      ANTHROPIC_API_KEY: Boolean(e.ANTHROPIC_API_KEY),
    },
  };
}

/** A problem with a choice that would make every question fall back, or null. */
export function providerProblem(stored: StoredProvider): { key: string; message: string } | null {
  const choice = resolveProviderChoice(stored);
  if ((choice.provider === "openai" || choice.provider === "anthropic") && !choice.apiKey) {
    const variable = choice.provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
    return {
      key: "llm.provider",
      message: `No API key for ${choice.provider} in the environment: set ${variable} or LLM_API_KEY and restart.`,
    };
  }
  return null;
}
