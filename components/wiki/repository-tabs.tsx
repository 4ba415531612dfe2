/** The repository's heading with its three views: chat, wiki and issues. */
import Link from "next/link";
import { wikiHref } from "@/lib/wiki/slugs";
import styles from "./wiki.module.css";

interface RepositoryTabsProps {
  repositoryId: string;
  name: string;
  generation: number | null;
  current: "wiki" | "issues";
}

export function RepositoryTabs({ repositoryId, name, generation, current }: RepositoryTabsProps) {
  const base = `/repos/${encodeURIComponent(repositoryId)}`;
  return (
    <header className={styles.header}>
      <div className={styles.meta}>
        <h1>{name}</h1>
        {generation !== null ? <span className="badge ok">generation {generation}</span> : null}
      </div>
      <nav className={styles.tabs} aria-label="Repository views">
        <Link href={base} className={styles.tab}>
          Chat
        </Link>
        <Link
          href={wikiHref(repositoryId, "")}
          className={styles.tab}
          aria-current={current === "wiki" ? "page" : undefined}
          data-testid="tab-wiki"
        >
          Wiki
        </Link>
        <Link
          href={`${base}/issues`}
          className={styles.tab}
          aria-current={current === "issues" ? "page" : undefined}
          data-testid="tab-issues"
        >
          Issues
        </Link>
      </nav>
    </header>
  );
}
