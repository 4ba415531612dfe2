/**
 * What counts as a pass, in one place for the chat's header, its footer, the stored
 * metadata and MCP progress: a round that answered (from its initial retrieval, from
 * gaps it resolved, or from context a user provided). A last lookup of the missing
 * context that found nothing new keeps the previous answer, so it is shown as that
 * lookup, not counted as a pass. And how many passes a question may take: the loop
 * stops there, and the metadata and MCP progress count against it.
 */
import type { CgragConfig } from "../settings/config.ts";
import type { GapReport, PassPart } from "./types.ts";

/** Passes a question may take before any a user adds: one when gap resolution is off. */
export function passLimit(config: Pick<CgragConfig, "maxPasses" | "features">): number {
  return config.features.useGapResolution ? config.maxPasses : 1;
}

/** A round that only looked gaps up and found nothing new: the answer before it stands. */
export function isLookupOnly(part: Pick<PassPart, "stopReason">): boolean {
  return part.stopReason === "no-new-context";
}

export function answeredPasses(parts: Pick<PassPart, "stopReason">[]): number {
  return parts.filter((p) => !isLookupOnly(p)).length;
}

/**
 * Gaps an answer left open, which a user may fill: those whose latest lookup found
 * nothing or was skipped, and those the last pass named when the loop stopped before
 * looking them up.
 */
export function fillableGaps(parts: Pick<PassPart, "phase" | "gaps" | "gapsIdentified">[]): string[] {
  const latest = new Map<string, GapReport>();
  for (const part of parts) for (const report of part.gaps) latest.set(report.gap, report);
  const last = parts.at(-1);
  const open = last?.phase === "done" ? last.gapsIdentified.filter((g) => !latest.has(g)) : [];
  return [...[...latest.values()].filter((r) => r.status !== "resolved").map((r) => r.gap), ...open];
}
