"use client";
/**
 * How an answer came about: the classification (mode, why, scope, and whether rules,
 * the model or the user decided), then each pass with its phase, what it added, the
 * gaps it named and how long it took. A pass after the first shows "Retrieving
 * additional context…" while it runs.
 */
import Link from "next/link";
import { useId } from "react";
import { sourceHref } from "@/components/source/source-href";
import { OVERVIEW_CHUNK_PATH, slugForPath, wikiHref } from "@/lib/wiki/slugs";

/** Wiki pages in context link to the page itself (folder and overview pages are not files). */
function wikiPageHref(repositoryId: string, chunkPath: string): string {
  if (chunkPath === OVERVIEW_CHUNK_PATH) return wikiHref(repositoryId, "");
  const last = chunkPath.split("/").pop() ?? "";
  return wikiHref(repositoryId, slugForPath(chunkPath, /\.[A-Za-z0-9]+$/.test(last)));
}
import { describeStopReason, formatCount, formatMs } from "@/components/ui/format";
import type { ClassificationPart, PassPart } from "@/lib/qa/types";

const SOURCE_LABEL: Record<ClassificationPart["source"], string> = {
  llm: "by the model",
  classifier: "by the trained classifier",
  forced: "forced by you",
};

export function phaseLabel(pass: PassPart): string {
  if (pass.phase === "retrieving")
    return pass.pass > 1 ? "Retrieving additional context…" : "Retrieving context…";
  if (pass.phase === "answering") return pass.pass > 1 ? "Improving the answer…" : "Drafting the answer…";
  return `Done${pass.durationMs !== null ? ` in ${formatMs(pass.durationMs)}` : ""}`;
}

interface PassTimelineProps {
  classification: ClassificationPart | null;
  passes: PassPart[];
  repositoryId: string;
  generationId: string | null;
  streaming: boolean;
}

export function PassTimeline({
  classification,
  passes,
  repositoryId,
  generationId,
  streaming,
}: PassTimelineProps) {
  const headingId = useId();
  return (
    <section className="panel" aria-labelledby={headingId} data-testid="pass-timeline">
      <h3 className="panel-title" id={headingId}>
        Timeline
      </h3>
      <ol className="timeline">
        <li className="timeline-step" data-testid="timeline-classification">
          {classification ? (
            <>
              <div className="timeline-head">
                <span className="badge mode" data-testid="classification-mode">
                  {classification.mode}
                </span>
                <span className="muted small">{SOURCE_LABEL[classification.source]}</span>
                {classification.scope ? (
                  <span className="small">
                    scope <code>{classification.scope}</code>
                  </span>
                ) : null}
              </div>
              {classification.reasoning ? (
                <p className="small timeline-why">{classification.reasoning}</p>
              ) : null}
              {classification.rewrittenQuestion ? (
                <p className="small muted">Read as: “{classification.rewrittenQuestion}”</p>
              ) : null}
            </>
          ) : (
            <span className="muted small">{streaming ? "Classifying the question…" : "Not classified."}</span>
          )}
        </li>
        {passes.map((pass) => (
          <li
            key={pass.pass}
            className={`timeline-step phase-${pass.phase}`}
            data-testid="timeline-pass"
            data-pass={pass.pass}
            data-phase={pass.phase}
          >
            <div className="timeline-head">
              <strong>Pass {pass.pass}</strong>
              <span className="small" data-testid="pass-phase">
                {phaseLabel(pass)}
              </span>
            </div>
            {pass.label ? <p className="small muted">{pass.label}</p> : null}
            {pass.added.length > 0 ? (
              <details className="timeline-added">
                <summary className="small">
                  Added {formatCount(pass.added.length, "item")}
                  {pass.addedTokens ? ` · ${formatCount(pass.addedTokens, "token")}` : ""}
                </summary>
                <ul className="plain-list small">
                  {pass.added.map((item, i) => (
                    <li key={`${item.path}:${item.startLine}:${i}`}>
                      <Link
                        href={
                          item.kind === "wiki"
                            ? wikiPageHref(repositoryId, item.path)
                            : sourceHref({
                                repositoryId,
                                path: item.path,
                                startLine: item.startLine,
                                endLine: item.endLine,
                                generationId,
                              })
                        }
                      >
                        {item.title || `${item.path}:${item.startLine}-${item.endLine}`}
                      </Link>{" "}
                      <span className="muted">{item.reason}</span>
                    </li>
                  ))}
                </ul>
              </details>
            ) : pass.phase === "done" ? (
              <p className="small muted">Added no new context.</p>
            ) : null}
            {pass.gapsIdentified.length > 0 ? (
              <p className="small">
                Missing:{" "}
                {pass.gapsIdentified.map((g) => (
                  <code key={g} className="gap-chip">
                    {g}
                  </code>
                ))}
              </p>
            ) : null}
            {pass.stopReason ? (
              <p className="small muted" data-testid="pass-stop">
                Stopped: {describeStopReason(pass.stopReason)}.
              </p>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
