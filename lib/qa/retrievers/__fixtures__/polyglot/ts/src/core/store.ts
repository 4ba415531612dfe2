/** The record store: keeps records by their normalized key. */
import { formatKey } from "./util.ts";

export interface StoredRecord {
  name: string;
}

export class Store {
  private rows = new Map<string, StoredRecord>();

  /** Persists a record in the store under its normalized key. */
  save(record: StoredRecord): string {
    const key = formatKey(record.name);
    this.rows.set(key, record);
    return key;
  }

  /** Looks a record up by name. */
  load(name: string): StoredRecord | undefined {
    return this.rows.get(formatKey(name));
  }
}
