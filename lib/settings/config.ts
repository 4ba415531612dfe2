/**
 * CGRAG configuration: every budget and switch of the engine, its defaults, the
 * quality presets, and how layers combine: defaults ← CGRAG_* env ← admin settings
 * ← quality preset ← per-request overrides. Validated with zod at each layer. The
 * stored layer is read by load.ts; the request layer comes with each question.
 */
import { z } from "zod";
import type { QueryMode } from "../answerers/contract.ts";

/** How hard a question is worked on: a preset over the configuration (QUALITY_PRESETS). */
export const QUALITY_LIST = ["quick", "balanced", "thorough"] as const;
export type Quality = (typeof QUALITY_LIST)[number];

const modeBudget = z.object({
  docs: z.number().int().min(0).max(32_000),
  source: z.number().int().min(0).max(64_000),
  issues: z.number().int().min(0).max(16_000),
});

export const cgragConfigSchema = z
  .object({
    maxPasses: z.number().int().min(1).max(8),
    stopOnNoNewContext: z.boolean(),
    totalContextBudget: z.number().int().min(500).max(200_000),
    initialRetrievalBudget: z.number().int().min(200).max(150_000),
    gapResolutionBudget: z.number().int().min(0).max(100_000),
    perGapBudget: z.number().int().min(50).max(20_000),
    /** per-pass gap budgets, index 0 = pass 2 (first gap-resolution pass); the last value repeats */
    perPassGapBudget: z.array(z.number().int().min(50).max(50_000)).min(1).max(8),
    modeBudgets: z.object({
      conceptual: modeBudget,
      diagnostic: modeBudget,
      exploratory: modeBudget,
      analytical: modeBudget,
    }),
    maxCallGraphHops: z.number().int().min(0).max(6),
    maxCallersPerHop: z.number().int().min(0).max(50),
    maxCalleesPerHop: z.number().int().min(0).max(50),
    prioritizeMutatingFunctions: z.boolean(),
    maxSourceLinesPerFunction: z.number().int().min(5).max(2000),
    truncateLongFunctions: z.boolean(),
    semanticTopK: z.number().int().min(1).max(20),
    docstringMaxLength: z.number().int().min(0).max(4000),
    sessionTtlMinutes: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 60),
    sessionMaxCachedSources: z.number().int().min(0).max(500),
    highConfidenceThreshold: z.number().min(0).max(1),
    mediumConfidenceThreshold: z.number().min(0).max(1),
    features: z.object({
      useCodeIndex: z.boolean(),
      useCallGraph: z.boolean(),
      useSourceFetching: z.boolean(),
      useModeRouting: z.boolean(),
      useGapResolution: z.boolean(),
      useQuestionRewrite: z.boolean(),
      useSymbolRanker: z.boolean(),
    }),
  })
  .refine((c) => c.initialRetrievalBudget <= c.totalContextBudget, {
    message: "initialRetrievalBudget cannot exceed totalContextBudget",
    path: ["initialRetrievalBudget"],
  })
  .refine((c) => c.mediumConfidenceThreshold <= c.highConfidenceThreshold, {
    message: "mediumConfidenceThreshold cannot exceed highConfidenceThreshold",
    path: ["mediumConfidenceThreshold"],
  })
  .refine((c) => c.perGapBudget <= c.gapResolutionBudget || c.gapResolutionBudget === 0, {
    message: "perGapBudget cannot exceed gapResolutionBudget",
    path: ["perGapBudget"],
  });

export type CgragConfig = z.infer<typeof cgragConfigSchema>;

export const DEFAULT_CONFIG: CgragConfig = {
  maxPasses: 3,
  stopOnNoNewContext: true,
  totalContextBudget: 6000,
  initialRetrievalBudget: 4000,
  gapResolutionBudget: 2000,
  perGapBudget: 500,
  perPassGapBudget: [1000, 750, 500],
  modeBudgets: {
    conceptual: { docs: 1500, source: 2500, issues: 0 },
    diagnostic: { docs: 1000, source: 2000, issues: 0 },
    exploratory: { docs: 500, source: 2500, issues: 0 },
    analytical: { docs: 500, source: 1500, issues: 1000 },
  },
  maxCallGraphHops: 3,
  maxCallersPerHop: 5,
  maxCalleesPerHop: 8,
  prioritizeMutatingFunctions: true,
  maxSourceLinesPerFunction: 100,
  truncateLongFunctions: true,
  semanticTopK: 3,
  docstringMaxLength: 200,
  sessionTtlMinutes: 30,
  sessionMaxCachedSources: 50,
  highConfidenceThreshold: 0.8,
  mediumConfidenceThreshold: 0.5,
  features: {
    useCodeIndex: true,
    useCallGraph: true,
    useSourceFetching: true,
    useModeRouting: true,
    useGapResolution: true,
    useQuestionRewrite: true,
    useSymbolRanker: true,
  },
};

/** Quality presets change passes and budgets (a trade of latency and cost for completeness). */
export const QUALITY_PRESETS: Record<Quality, (c: CgragConfig) => CgragConfig> = {
  quick: (c) => ({
    ...c,
    maxPasses: 1,
    totalContextBudget: Math.round(c.totalContextBudget * 0.6),
    initialRetrievalBudget: Math.round(c.initialRetrievalBudget * 0.6),
    maxCallGraphHops: Math.min(c.maxCallGraphHops, 2),
  }),
  balanced: (c) => c,
  thorough: (c) => ({
    ...c,
    maxPasses: Math.max(c.maxPasses, 4),
    totalContextBudget: Math.round(c.totalContextBudget * 1.5),
    initialRetrievalBudget: Math.round(c.initialRetrievalBudget * 1.25),
    gapResolutionBudget: Math.round(c.gapResolutionBudget * 1.75),
    perPassGapBudget: [...c.perPassGapBudget, c.perPassGapBudget[c.perPassGapBudget.length - 1] ?? 500],
    maxCallGraphHops: Math.max(c.maxCallGraphHops, 4),
  }),
};

export interface RequestOverrides {
  mode?: QueryMode;
  quality?: Quality;
  maxPasses?: number;
}

/** Deep-merges a partial object into a config (objects merge, arrays and scalars replace). */
export function mergeConfig(base: CgragConfig, patch: unknown): CgragConfig {
  const merged = deepMerge(base, patch);
  const result = cgragConfigSchema.safeParse(merged);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  return result.data;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join("; ")}`);
    this.name = "ConfigError";
  }
}

/** `patch` laid over `base`, object by object (arrays and other values replace). */
export function deepMerge(base: unknown, patch: unknown): unknown {
  if (patch === undefined) return base;
  if (!isPlainObject(base) || !isPlainObject(patch)) return patch;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) out[k] = deepMerge(base[k], v);
  return out;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const ENV_KEYS: Record<string, string> = {
  max_passes: "maxPasses",
  stop_on_no_new_context: "stopOnNoNewContext",
  total_context_budget: "totalContextBudget",
  initial_retrieval_budget: "initialRetrievalBudget",
  gap_resolution_budget: "gapResolutionBudget",
  per_gap_budget: "perGapBudget",
  max_call_graph_hops: "maxCallGraphHops",
  max_callers_per_hop: "maxCallersPerHop",
  max_callees_per_hop: "maxCalleesPerHop",
  prioritize_mutating_functions: "prioritizeMutatingFunctions",
  max_source_lines_per_function: "maxSourceLinesPerFunction",
  truncate_long_functions: "truncateLongFunctions",
  semantic_top_k: "semanticTopK",
  docstring_max_length: "docstringMaxLength",
  session_ttl_minutes: "sessionTtlMinutes",
  session_max_cached_sources: "sessionMaxCachedSources",
  use_code_index: "features.useCodeIndex",
  use_call_graph: "features.useCallGraph",
  use_source_fetching: "features.useSourceFetching",
  use_mode_routing: "features.useModeRouting",
  use_gap_resolution: "features.useGapResolution",
  use_question_rewrite: "features.useQuestionRewrite",
  use_symbol_ranker: "features.useSymbolRanker",
};

/** Turns `CGRAG_*` variables (already stripped and lower-cased by lib/env) into a config patch. */
export function envPatch(overrides: Record<string, string>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(overrides)) {
    const target = ENV_KEYS[key];
    if (!target) throw new ConfigError([`CGRAG_${key.toUpperCase()} is not a known setting`]);
    const value = /^(true|false)$/i.test(raw) ? raw.toLowerCase() === "true" : Number(raw);
    if (typeof value === "number" && Number.isNaN(value)) {
      throw new ConfigError([`CGRAG_${key.toUpperCase()} must be a number or true/false, got "${raw}"`]);
    }
    const [head, tail] = target.split(".") as [string, string | undefined];
    if (tail) patch[head] = { ...(patch[head] as object), [tail]: value };
    else patch[head] = value;
  }
  return patch;
}

/** The effective configuration for one request. */
export function effectiveConfig(input: {
  envOverrides?: Record<string, string>;
  settings?: unknown;
  overrides?: RequestOverrides;
}): CgragConfig {
  let config = DEFAULT_CONFIG;
  if (input.envOverrides && Object.keys(input.envOverrides).length) {
    config = mergeConfig(config, envPatch(input.envOverrides));
  }
  if (input.settings) config = mergeConfig(config, input.settings);
  config = QUALITY_PRESETS[input.overrides?.quality ?? "balanced"](config);
  if (input.overrides?.maxPasses !== undefined)
    config = mergeConfig(config, { maxPasses: input.overrides.maxPasses });
  return config;
}

/** The gap budget for a pass (pass 2 is the first that resolves gaps). */
export function gapBudgetForPass(config: CgragConfig, pass: number): number {
  const list = config.perPassGapBudget;
  const index = Math.max(0, pass - 2);
  return list[Math.min(index, list.length - 1)] ?? config.perGapBudget;
}

export function modeBudgetTotal(config: CgragConfig, mode: QueryMode): number {
  const b = config.modeBudgets[mode];
  return Math.min(config.initialRetrievalBudget, b.docs + b.source + b.issues);
}
