/** Serves a fixed table: it reads, but never writes or deletes, so it is no Cache. */
export class ReadOnlyCache {
  constructor(private readonly table: Record<string, string>) {}

  get(key: string): string | undefined {
    return this.table[key];
  }
}
