/** Encoding of records on the wire. */
import { send } from "./client.ts";

/** Decodes a wire payload into a record. */
export function decode(data: Uint8Array): string {
  return new TextDecoder().decode(data);
}

/** Encodes a record and sends it. */
export function encodeAndSend(base: string, record: string): Promise<number> {
  return send(base, new TextEncoder().encode(record));
}
