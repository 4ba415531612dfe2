/** A key-value cache; any object with these methods is one. */
export interface Cache {
  get(key: string): string | undefined;
  set(key: string, value: string, ttlSeconds?: number): void;
  delete(key: string): boolean;
}

export function remember(cache: Cache, key: string, compute: () => string): string {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const value = compute();
  cache.set(key, value);
  return value;
}
