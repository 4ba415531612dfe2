/**
 * Findings of the issues store as a list: severity, category, what was found and
 * where, each location linking to the source view at its lines.
 */
import Link from "next/link";
import { sourceHref } from "@/components/source/source-href";
import type { FindingRecord } from "@/lib/db/wiki-store";
import styles from "@/components/wiki/wiki.module.css";
import { SeverityBadge } from "./severity-badge";

export const CATEGORY_LABEL: Record<string, string> = {
  "god-function": "God function",
  hotspot: "Hotspot",
  "call-cycle": "Call cycle",
  "import-cycle": "Import cycle",
  "long-function": "Long function",
  "swallowed-exception": "Swallowed exception",
  "module-state": "Shared module state",
  "todo-density": "TODO density",
};

function location(f: FindingRecord): string {
  if (!f.path) return "";
  if (!f.startLine) return f.path;
  return f.endLine && f.endLine !== f.startLine
    ? `${f.path}:${f.startLine}-${f.endLine}`
    : `${f.path}:${f.startLine}`;
}

export function FindingList({ findings, repositoryId }: { findings: FindingRecord[]; repositoryId: string }) {
  return (
    <ul className={styles.findings} data-testid="finding-list">
      {findings.map((f) => (
        <li key={f.id} data-testid="finding" data-category={f.category} data-severity={f.severity}>
          <div className={styles.meta}>
            <SeverityBadge severity={f.severity} />
            <span className="small muted">{CATEGORY_LABEL[f.category] ?? f.category}</span>
            <strong>{f.title}</strong>
          </div>
          {f.path ? (
            <Link
              className={styles.location}
              href={sourceHref({ repositoryId, path: f.path, startLine: f.startLine, endLine: f.endLine })}
              data-testid="finding-location"
            >
              {location(f)}
            </Link>
          ) : null}
          <p className={styles.detail}>{f.detail}</p>
        </li>
      ))}
    </ul>
  );
}
