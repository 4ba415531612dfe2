/**
 * The stored layer of the engine's settings, read fresh from the database for each use
 * so an admin's change applies without a restart: one Setting row per overridden value,
 * keyed `cgrag.<dotted.path>` or `llm.<field>` (lib/admin/settings.ts writes them).
 * loadEngineSettings gives a question what it runs with — the stored patch and the
 * configured model; loadLayers gives the admin page every layer.
 */
import "server-only";
import { listSettingRows } from "../db/admin-store.ts";
import { env } from "../env.ts";
import { createLanguageModel, type ConfiguredModel } from "../answerers/providers.ts";
import { ConfigError, DEFAULT_CONFIG, envPatch, mergeConfig, type CgragConfig } from "./config.ts";
import { FIELD_BY_KEY, unflatten, type FlatSettings } from "./fields.ts";
import { EMPTY_PROVIDER, resolveProviderChoice, type StoredProvider } from "./provider.ts";

export const CGRAG_PREFIX = "cgrag.";
export const LLM_PREFIX = "llm.";
export const LLM_FIELDS = ["provider", "model", "baseURL"] as const;

export interface StoredSettings {
  cgrag: FlatSettings;
  llm: StoredProvider;
}

async function loadStored(): Promise<StoredSettings> {
  const cgrag: FlatSettings = {};
  const llm: StoredProvider = { ...EMPTY_PROVIDER };
  for (const row of await listSettingRows()) {
    let value: unknown;
    try {
      value = JSON.parse(row.value);
    } catch {
      continue;
    }
    if (row.key.startsWith(CGRAG_PREFIX)) cgrag[row.key.slice(CGRAG_PREFIX.length)] = value;
    else if (row.key.startsWith(LLM_PREFIX)) {
      const field = row.key.slice(LLM_PREFIX.length) as keyof StoredProvider;
      if ((LLM_FIELDS as readonly string[]).includes(field) && typeof value === "string") {
        (llm as unknown as Record<string, string>)[field] = value;
      }
    }
  }
  return { cgrag, llm };
}

/** defaults ← CGRAG_* env; a bad variable is reported, not fatal for the admin page. */
function inheritedConfig(): { config: CgragConfig; problem: string | null } {
  const overrides = env().cgragOverrides;
  if (!Object.keys(overrides).length) return { config: DEFAULT_CONFIG, problem: null };
  try {
    return { config: mergeConfig(DEFAULT_CONFIG, envPatch(overrides)), problem: null };
  } catch (error) {
    return { config: DEFAULT_CONFIG, problem: error instanceof Error ? error.message : String(error) };
  }
}

export interface Layers {
  stored: StoredSettings;
  inherited: CgragConfig;
  config: CgragConfig;
  /** the stored engine patch is usable (it validates over the inherited layers) */
  usable: boolean;
  problems: string[];
}

export async function loadLayers(): Promise<Layers> {
  const stored = await loadStored();
  const inherited = inheritedConfig();
  const problems = inherited.problem ? [inherited.problem] : [];
  // Rows of settings this version no longer has are reported and left out.
  for (const key of Object.keys(stored.cgrag)) {
    if (FIELD_BY_KEY.has(key)) continue;
    problems.push(`${key}: is not a setting (stored by an older version?)`);
    delete stored.cgrag[key];
  }
  try {
    const config = mergeConfig(inherited.config, unflatten(stored.cgrag));
    return { stored, inherited: inherited.config, config, usable: true, problems };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
    return { stored, inherited: inherited.config, config: inherited.config, usable: false, problems };
  }
}

export interface EngineSettings {
  /** the stored patch for askQuestion's `deps.settings` (undefined when there is none or it is invalid) */
  settings: Record<string, unknown> | undefined;
  /** the configured model (admin choice over the environment), null = offline evidence engine */
  model: ConfiguredModel | null;
  label: string;
}

/**
 * The stored patch a question applies over the environment (undefined when there is
 * none). Settings that stopped validating (an env change made them contradict) are
 * skipped with a log line instead of failing every question.
 */
function usablePatch(layers: Layers): Record<string, unknown> | undefined {
  if (layers.problems.length) {
    console.warn(`[wayfinder] admin settings: ${layers.problems.join("; ")}`);
  }
  return layers.usable && Object.keys(layers.stored.cgrag).length
    ? unflatten(layers.stored.cgrag)
    : undefined;
}

/** The stored patch alone, for a configuration without the model (lib/qa/ask.ts questionConfig). */
export async function loadStoredPatch(): Promise<Record<string, unknown> | undefined> {
  return usablePatch(await loadLayers());
}

/** What the next question (or wiki summary) runs with: the stored patch and the configured model. */
export async function loadEngineSettings(): Promise<EngineSettings> {
  const layers = await loadLayers();
  const settings = usablePatch(layers);
  const choice = resolveProviderChoice(layers.stored.llm);
  const model = await createLanguageModel(choice);
  return { settings, model, label: model?.label ?? "offline evidence engine" };
}
