/** The network client: fetches remote records. */
import { formatKey } from "../core/util.ts";
import { decode } from "./codec.ts";

/** Fetches one remote record by name. */
export async function fetchRecord(base: string, name: string): Promise<string> {
  const response = await fetch(`${base}/${formatKey(name)}`);
  return decode(new Uint8Array(await response.arrayBuffer()));
}

/** Sends an encoded payload. */
export async function send(base: string, payload: Uint8Array): Promise<number> {
  const response = await fetch(base, { method: "POST", body: payload });
  return response.status;
}
