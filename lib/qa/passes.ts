/**
 * What counts as a pass, in one place for the chat's header, its footer, the stored
 * metadata and MCP progress: a round that answered (from its initial retrieval, from
 * gaps it resolved, or from context a user provided). A last lookup of the missing
 * context that found nothing new keeps the previous answer, so it is shown as that
 * lookup, not counted as a pass.
 */
import type { PassPart } from "./types.ts";

/** A round that only looked gaps up and found nothing new: the answer before it stands. */
export function isLookupOnly(part: Pick<PassPart, "stopReason">): boolean {
  return part.stopReason === "no-new-context";
}

export function answeredPasses(parts: Pick<PassPart, "stopReason">[]): number {
  return parts.filter((p) => !isLookupOnly(p)).length;
}
