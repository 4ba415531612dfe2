/** Small helpers shared by the store, the API and the network client. */

/** Normalizes a record name into the key it is stored under. */
export function formatKey(name: string): string {
  return name.trim().toLowerCase();
}
