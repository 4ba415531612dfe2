/**
 * The admins' file report: a table of every repository's files per class (vendored,
 * generated, minified, documentation), skipped and indexed as text, then per repository
 * the classified files (first of each class, with the rule that decided), the skipped
 * files and the files indexed as text, each with why and what to do.
 */
import { LISTED_PER_CLASS, type RepositoryFileReport } from "@/lib/admin/file-reports";
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

function skippedTotal(report: BuildReport): number {
  return Object.values(report.skipped).reduce((sum, n) => sum + (n ?? 0), 0);
}

function Overview({ repositories }: { repositories: RepositoryFileReport[] }) {
  return (
    <section className="card" aria-label="Files per class">
      <h2>Files per class</h2>
      <div className="table-scroll">
        <table className="admin-table" data-testid="file-classes-table">
          <thead>
            <tr>
              <th>Repository</th>
              <th className="num">Files</th>
              {CLASS_ORDER.map((c) => (
                <th key={c} className="num">
                  {c[0]?.toUpperCase()}
                  {c.slice(1)}
                </th>
              ))}
              <th className="num">Skipped</th>
              <th className="num">As text</th>
            </tr>
          </thead>
          <tbody>
            {repositories.map((r) => (
              <tr key={r.repositoryId} data-testid="file-classes-row" data-repo-name={r.name}>
                <th scope="row">{r.name}</th>
                <td className="num">{r.report ? r.files : "—"}</td>
                {CLASS_ORDER.map((c) => (
                  <td key={c} className="num" data-class={c}>
                    {r.report ? (r.report.fileClasses[c] ?? 0) : "—"}
                  </td>
                ))}
                <td className="num">{r.report ? skippedTotal(r.report) : "—"}</td>
                <td className="num">{r.report ? r.report.unparsedCount : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted small">{CLASS_ADVICE}</p>
    </section>
  );
}

function RepositoryFiles({ r }: { r: RepositoryFileReport }) {
  const report = r.report;
  return (
    <section className="card" data-testid="files-repository" data-repo-name={r.name}>
      <h2>
        {r.name} {r.generation !== null ? <span className="badge">generation {r.generation}</span> : null}
      </h2>
      {!report ? (
        <p className="muted small">Not indexed yet.</p>
      ) : (
        <>
          {r.classified.length > 0 ? (
            <>
              <h3 className="small">
                Classified files
                {CLASS_ORDER.some((c) => (report.fileClasses[c] ?? 0) > LISTED_PER_CLASS)
                  ? ` (the first ${LISTED_PER_CLASS} of each class)`
                  : ""}
              </h3>
              <div className="table-scroll">
                <table className="admin-table" data-testid="files-classified">
                  <thead>
                    <tr>
                      <th>File</th>
                      <th>Class</th>
                      <th>Why</th>
                    </tr>
                  </thead>
                  <tbody>
                    {r.classified.map((f) => (
                      <tr key={f.path}>
                        <td className="path-cell">
                          <code>{f.path}</code>
                        </td>
                        <td className="nowrap">{f.fileClass}</td>
                        <td>{f.reason ?? "—"}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          ) : null}
          <h3 className="small">Skipped files</h3>
          <p className="stat-row small" data-testid="files-skip-counts">
            {skippedTotal(report) === 0
              ? "None."
              : Object.entries(report.skipped).map(([reason, n]) => (
                  <span
                    key={reason}
                  >{`${n} ${SKIP_LABEL[reason as keyof typeof SKIP_LABEL] ?? reason}`}</span>
                ))}
          </p>
          {report.skippedFiles && report.skippedFiles.length > 0 ? (
            <FileTable
              testId="files-skipped"
              rows={report.skippedFiles.map((f) => ({
                path: f.path,
                why: skipReasonText(f),
                todo: skipAdvice(f.reason),
                reason: f.reason,
              }))}
            />
          ) : report.skippedFiles === null && LISTED_SKIPS.some((s) => (report.skipped[s] ?? 0) > 0) ? (
            <p className="muted small">Indexed before skipped files were listed: re-index to see them.</p>
          ) : null}
          {report.unparsedCount > 0 ? (
            <>
              <h3 className="small">Indexed as text ({report.unparsedCount})</h3>
              <FileTable
                testId="files-unparsed"
                rows={report.unparsedFiles.map((f) => ({
                  path: f.path,
                  why: unparsedReasonText(f.reason),
                  todo: unparsedAdvice(f.reason),
                }))}
              />
            </>
          ) : null}
        </>
      )}
    </section>
  );
}

export function FileReports({ repositories }: { repositories: RepositoryFileReport[] }) {
  if (repositories.length === 0) return <p className="card empty muted">No repository yet.</p>;
  return (
    <div className="admin-stack">
      <Overview repositories={repositories} />
      {repositories.map((r) => (
        <RepositoryFiles key={r.repositoryId} r={r} />
      ))}
    </div>
  );
}

/** Files with why each is where it is and what to do about it. */
function FileTable({
  testId,
  rows,
}: {
  testId: string;
  rows: { path: string; why: string; todo: string; reason?: string }[];
}) {
  return (
    <div className="table-scroll">
      <table className="admin-table" data-testid={testId}>
        <thead>
          <tr>
            <th>File</th>
            <th>Why</th>
            <th>What to do</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((f) => (
            <tr key={f.path} data-reason={f.reason}>
              <td className="path-cell">
                <code>{f.path}</code>
              </td>
              <td>{f.why}</td>
              <td>{f.todo}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
