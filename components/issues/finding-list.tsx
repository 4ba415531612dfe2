/**
 * Findings of the issues store as a list: severity, category, what was found and
 * where, each location linking to the source view at its lines. A finding's detail is
 * Markdown (names in code spans, `path:start-end` citations): rendered, with its
 * citations linking to the source view.
 */
import Link from "next/link";
import ReactMarkdown from "react-markdown";
import { protectCitations } from "@/components/citations/remark-citations";
import { sourceHref } from "@/components/source/source-href";
import { BreakableName } from "@/components/ui/breakable-name";
import { remarkWikiLinks } from "@/components/wiki/remark-wiki-links";
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

function FindingDetail({ text, repositoryId }: { text: string; repositoryId: string }) {
  const links = remarkWikiLinks({
    sourceUrl: (path, startLine, endLine) => sourceHref({ repositoryId, path, startLine, endLine }),
    pageUrl: () => null,
  });
  return (
    <div className={styles.detail} data-testid="finding-detail">
      <ReactMarkdown
        remarkPlugins={[() => links]}
        allowedElements={["p", "code", "em", "strong", "a"]}
        unwrapDisallowed
        components={{
          a: ({ href, children }) => (
            <Link prefetch={false} href={href ?? "#"}>
              {children}
            </Link>
          ),
        }}
      >
        {protectCitations(text)}
      </ReactMarkdown>
    </div>
  );
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
              prefetch={false}
              className={styles.location}
              href={sourceHref({ repositoryId, path: f.path, startLine: f.startLine, endLine: f.endLine })}
              data-testid="finding-location"
            >
              <BreakableName text={location(f)} />
            </Link>
          ) : null}
          <FindingDetail text={f.detail} repositoryId={repositoryId} />
        </li>
      ))}
    </ul>
  );
}
