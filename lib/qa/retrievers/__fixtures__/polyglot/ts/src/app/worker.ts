/** Background jobs that import records in bulk. */
import { Store, type StoredRecord } from "../core/store.ts";

/** Saves every record of a batch. */
export function runBatch(records: StoredRecord[]): number {
  const store = new Store();
  for (const record of records) store.save(record);
  return records.length;
}
