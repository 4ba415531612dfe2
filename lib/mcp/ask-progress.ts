/**
 * Progress of the `ask` tool: the orchestrator's pass parts become one MCP progress
 * notification per pass phase, counted the way the chat and the answer's metadata
 * count passes (lib/qa/passes.ts), with a progress that only grows.
 */
import "server-only";
import type { MessageChunk, PartWriter } from "../qa/ask.ts";
import { isLookupOnly } from "../qa/passes.ts";
import type { ToolCall } from "./tool.ts";

export interface AskProgress {
  /** passes done so far, with a fraction for the phase of the current one: it only grows */
  progress: number;
  maxPasses: number;
  message: string;
}

/** How far into its pass each phase is (MCP progress must increase with every notification). */
const PHASE_FRACTION = { retrieving: 0.25, answering: 0.5, done: 1 } as const;

/** Turns the orchestrator's pass parts into one progress report per pass phase. */
export class ProgressWriter implements PartWriter {
  constructor(
    private readonly maxPasses: number,
    private readonly onProgress: (p: AskProgress) => void,
  ) {}

  write(part: MessageChunk): void {
    if (part.type !== "data-pass") return;
    const p = part.data;
    const gaps =
      p.phase === "done" && p.gapsIdentified.length ? ` — gaps: ${p.gapsIdentified.join("; ")}` : "";
    // A pass is a round that answers (lib/qa/passes.ts), as the chat and the answer's
    // metadata count them: looking gaps up belongs to the end of the pass before, and a
    // lookup that found nothing new ends there, half-way to a pass that never came.
    const lookupOnly = isLookupOnly(p);
    const message = lookupOnly
      ? `after pass ${p.pass - 1}: looked up the missing context, found nothing new (stop: ${p.stopReason})`
      : p.phase === "retrieving"
        ? p.pass === 1 || p.source === "user"
          ? `pass ${p.pass}: ${p.label}`
          : `after pass ${p.pass - 1}: ${p.label}`
        : p.phase === "answering"
          ? `pass ${p.pass}: answering with ${p.added.length} new context items (${p.contextTokens} tokens)`
          : `pass ${p.pass} done${gaps}${p.stopReason ? ` (stop: ${p.stopReason})` : ""}`;
    const fraction = lookupOnly ? 0.5 : PHASE_FRACTION[p.phase];
    this.onProgress({ progress: p.pass - 1 + fraction, maxPasses: this.maxPasses, message });
  }
}

/** Sends each report as a progress notification, when the client asked for progress (a token). */
export function progressNotifier(extra: ToolCall["extra"]): (p: AskProgress) => void {
  return (p) => {
    const token = extra._meta?.progressToken;
    if (token === undefined) return;
    void extra
      .sendNotification({
        method: "notifications/progress",
        params: {
          progressToken: token,
          progress: p.progress,
          total: p.maxPasses,
          message: p.message,
        },
      })
      .catch(() => undefined);
  };
}
