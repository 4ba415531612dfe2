/**
 * A small per-generation cache for what questions read again and again (symbol names,
 * entry points). Generations never change once active, so an entry is valid until it is
 * evicted; the least recently used of a few generations goes first, and a failed load
 * is forgotten so the next question tries again.
 */
export function generationCache<T>(load: (generationId: string) => Promise<T>, size = 6) {
  const entries = new Map<string, Promise<T>>();
  return (generationId: string): Promise<T> => {
    const hit = entries.get(generationId);
    if (hit) {
      entries.delete(generationId);
      entries.set(generationId, hit);
      return hit;
    }
    const loading = load(generationId);
    loading.catch(() => entries.delete(generationId));
    entries.set(generationId, loading);
    while (entries.size > size) entries.delete(entries.keys().next().value as string);
    return loading;
  };
}
