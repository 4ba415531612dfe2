"use client";
/**
 * How an answer came about: the classification (mode, why, scope, and whether rules,
 * the model or the user decided), then each pass with its phase, what it added (why
 * once where the items agree), the gaps it named and how long it took. A pass after
 * the first shows "Retrieving additional context…" while it runs; a last lookup that
 * found nothing new is shown as that lookup, not as a pass (lib/qa/passes.ts).
 */
import Link from "next/link";
import { useId } from "react";
import { sourceHref } from "@/components/source/source-href";
import { OVERVIEW_CHUNK_PATH } from "@/lib/db/wiki-shapes";
import { slugForPath, wikiHref } from "@/lib/wiki/slugs";

/** Wiki pages in context link to the page itself (folder and overview pages are not files). */
function wikiPageHref(repositoryId: string, chunkPath: string): string {
  if (chunkPath === OVERVIEW_CHUNK_PATH) return wikiHref(repositoryId, "");
  const last = chunkPath.split("/").pop() ?? "";
  return wikiHref(repositoryId, slugForPath(chunkPath, /\.[A-Za-z0-9]+$/.test(last)));
}
import { BreakableName } from "@/components/ui/breakable-name";
import { describeStopReason, formatCount, formatMs } from "@/components/ui/format";
import { groupByReason } from "@/lib/answerers/reasons";
import { isLookupOnly } from "@/lib/qa/passes";
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
  /** id of the answer's heading: the panel is named "Answer 2 Timeline", unique on the page */
  answerHeadingId?: string;
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
  answerHeadingId,
}: PassTimelineProps) {
  const headingId = useId();
  return (
    <section
      className="panel"
      aria-labelledby={answerHeadingId ? `${answerHeadingId} ${headingId}` : headingId}
      data-testid="pass-timeline"
    >
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
        {passes.map((pass) =>
          isLookupOnly(pass) ? (
            <li
              key={pass.pass}
              className="timeline-step phase-done timeline-lookup"
              data-testid="timeline-lookup"
              data-phase={pass.phase}
            >
              <div className="timeline-head">
                <strong>Lookup after pass {pass.pass - 1}</strong>
                <span className="small">
                  {pass.gaps.length ? `${formatCount(pass.gaps.length, "gap")} looked up` : "looked up"}
                  {pass.durationMs !== null ? ` in ${formatMs(pass.durationMs)}` : ""}
                </span>
              </div>
              <p className="small muted">Found nothing new, so the answer of pass {pass.pass - 1} stands.</p>
            </li>
          ) : (
            <PassStep key={pass.pass} pass={pass} repositoryId={repositoryId} generationId={generationId} />
          ),
        )}
      </ol>
    </section>
  );
}

function AddedItems({
  pass,
  repositoryId,
  generationId,
}: {
  pass: PassPart;
  repositoryId: string;
  generationId: string | null;
}) {
  const { shared, groups } = groupByReason(pass.added, (item) => item.reason);
  const link = (item: PassPart["added"][number], i: number) => (
    <li key={`${item.path}:${item.startLine}:${i}`}>
      {item.path ? (
        <Link
          prefetch={false}
          className="name-wrap"
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
          <BreakableName text={item.title || `${item.path}:${item.startLine}-${item.endLine}`} />
        </Link>
      ) : (
        // Synthetic context (a call flow, metrics) and pasted excerpts have no lines to open.
        <span>{item.title}</span>
      )}
    </li>
  );
  return (
    <details className="timeline-added">
      <summary className="small">
        Added {formatCount(pass.added.length, "item")}
        {pass.addedTokens ? ` · ${formatCount(pass.addedTokens, "token")}` : ""}
      </summary>
      {shared.length ? (
        <p className="small muted" data-testid="added-shared-reason">
          All: {shared.join("; ")}
        </p>
      ) : null}
      {groups.map((group) => (
        <div key={group.reason} className="added-group small">
          {group.reason ? <p className="muted added-reason">{group.reason}:</p> : null}
          <ul className="plain-list">{group.items.map(link)}</ul>
        </div>
      ))}
    </details>
  );
}

function PassStep({
  pass,
  repositoryId,
  generationId,
}: {
  pass: PassPart;
  repositoryId: string;
  generationId: string | null;
}) {
  return (
    <li
      className={`timeline-step phase-${pass.phase}${pass.source === "user" ? " from-user" : ""}`}
      data-testid="timeline-pass"
      data-pass={pass.pass}
      data-phase={pass.phase}
      data-source={pass.source ?? "loop"}
    >
      <div className="timeline-head">
        <strong>Pass {pass.pass}</strong>
        {pass.source === "user" ? <span className="badge">provided by you</span> : null}
        <span className="small" data-testid="pass-phase">
          {phaseLabel(pass)}
        </span>
      </div>
      {pass.label ? <p className="small muted">{pass.label}</p> : null}
      {pass.added.length > 0 ? (
        <AddedItems pass={pass} repositoryId={repositoryId} generationId={generationId} />
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
  );
}
