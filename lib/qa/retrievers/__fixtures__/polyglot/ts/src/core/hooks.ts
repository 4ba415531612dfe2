/** Callbacks a store runs around its writes. */
import type { StoredRecord } from "./store.ts";

export interface Hooks {
  beforeSave: Array<(record: StoredRecord) => void>;
  afterSave: Array<(key: string) => void>;
}

/** Hooks that do nothing. */
export function emptyHooks(): Hooks {
  return { beforeSave: [], afterSave: [] };
}
