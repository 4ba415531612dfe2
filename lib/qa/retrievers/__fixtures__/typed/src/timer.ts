import type { Options } from "./options";

/** The deadline of a request started now. */
export function deadline(options: Options, started: number): number {
  return started + options.timeout;
}
