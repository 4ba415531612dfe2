/**
 * The settings form's values: every field as the text (or switch) the admin sees,
 * built from a config, and turned back into a patch of only what changed. Text
 * that is not a number is sent as typed so the server names the problem.
 */
import { flatten, formatSettingValue, sameValue, type SettingField } from "@/lib/settings/fields";

export type FormValues = Record<string, string | boolean>;

export function toFormValues(config: object, fields: SettingField[]): FormValues {
  const flat = flatten(config);
  const values: FormValues = {};
  for (const f of fields) {
    const v = flat[f.key];
    values[f.key] = f.kind === "boolean" ? v === true : formatSettingValue(v);
  }
  return values;
}

function parseNumber(text: string): number | string {
  const trimmed = text.trim();
  if (trimmed === "") return "";
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : trimmed;
}

export function parseFieldValue(field: SettingField, value: string | boolean): unknown {
  if (field.kind === "boolean") return value === true;
  const text = String(value);
  if (field.kind === "int-list") {
    return text.trim() === ""
      ? []
      : text
          .split(/[,\s]+/)
          .filter(Boolean)
          .map(parseNumber);
  }
  return parseNumber(text);
}

/** A nested patch of the fields whose parsed value differs from the config's. */
export function changedPatch(
  values: FormValues,
  config: object,
  fields: SettingField[],
): Record<string, unknown> {
  const flat = flatten(config);
  const patch: Record<string, unknown> = {};
  for (const f of fields) {
    const value = parseFieldValue(f, values[f.key] ?? "");
    if (sameValue(value, flat[f.key])) continue;
    const parts = f.key.split(".");
    let node = patch;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts[parts.length - 1] as string] = value;
  }
  return patch;
}
