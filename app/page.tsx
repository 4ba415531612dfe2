import { getGeneration, listRepositories } from "@/lib/db/index-store";

export const dynamic = "force-dynamic";

interface GenerationStats {
  files?: number;
  symbols?: number;
  edges?: number;
  lines?: number;
  languages?: Record<string, number>;
  seconds?: number;
}

export default async function RepositoriesPage() {
  const repositories = await listRepositories();
  const rows = await Promise.all(
    repositories.map(async (repo) => {
      const generation = repo.activeGenerationId ? await getGeneration(repo.activeGenerationId) : null;
      const stats = (generation ? JSON.parse(generation.stats) : {}) as GenerationStats;
      return { repo, generation, stats };
    }),
  );
  return (
    <section>
      <h1>Repositories</h1>
      {rows.length === 0 ? (
        <div className="card empty" data-testid="repos-empty">
          <p>No repository is indexed yet.</p>
          <p className="muted">
            Index one from a terminal: <code>npm run wayfinder -- index /path/to/repo</code>
          </p>
        </div>
      ) : (
        <ul className="repo-grid" data-testid="repo-list" style={{ listStyle: "none", padding: 0 }}>
          {rows.map(({ repo, generation, stats }) => (
            <li key={repo.id} className="card" data-testid="repo-card">
              <h2 style={{ fontSize: 17, margin: "0 0 4px" }}>{repo.name}</h2>
              <p className="muted" style={{ margin: "0 0 10px", fontSize: 13, wordBreak: "break-all" }}>
                {repo.rootPath}
              </p>
              {generation ? (
                <div className="stat-row" data-testid="repo-stats">
                  <span className="badge ok">generation {generation.number}</span>
                  <span>{stats.files ?? 0} files</span>
                  <span>{stats.symbols ?? 0} symbols</span>
                  <span>{stats.edges ?? 0} edges</span>
                  <span>{stats.lines ?? 0} lines</span>
                  <span>
                    {Object.entries(stats.languages ?? {})
                      .sort((a, b) => b[1] - a[1])
                      .map(([language, n]) => `${language} ${n}`)
                      .join(" · ")}
                  </span>
                </div>
              ) : (
                <span className="badge warn">not indexed yet</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
