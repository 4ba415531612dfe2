/**
 * The final numbers of an answer from its message metadata: engine, confidence,
 * passes, budget use and time, so a reader can judge how much to trust it.
 */
import { describeStopReason, formatMs } from "@/components/ui/format";
import type { AnswerMetadata } from "@/lib/qa/types";

export function AnswerMeta({ metadata }: { metadata: Partial<AnswerMetadata> | undefined }) {
  if (!metadata || metadata.passesUsed === undefined) return null;
  const items: [string, string][] = [];
  if (metadata.engine) items.push(["engine", metadata.engine]);
  if (metadata.confidence) items.push(["confidence", metadata.confidence]);
  items.push([
    "passes",
    `${metadata.passesUsed}${metadata.maxPasses ? ` of ${metadata.maxPasses}` : ""}${
      metadata.userPasses ? ` (${metadata.userPasses} from what you provided)` : ""
    }`,
  ]);
  if (metadata.quality) items.push(["quality", metadata.quality]);
  if (metadata.budget)
    items.push([
      "context",
      `${metadata.budget.used.toLocaleString("en-US")} / ${metadata.budget.limit.toLocaleString("en-US")} tokens`,
    ]);
  if (metadata.contextFromCache) items.push(["cache", "reused session context"]);
  if (metadata.timings) items.push(["time", formatMs(metadata.timings.totalMs)]);
  return (
    <div className="answer-meta small" data-testid="answer-meta">
      <dl>
        {items.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd data-testid={`meta-${term}`}>{value}</dd>
          </div>
        ))}
      </dl>
      {metadata.stopReason ? (
        <p className="muted">Stopped because {describeStopReason(metadata.stopReason)}.</p>
      ) : null}
    </div>
  );
}
