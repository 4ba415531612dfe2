/** HTTP handlers of the shop. */
import { Store, type StoredRecord } from "../core/store.ts";
import { formatKey } from "../core/util.ts";

/** Creates the record a request describes. */
export function handleCreate(request: { record: StoredRecord }): string {
  const store = new Store();
  return store.save(request.record);
}

/** Returns the record a request names. */
export function handleLookup(request: { name: string }): StoredRecord | undefined {
  return new Store().load(formatKey(request.name));
}
