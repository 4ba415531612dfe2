import type { Options } from "./options";
import { now } from "./clock";
import { mayRetry } from "./retry";

/** Sends a request, retrying while the options allow it. */
export function send(options: Options): number {
  const started = now();
  let attempt = 0;
  while (mayRetry(options, attempt)) attempt++;
  return now() - started;
}
