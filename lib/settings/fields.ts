/**
 * The admin form's description of every engine setting: one field per leaf of the
 * CGRAG configuration, with a label, help, unit and the limits of its zod schema
 * (read from the schema, so the form and validation cannot disagree). Also the
 * flatten/unflatten helpers that turn a config into `dotted.key → value` pairs, the
 * unit stored in the Setting table and shown in the change log. Pure: the settings
 * page imports it in the browser.
 */
import { z } from "zod";
import { cgragConfigSchema } from "./config.ts";
import { QUERY_MODE_LIST } from "../answerers/contract.ts";

export type FieldKind = "int" | "number" | "boolean" | "int-list";

export type SettingGroup =
  | "loop"
  | "budgets"
  | "modeBudgets"
  | "callGraph"
  | "source"
  | "sessions"
  | "confidence"
  | "features";

export interface SettingField {
  /** dotted path into the config, e.g. `modeBudgets.diagnostic.source` */
  key: string;
  label: string;
  help: string;
  group: SettingGroup;
  kind: FieldKind;
  unit?: string;
  min?: number;
  max?: number;
  /** list fields: how many values */
  minItems?: number;
  maxItems?: number;
  /** set when the engine does not read this value yet (kept for seed 002 parity) */
  note?: string;
}

export const GROUP_TITLES: Record<SettingGroup, { title: string; help: string }> = {
  loop: { title: "CGRAG loop", help: "How many answer passes a question may take and when the loop stops." },
  budgets: {
    title: "Context budgets",
    help: "Tokens of context the model sees: in total, for the first retrieval and for gap resolution.",
  },
  modeBudgets: {
    title: "Budgets per mode",
    help: "First-pass tokens by source for each question mode (capped by the initial retrieval budget).",
  },
  callGraph: { title: "Call graph", help: "How far retrieval walks callers and callees from an anchor." },
  source: { title: "Source fetching", help: "How much of a function's source goes into the context." },
  sessions: { title: "Sessions", help: "Follow-up questions reuse cached context for a while." },
  confidence: { title: "Confidence thresholds", help: "Score boundaries of the high / medium labels." },
  features: {
    title: "Feature flags",
    help: "Switch parts of the engine off for debugging or speed; disabled routing falls back to conceptual search.",
  },
};

type FieldText = Omit<SettingField, "key" | "kind" | "min" | "max" | "minItems" | "maxItems">;

const MODE_SOURCES = {
  docs: "wiki and docs",
  source: "source code",
  issues: "issues store",
} as const;

const TEXT: Record<string, FieldText> = {
  maxPasses: {
    label: "Max passes",
    help: "Answer passes per question; each later pass resolves the gaps the previous one named.",
    group: "loop",
    unit: "passes",
  },
  stopOnNoNewContext: {
    label: "Stop when a pass adds nothing",
    help: "End the loop early when gap resolution found no new context.",
    group: "loop",
  },
  semanticTopK: {
    label: "Semantic search results per gap",
    help: "The last resort of gap resolution keeps this many hits.",
    group: "loop",
    unit: "results",
  },
  totalContextBudget: {
    label: "Total context budget",
    help: "All context across all passes.",
    group: "budgets",
    unit: "tokens",
  },
  initialRetrievalBudget: {
    label: "Initial retrieval budget",
    help: "Context of the first pass; at most the total budget.",
    group: "budgets",
    unit: "tokens",
  },
  gapResolutionBudget: {
    label: "Gap resolution budget",
    help: "Context added by all later passes together (0 = unlimited within the total).",
    group: "budgets",
    unit: "tokens",
  },
  perGapBudget: {
    label: "Per-gap budget",
    help: "Context one resolved gap may add; at most the gap resolution budget.",
    group: "budgets",
    unit: "tokens",
  },
  perPassGapBudget: {
    label: "Gap budget per pass",
    help: "Budget of pass 2, pass 3, …; the last value repeats for later passes.",
    group: "budgets",
    unit: "tokens",
  },
  maxCallGraphHops: {
    label: "Call-graph hops",
    help: "How many steps retrieval follows callers (diagnostic) or callees (exploratory).",
    group: "callGraph",
    unit: "hops",
  },
  maxCallersPerHop: {
    label: "Callers per hop",
    help: "Fan-out cap when walking backwards to callers.",
    group: "callGraph",
    unit: "functions",
  },
  maxCalleesPerHop: {
    label: "Callees per hop",
    help: "Fan-out cap when walking forwards to callees.",
    group: "callGraph",
    unit: "functions",
  },
  prioritizeMutatingFunctions: {
    label: "Prefer functions that mutate state",
    help: "Diagnostic retrieval ranks callers that change state first.",
    group: "callGraph",
  },
  maxSourceLinesPerFunction: {
    label: "Source lines per function",
    help: "Longer functions are cut to signature, docstring and head.",
    group: "source",
    unit: "lines",
  },
  truncateLongFunctions: {
    label: "Truncate long functions",
    help: "Off: a function over its budget is left out rather than cut.",
    group: "source",
  },
  docstringMaxLength: {
    label: "Docstring cap",
    help: "Characters of a docstring kept for answers and the evidence graph.",
    group: "source",
    unit: "characters",
  },
  sessionTtlMinutes: {
    label: "Session cache lifetime",
    help: "After this long without a question a session's cached context is dropped.",
    group: "sessions",
    unit: "minutes",
  },
  sessionMaxCachedSources: {
    label: "Cached sources per session",
    help: "LRU cap on context items a session keeps for follow-ups.",
    group: "sessions",
    unit: "items",
  },
  highConfidenceThreshold: {
    label: "High confidence from",
    help: "Score (0–1) at or above which an answer is labelled high confidence.",
    group: "confidence",
  },
  mediumConfidenceThreshold: {
    label: "Medium confidence from",
    help: "Score (0–1) at or above which an answer is labelled medium confidence.",
    group: "confidence",
  },
  "features.useCodeIndex": {
    label: "Code index",
    help: "Look up raises, error strings and symbols in the code index.",
    group: "features",
  },
  "features.useCallGraph": {
    label: "Call graph",
    help: "Walk callers and callees.",
    group: "features",
  },
  "features.useSourceFetching": {
    label: "Source fetching",
    help: "Put function source (not only summaries) into the context.",
    group: "features",
  },
  "features.useModeRouting": {
    label: "Mode routing",
    help: "Use the mode-specific retriever; off = conceptual search for every question.",
    group: "features",
  },
  "features.useGapResolution": {
    label: "Gap resolution",
    help: "Run further passes for missing context; off = single pass.",
    group: "features",
  },
  "features.useQuestionRewrite": {
    label: "Follow-up rewriting",
    help: "Rewrite a follow-up into a standalone question using the conversation.",
    group: "features",
  },
  "features.useSymbolRanker": {
    label: "Learned symbol ranking",
    help: "Reorder the leading ranked symbols with the trained ranker; off = the mode retriever's own order.",
    group: "features",
  },
};

for (const mode of QUERY_MODE_LIST) {
  for (const [source, what] of Object.entries(MODE_SOURCES)) {
    TEXT[`modeBudgets.${mode}.${source}`] = {
      label: `${mode} · ${source}`,
      help: `First-pass tokens from the ${what} for ${mode} questions.`,
      group: "modeBudgets",
      unit: "tokens",
    };
  }
}

/** The zod schema of one leaf, found by walking object shapes. */
function schemaAt(key: string): z.ZodType {
  let schema: z.ZodType = cgragConfigSchema;
  for (const part of key.split(".")) {
    if (!(schema instanceof z.ZodObject)) throw new Error(`setting ${key} is not in the config schema`);
    const next = (schema.shape as Record<string, z.ZodType | undefined>)[part];
    if (!next) throw new Error(`setting ${key} is not in the config schema`);
    schema = next;
  }
  return schema;
}

function numberLimits(schema: z.ZodType): Pick<SettingField, "kind" | "min" | "max"> {
  if (!(schema instanceof z.ZodNumber)) throw new Error("expected a number schema");
  return {
    kind: schema.isInt ? "int" : "number",
    min: schema.minValue ?? undefined,
    max: schema.maxValue ?? undefined,
  };
}

function fieldFor(key: string, text: FieldText): SettingField {
  const schema = schemaAt(key);
  if (schema instanceof z.ZodBoolean) return { key, kind: "boolean", ...text };
  if (schema instanceof z.ZodArray) {
    const item = numberLimits(schema.element as z.ZodType);
    // Length limits of perPassGapBudget in cgragConfigSchema (checked by the settings tests).
    return { key, ...text, kind: "int-list", min: item.min, max: item.max, minItems: 1, maxItems: 8 };
  }
  return { key, ...text, ...numberLimits(schema) };
}

/** Every setting, in form order. */
export const SETTING_FIELDS: SettingField[] = Object.entries(TEXT).map(([key, text]) => fieldFor(key, text));

export const FIELD_BY_KEY = new Map(SETTING_FIELDS.map((f) => [f.key, f]));

export const GROUP_ORDER: SettingGroup[] = [
  "loop",
  "budgets",
  "modeBudgets",
  "callGraph",
  "source",
  "sessions",
  "confidence",
  "features",
];

// ------------------------------------------------------------- flatten/unflatten

export type FlatSettings = Record<string, unknown>;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `{ a: { b: 1 } }` → `{ "a.b": 1 }`; arrays are leaves (a per-pass list is one setting). */
export function flatten(value: unknown, prefix = ""): FlatSettings {
  const out: FlatSettings = {};
  if (!isPlainObject(value)) return out;
  for (const [k, v] of Object.entries(value)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (isPlainObject(v)) Object.assign(out, flatten(v, key));
    else out[key] = v;
  }
  return out;
}

export function unflatten(flat: FlatSettings): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.split(".");
    let node = out;
    for (const part of parts.slice(0, -1)) {
      if (!isPlainObject(node[part])) node[part] = {};
      node = node[part] as Record<string, unknown>;
    }
    node[parts[parts.length - 1] as string] = value;
  }
  return out;
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function formatSettingValue(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value)) return value.join(", ");
  if (typeof value === "boolean") return value ? "on" : "off";
  return String(value);
}
