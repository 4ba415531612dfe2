/**
 * The latest questions, newest first, each linking to its conversation
 * (`/repos/<repository>?session=<session>`) when the admin may read it (other people's
 * show their numbers only), with mode, passes, gaps, tokens, latency and whether it fell
 * back or failed.
 */
import Link from "next/link";
import type { RecentQuestion } from "@/lib/admin/metrics";
import { formatLatency } from "./charts/scale";

const WHEN = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hour12: false,
  timeZone: "UTC",
});

function Status({ q }: { q: RecentQuestion }) {
  if (q.error)
    return (
      <span className="badge bad" title={q.error}>
        error
      </span>
    );
  if (q.fallback) return <span className="badge warn">fallback</span>;
  return <span className="badge ok">ok</span>;
}

export function RecentQuestionsTable({ questions }: { questions: RecentQuestion[] }) {
  return (
    <section className="card recent-questions" aria-labelledby="recent-questions-title">
      <h2 id="recent-questions-title">Recent questions</h2>
      {questions.length === 0 ? (
        <p className="muted" data-testid="recent-empty">
          No questions yet. Ask one from a repository&apos;s chat and it appears here.
        </p>
      ) : (
        <div
          className="table-scroll"
          tabIndex={0}
          role="region"
          aria-label="Recent questions (scrolls sideways)"
        >
          <table className="admin-table" data-testid="recent-questions">
            <thead>
              <tr>
                <th scope="col">Question</th>
                <th scope="col">When (UTC)</th>
                <th scope="col">Repository</th>
                <th scope="col">Mode</th>
                <th scope="col" className="num">
                  Passes
                </th>
                <th scope="col" className="num">
                  Gaps resolved
                </th>
                <th scope="col" className="num">
                  Tokens
                </th>
                <th scope="col" className="num">
                  Latency
                </th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {questions.map((q) => (
                <tr key={q.id} data-testid="recent-question" data-mode={q.mode} data-passes={q.passes}>
                  <th scope="row" className="question-cell">
                    {q.href ? (
                      <Link href={q.href} data-testid="recent-question-link">
                        {q.question ?? "(question not stored)"}
                      </Link>
                    ) : q.private ? (
                      <span className="muted">(another person&apos;s conversation)</span>
                    ) : (
                      (q.question ?? "(question not stored)")
                    )}
                  </th>
                  <td data-label="When (UTC)" className="nowrap">
                    {WHEN.format(new Date(q.createdAt))}
                  </td>
                  <td data-label="Repository">{q.repositoryName ?? q.repositoryId}</td>
                  <td data-label="Mode" className="nowrap">
                    <span className="badge mode">{q.mode}</span>
                    {q.forcedMode ? <span className="small muted"> forced</span> : null}
                  </td>
                  <td data-label="Passes" className="num">
                    {q.passes}
                  </td>
                  <td data-label="Gaps resolved" className="num">
                    {q.gapsIdentified ? `${q.gapsResolved}/${q.gapsIdentified}` : "—"}
                  </td>
                  <td data-label="Tokens" className="num">
                    {q.tokens.toLocaleString("en-US")}
                  </td>
                  <td data-label="Latency" className="num nowrap">
                    {formatLatency(q.latencyMs)}
                  </td>
                  <td data-label="Status">
                    <Status q={q} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
