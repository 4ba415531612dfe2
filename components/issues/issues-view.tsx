/**
 * The issues page body: filter links by category and severity (plain links, so the
 * filtered view is a URL) and the matching findings, high severity first.
 */
import Link from "next/link";
import type { IssuesView as IssuesData } from "@/lib/wiki/browse";
import { FINDING_CATEGORIES, SEVERITIES } from "@/lib/db/wiki-shapes";
import styles from "@/components/wiki/wiki.module.css";
import { CATEGORY_LABEL, FindingList } from "./finding-list";

function filterHref(repositoryId: string, category: string | null, severity: string | null): string {
  const params = new URLSearchParams();
  if (category) params.set("category", category);
  if (severity) params.set("severity", severity);
  const query = params.toString();
  return `/repos/${encodeURIComponent(repositoryId)}/issues${query ? `?${query}` : ""}`;
}

export function IssuesView({ data }: { data: IssuesData }) {
  const { repository, filter } = data;
  const filtered = filter.category !== null || filter.severity !== null;
  return (
    <section className="card" data-testid="issues-page">
      <h2>Issues</h2>
      <p className="small muted">
        Structural findings computed from the code index when it was built: god functions, hotspots, cycles,
        long functions, swallowed exceptions, shared module state and TODO density.
      </p>
      <div className={styles.filters} role="group" aria-label="Category" data-testid="issue-category-filters">
        <Link
          className={styles.filter}
          href={filterHref(repository.id, null, filter.severity)}
          aria-current={filter.category === null ? "true" : undefined}
        >
          All categories ({data.total})
        </Link>
        {FINDING_CATEGORIES.map((c) => (
          <Link
            key={c}
            className={styles.filter}
            href={filterHref(repository.id, c, filter.severity)}
            aria-current={filter.category === c ? "true" : undefined}
            data-testid="issue-filter"
            data-category={c}
          >
            {CATEGORY_LABEL[c]} ({data.byCategory[c] ?? 0})
          </Link>
        ))}
      </div>
      <div className={styles.filters} role="group" aria-label="Severity" data-testid="issue-severity-filters">
        <Link
          className={styles.filter}
          href={filterHref(repository.id, filter.category, null)}
          aria-current={filter.severity === null ? "true" : undefined}
        >
          Any severity
        </Link>
        {SEVERITIES.map((s) => (
          <Link
            key={s}
            className={styles.filter}
            href={filterHref(repository.id, filter.category, s)}
            aria-current={filter.severity === s ? "true" : undefined}
            data-testid="issue-filter"
            data-severity={s}
          >
            {s} ({data.bySeverity[s] ?? 0})
          </Link>
        ))}
      </div>
      {data.findings.length ? (
        <FindingList findings={data.findings} repositoryId={repository.id} />
      ) : (
        <p className="empty" data-testid="issues-empty">
          {filtered
            ? "No findings match these filters."
            : "No findings: nothing crossed the thresholds in this repository."}
        </p>
      )}
    </section>
  );
}
