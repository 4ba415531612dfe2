/** Per repository: how many secret files were skipped and secrets redacted, and where. */
import type { RepositorySecrets } from "@/lib/admin/secrets";

export function SecretsReport({ repositories }: { repositories: RepositorySecrets[] }) {
  if (repositories.length === 0) return <p className="card empty muted">No repository yet.</p>;
  return (
    <div className="admin-stack">
      {repositories.map((r) => (
        <section
          key={r.repositoryId}
          className="card"
          data-testid="secrets-repository"
          data-repo-id={r.repositoryId}
        >
          <h2>
            {r.name} {r.generation !== null ? <span className="badge">generation {r.generation}</span> : null}
          </h2>
          {r.secrets === null ? (
            <p className="muted small">
              {r.generation === null
                ? "Not indexed yet."
                : "Indexed before secret detection; re-index to check it."}
            </p>
          ) : (
            <>
              <p className="stat-row small" data-testid="secrets-summary">
                <span>{r.secrets.skippedFiles} secret files skipped</span>
                <span>
                  {r.secrets.redactions} secrets redacted in {r.secrets.redactedFiles} files
                </span>
              </p>
              {r.secrets.items.length > 0 ? (
                <table className="admin-table" data-testid="secrets-items">
                  <thead>
                    <tr>
                      <th>File</th>
                      <th>Line</th>
                      <th>Kind</th>
                      <th>Action</th>
                    </tr>
                  </thead>
                  <tbody>
                    {r.secrets.items.map((item, i) => (
                      <tr key={i}>
                        <td>
                          <code>{item.path}</code>
                        </td>
                        <td>{item.line ?? "—"}</td>
                        <td>{item.rule}</td>
                        <td>{item.action}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : null}
            </>
          )}
        </section>
      ))}
    </div>
  );
}
