/** The record store: keeps records by their normalized key. */
import { emptyHooks, type Hooks } from "./hooks.ts";
import { formatKey } from "./util.ts";

export interface StoredRecord {
  name: string;
}

export class Store {
  private rows = new Map<string, StoredRecord>();

  constructor(private readonly hooks: Hooks = emptyHooks()) {}

  /** Persists a record in the store under its normalized key. */
  save(record: StoredRecord): string {
    this.#runBeforeSaveHooks(record);
    const key = formatKey(record.name);
    this.rows.set(key, record);
    for (const hook of this.hooks.afterSave) hook(key);
    return key;
  }

  /** Looks a record up by name. */
  load(name: string): StoredRecord | undefined {
    return this.rows.get(formatKey(name));
  }

  #runBeforeSaveHooks(record: StoredRecord): void {
    for (const hook of this.hooks.beforeSave) hook(record);
  }
}
