/** Entries kept in a Map until they expire. */
export class MemoryCache {
  private entries = new Map<string, { value: string; expires: number }>();

  get(key: string): string | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.expires < Date.now()) return undefined;
    return entry.value;
  }

  set(key: string, value: string, ttlSeconds = 60): void {
    this.entries.set(key, { value, expires: Date.now() + ttlSeconds * 1000 });
  }

  delete(key: string): boolean {
    return this.entries.delete(key);
  }
}
