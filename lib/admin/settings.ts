/**
 * Admin settings: the view of every layer, validation, saving and resetting (one
 * Setting row per overridden value, keyed `cgrag.<dotted.path>` or `llm.<field>`), and
 * the log of every change. The layers and their loading are lib/settings': defaults ←
 * CGRAG_* env ← these settings ← quality preset ← request; a value equal to what it
 * would inherit is not stored, so it keeps following the layers below it.
 */
import "server-only";
import {
  DEFAULT_CONFIG,
  QUALITY_LIST,
  QUALITY_PRESETS,
  cgragConfigSchema,
  deepMerge,
  isPlainObject,
  type CgragConfig,
  type Quality,
} from "../settings/config.ts";
import { applySettingChanges, listSettingChanges, listSettingRows } from "../db/admin-store.ts";
import { FIELD_BY_KEY, flatten, sameValue } from "../settings/fields.ts";
import { CGRAG_PREFIX, LLM_FIELDS, LLM_PREFIX, loadLayers } from "../settings/load.ts";
import {
  EMPTY_PROVIDER,
  PROVIDERS,
  providerProblem,
  providerView,
  type ProviderView,
  type StoredProvider,
} from "../settings/provider.ts";
import { InvalidFieldsError, type FieldError } from "./invalid-fields.ts";

export interface SettingChangeView {
  id: number;
  key: string;
  label: string;
  oldValue: unknown;
  newValue: unknown;
  actor: string;
  createdAt: string;
}

export interface SettingsView {
  /** what a balanced question uses now: defaults ← env ← stored settings */
  config: CgragConfig;
  /** what the settings inherit: defaults ← env */
  inherited: CgragConfig;
  defaults: CgragConfig;
  /** dotted keys with a stored value */
  overridden: string[];
  /** dotted keys whose inherited value differs from the default (set through CGRAG_* variables) */
  fromEnv: string[];
  presets: Record<Quality, CgragConfig>;
  provider: ProviderView;
  changes: SettingChangeView[];
  /** stored values that no longer validate (e.g. after an env change); the engine ignores them */
  problems: string[];
}

// ---------------------------------------------------------------- validation

/** Keys that are not settings, and groups given as scalars, before zod sees the merged config. */
function shapeProblems(patch: unknown, template: unknown, prefix: string): FieldError[] {
  if (!isPlainObject(patch)) {
    return [{ key: prefix || "settings", message: "Must be a group of settings (an object)." }];
  }
  const problems: FieldError[] = [];
  for (const [k, v] of Object.entries(patch)) {
    const key = prefix ? `${prefix}.${k}` : k;
    const expected = isPlainObject(template) ? template[k] : undefined;
    if (expected === undefined) problems.push({ key, message: "Is not a setting." });
    else if (isPlainObject(expected)) problems.push(...shapeProblems(v, expected, key));
  }
  return problems;
}

function range(min: number | undefined, max: number | undefined, whole: boolean): string {
  const kind = whole ? "a whole number" : "a number";
  if (min !== undefined && max !== undefined) return `${kind} from ${min} to ${max}`;
  if (min !== undefined) return `${kind} of at least ${min}`;
  if (max !== undefined) return `${kind} of at most ${max}`;
  return kind;
}

interface ZodIssueLike {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
}

/** A zod issue as a sentence an admin can act on, attached to its form field. */
export function describeIssue(issue: ZodIssueLike): FieldError {
  const path = issue.path.map(String);
  const listIndex = path.findIndex((p) => /^\d+$/.test(p));
  const key = listIndex >= 0 ? path.slice(0, listIndex).join(".") : path.join(".");
  const field = FIELD_BY_KEY.get(key);
  const item = listIndex >= 0 ? `Value ${Number(path[listIndex]) + 1} must be` : "Must be";
  const whole = field?.kind === "int" || field?.kind === "int-list";
  const numberRule = `${item} ${range(field?.min, field?.max, whole)}.`;
  switch (issue.code) {
    case "invalid_type":
      if (issue.expected === "boolean") return { key, message: "Must be on or off (true or false)." };
      if (issue.expected === "array") return { key, message: "Must be a list of whole numbers." };
      if (issue.expected === "object") return { key, message: "Must be a group of settings (an object)." };
      return { key, message: numberRule };
    case "too_small":
    case "too_big":
      if (issue.origin === "array") {
        return {
          key,
          message: `Needs ${field?.minItems ?? 1} to ${field?.maxItems ?? 8} values (one per gap-resolution pass).`,
        };
      }
      return { key, message: numberRule };
    default:
      return { key, message: readable(issue.message) };
  }
}

/** A cross-field rule's message with setting keys replaced by their labels ("initial retrieval budget …"). */
function readable(message: string): string {
  const text = message.replace(
    /\b[a-z]+[A-Z][A-Za-z]*\b/g,
    (word) => FIELD_BY_KEY.get(word)?.label.toLowerCase() ?? word,
  );
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return sentence.endsWith(".") ? sentence : `${sentence}.`;
}

/**
 * Validates a partial config over a base config: unknown keys, wrong types, out of
 * range values and cross-field rules (initial ≤ total, per-gap ≤ gap resolution).
 */
export function validateConfigPatch(
  base: CgragConfig,
  patch: unknown,
): { ok: true; config: CgragConfig } | { ok: false; errors: FieldError[] } {
  const shape = shapeProblems(patch, DEFAULT_CONFIG, "");
  if (shape.length) return { ok: false, errors: shape };
  const result = cgragConfigSchema.safeParse(deepMerge(base, patch));
  if (result.success) return { ok: true, config: result.data };
  return { ok: false, errors: dedupe(result.error.issues.map((i) => describeIssue(i))) };
}

function dedupe(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const id = `${e.key}|${e.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

function validateProvider(
  input: unknown,
): { ok: true; value: StoredProvider } | { ok: false; errors: FieldError[] } {
  if (!isPlainObject(input)) return { ok: false, errors: [{ key: "llm", message: "Must be an object." }] };
  const errors: FieldError[] = [];
  for (const k of Object.keys(input)) {
    if (!(LLM_FIELDS as readonly string[]).includes(k))
      errors.push({ key: `llm.${k}`, message: "Is not a setting." });
  }
  const text = (k: string) => {
    const v = input[k];
    if (v === undefined || v === null) return null;
    if (typeof v !== "string") {
      errors.push({ key: `llm.${k}`, message: "Must be text." });
      return null;
    }
    return v.trim() || null;
  };
  const provider = text("provider");
  const model = text("model");
  const baseURL = text("baseURL");
  if (provider !== null && !(PROVIDERS as readonly string[]).includes(provider)) {
    errors.push({ key: "llm.provider", message: `Must be one of ${PROVIDERS.join(", ")}.` });
  }
  if (model !== null && !/^[A-Za-z0-9._:/@+-]{1,200}$/.test(model)) {
    errors.push({
      key: "llm.model",
      message: "Use a model id such as gpt-4o-mini or llama3.1:8b (letters, digits and . _ : / @ + -).",
    });
  }
  if (baseURL !== null) {
    let url: URL | null = null;
    try {
      url = new URL(baseURL);
    } catch {
      // reported below
    }
    if (!url || !["http:", "https:"].includes(url.protocol) || url.username || url.password) {
      errors.push({
        key: "llm.baseURL",
        message: "Must be an http(s) URL without credentials, e.g. http://127.0.0.1:11434/v1.",
      });
    }
  }
  if (errors.length) return { ok: false, errors };
  const value: StoredProvider = { provider: provider as StoredProvider["provider"], model, baseURL };
  const problem = providerProblem(value);
  return problem ? { ok: false, errors: [problem] } : { ok: true, value };
}

function labelOf(key: string): string {
  if (key.startsWith(LLM_PREFIX)) {
    return { "llm.provider": "Provider", "llm.model": "Model", "llm.baseURL": "Base URL" }[key] ?? key;
  }
  return FIELD_BY_KEY.get(key.slice(CGRAG_PREFIX.length))?.label ?? key;
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function getSettingsView(): Promise<SettingsView> {
  const layers = await loadLayers();
  const changes = await listSettingChanges({ limit: 100 });
  const inheritedFlat = flatten(layers.inherited);
  const defaultFlat = flatten(DEFAULT_CONFIG);
  return {
    config: layers.config,
    inherited: layers.inherited,
    defaults: DEFAULT_CONFIG,
    overridden: Object.keys(layers.stored.cgrag),
    fromEnv: Object.keys(inheritedFlat).filter((k) => !sameValue(inheritedFlat[k], defaultFlat[k])),
    presets: Object.fromEntries(QUALITY_LIST.map((q) => [q, QUALITY_PRESETS[q](layers.config)])) as Record<
      Quality,
      CgragConfig
    >,
    provider: providerView(layers.stored.llm),
    changes: changes.map((c) => ({
      id: c.id,
      key: c.key,
      label: labelOf(c.key),
      oldValue: parseJson(c.oldValue),
      newValue: parseJson(c.newValue),
      actor: c.actor,
      createdAt: c.createdAt.toISOString(),
    })),
    problems: layers.problems,
  };
}

// --------------------------------------------------------------------- saving

interface Plan {
  upserts: { key: string; value: string }[];
  deletes: string[];
  changes: { key: string; oldValue: string | null; newValue: string | null; actor: string }[];
}

/** Rows and log entries that take the stored settings from `before` to `after`. */
function planCgrag(
  before: CgragConfig,
  after: CgragConfig,
  inherited: CgragConfig,
  storedKeys: string[],
  actor: string,
  plan: Plan,
): void {
  const was = flatten(before);
  const now = flatten(after);
  const base = flatten(inherited);
  for (const [key, value] of Object.entries(now)) {
    const row = `${CGRAG_PREFIX}${key}`;
    if (!sameValue(value, base[key])) plan.upserts.push({ key: row, value: JSON.stringify(value) });
    else if (storedKeys.includes(key)) plan.deletes.push(row);
    if (!sameValue(was[key], value)) {
      plan.changes.push({
        key: row,
        oldValue: JSON.stringify(was[key]),
        newValue: JSON.stringify(value),
        actor,
      });
    }
  }
}

function planProvider(before: StoredProvider, after: StoredProvider, actor: string, plan: Plan): void {
  for (const field of LLM_FIELDS) {
    const key = `${LLM_PREFIX}${field}`;
    const value = after[field];
    if (value === before[field]) continue;
    if (value === null) plan.deletes.push(key);
    else plan.upserts.push({ key, value: JSON.stringify(value) });
    plan.changes.push({
      key,
      oldValue: before[field] === null ? null : JSON.stringify(before[field]),
      newValue: value === null ? null : JSON.stringify(value),
      actor,
    });
  }
}

export interface SettingsUpdate {
  /** partial CGRAG config (nested like CgragConfig) */
  cgrag?: unknown;
  /** the full provider choice; omitted = unchanged, null fields = from the environment */
  llm?: unknown;
}

/** Validates and stores a change; throws InvalidFieldsError listing every bad field. */
export async function saveSettings(update: SettingsUpdate, actor: string): Promise<SettingsView> {
  const layers = await loadLayers();
  const errors: FieldError[] = [];
  let nextConfig = layers.config;
  if (update.cgrag !== undefined) {
    const result = validateConfigPatch(layers.config, update.cgrag);
    if (result.ok) nextConfig = result.config;
    else errors.push(...result.errors);
  }
  let nextProvider = layers.stored.llm;
  if (update.llm !== undefined) {
    const result = validateProvider(update.llm);
    if (result.ok) nextProvider = result.value;
    else errors.push(...result.errors);
  }
  if (errors.length) throw new InvalidFieldsError("settings", errors);
  const plan: Plan = { upserts: [], deletes: [], changes: [] };
  if (update.cgrag !== undefined) {
    planCgrag(layers.config, nextConfig, layers.inherited, Object.keys(layers.stored.cgrag), actor, plan);
  }
  if (update.llm !== undefined) planProvider(layers.stored.llm, nextProvider, actor, plan);
  await applySettingChanges(plan);
  return getSettingsView();
}

/** Drops every stored setting (engine and provider); each value that moves is logged. */
export async function resetSettings(actor: string): Promise<SettingsView> {
  const layers = await loadLayers();
  const plan: Plan = { upserts: [], deletes: [], changes: [] };
  planCgrag(layers.config, layers.inherited, layers.inherited, [], actor, plan);
  planProvider(layers.stored.llm, EMPTY_PROVIDER, actor, plan);
  // Every row goes, including ones no longer valid or known.
  plan.deletes = (await listSettingRows()).map((r) => r.key);
  await applySettingChanges(plan);
  return getSettingsView();
}
