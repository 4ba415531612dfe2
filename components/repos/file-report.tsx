/**
 * The serving generation's file report on a repository card: a one-line summary (files
 * skipped, files indexed as text, files per class) that opens into the files a person
 * can act on, each with why and what to do. Secret files are counted, never listed
 * here (admins see them under /admin/secrets).
 */
import type { BuildReport } from "@/lib/db/build-report";
import {
  CLASS_ADVICE,
  CLASS_ORDER,
  LISTED_SKIPS,
  SKIP_LABEL,
  skipAdvice,
  skipReasonText,
  unparsedAdvice,
  unparsedReasonText,
} from "@/lib/indexer/build-report";
import { formatCount } from "@/components/ui/format";

export function FileReport({ report }: { report: BuildReport }) {
  const skippedTotal = Object.values(report.skipped).reduce((sum, n) => sum + (n ?? 0), 0);
  const listedTotal = LISTED_SKIPS.reduce((sum, r) => sum + (report.skipped[r] ?? 0), 0);
  const classes = CLASS_ORDER.flatMap((c) => {
    const n = report.fileClasses[c] ?? 0;
    return n > 0 ? [[c, n] as const] : [];
  });
  if (skippedTotal === 0 && report.unparsedCount === 0 && classes.length === 0) return null;
  const needsAction = listedTotal > 0 || report.unparsedCount > 0;
  const summary = [
    skippedTotal > 0 ? `${formatCount(skippedTotal, "file")} skipped` : null,
    report.unparsedCount > 0 ? `${formatCount(report.unparsedCount, "file")} indexed as text` : null,
    classes.length > 0 ? classes.map(([c, n]) => `${n} ${c}`).join(", ") : null,
  ].filter(Boolean);
  const shownSkips = report.skippedFiles ?? [];
  return (
    <details className="file-report small" data-testid="repo-report">
      <summary>
        <span className={needsAction ? "file-report-flag" : undefined}>{summary.join(" · ")}</span>
      </summary>
      {skippedTotal > 0 ? (
        <section aria-label="Skipped files">
          <h3>Skipped</h3>
          <p className="muted" data-testid="repo-skip-counts">
            {Object.entries(report.skipped)
              .map(([reason, n]) => `${n} ${SKIP_LABEL[reason as keyof typeof SKIP_LABEL] ?? reason}`)
              .join(" · ")}
          </p>
          {shownSkips.length > 0 ? (
            <ul className="file-report-list" data-testid="repo-skipped">
              {shownSkips.map((f) => (
                <li key={f.path} data-testid="repo-skipped-file" data-reason={f.reason}>
                  <code>{f.path}</code>: {skipReasonText(f)}.{" "}
                  <span className="muted">{skipAdvice(f.reason)}</span>
                </li>
              ))}
            </ul>
          ) : report.skippedFiles === null && listedTotal > 0 ? (
            <p className="muted">Indexed before skipped files were listed: re-index to see them.</p>
          ) : null}
          {listedTotal > shownSkips.length && report.skippedFiles !== null ? (
            <p className="muted">
              … and {listedTotal - shownSkips.length} more (listed under Admin → Files).
            </p>
          ) : null}
        </section>
      ) : null}
      {report.unparsedCount > 0 ? (
        <section aria-label="Files indexed as text">
          <h3>Indexed as text</h3>
          <ul className="file-report-list" data-testid="repo-unparsed">
            {report.unparsedFiles.map((f) => (
              <li key={f.path} data-testid="repo-unparsed-file">
                <code>{f.path}</code>: {unparsedReasonText(f.reason)}.{" "}
                <span className="muted">{unparsedAdvice(f.reason)}</span>
              </li>
            ))}
          </ul>
          {report.unparsedCount > report.unparsedFiles.length ? (
            <p className="muted">
              … and {report.unparsedCount - report.unparsedFiles.length} more (listed under Admin → Files).
            </p>
          ) : null}
        </section>
      ) : null}
      {classes.length > 0 ? (
        <section aria-label="File classes">
          <h3>Classified</h3>
          <p data-testid="repo-classes">
            {classes.map(([c, n]) => `${n} ${c}`).join(" · ")}. <span className="muted">{CLASS_ADVICE}</span>
          </p>
        </section>
      ) : null}
    </details>
  );
}
