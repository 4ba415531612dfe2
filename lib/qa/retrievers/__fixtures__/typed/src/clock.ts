/** Milliseconds since the epoch, read in one place so it can be replaced. */
export function now(): number {
  return Date.now();
}
