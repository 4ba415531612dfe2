import type { Options } from "./options";

/** Whether another attempt is allowed after `attempt` failures. */
export function mayRetry(options: Options, attempt: number): boolean {
  return attempt < options.retries;
}
