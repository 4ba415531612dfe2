/**
 * The wiki's navigation tree: folders as expandable entries (open down to the current
 * page), files as links. Plain `<details>`, so it works without client JavaScript. A
 * folder's link sits beside its disclosure marker, not inside it: a link within a
 * `<summary>` is a control inside a control, which keyboards and screen readers trip on.
 */
import Link from "next/link";
import { BreakableName } from "@/components/ui/breakable-name";
import { wikiHref } from "@/lib/wiki/slugs";
import { openFolders, type WikiTreeNode } from "@/lib/wiki/tree";
import styles from "./wiki.module.css";

interface WikiNavProps {
  tree: WikiTreeNode;
  repositoryId: string;
  current: string | null;
}

function Entry({
  node,
  repositoryId,
  current,
  open,
}: {
  node: WikiTreeNode;
  repositoryId: string;
  current: string | null;
  open: Set<string>;
}) {
  const link = (
    <Link
      href={wikiHref(repositoryId, node.slug)}
      aria-current={node.slug === current ? "page" : undefined}
      className={node.kind === "directory" ? styles.folderLink : undefined}
      data-testid="wiki-nav-link"
      data-slug={node.slug}
    >
      <BreakableName text={node.label} />
    </Link>
  );
  if (node.children.length === 0) return <li>{link}</li>;
  return (
    <li className={styles.folder}>
      {link}
      <details open={open.has(node.slug)}>
        <summary aria-label={`Pages in ${node.label}`} />
        <ul>
          {node.children.map((child) => (
            <Entry key={child.slug} node={child} repositoryId={repositoryId} current={current} open={open} />
          ))}
        </ul>
      </details>
    </li>
  );
}

export function WikiNav({ tree, repositoryId, current }: WikiNavProps) {
  const open = current === null ? new Set([tree.slug]) : openFolders(current);
  return (
    <nav className={`card ${styles.nav}`} aria-label="Wiki pages" data-testid="wiki-nav">
      <ul>
        <Entry node={tree} repositoryId={repositoryId} current={current} open={open} />
      </ul>
    </nav>
  );
}
