/** Entries kept in the browser's localStorage under a prefix. */
export class StorageCache {
  constructor(private readonly prefix: string) {}

  get(key: string): string | undefined {
    return localStorage.getItem(this.prefix + key) ?? undefined;
  }

  set(key: string, value: string): void {
    localStorage.setItem(this.prefix + key, value);
  }

  delete(key: string): boolean {
    const had = localStorage.getItem(this.prefix + key) !== null;
    localStorage.removeItem(this.prefix + key);
    return had;
  }
}
