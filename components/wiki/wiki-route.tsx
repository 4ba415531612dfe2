/**
 * Shared body of the wiki routes (overview and `[...slug]`): loads the page of the
 * repository's serving generation and lays it out beside the navigation tree.
 */
import { notFound } from "next/navigation";
import { RepositoryTabs } from "./repository-tabs";
import { WikiNav } from "./wiki-nav";
import { WikiPageView } from "./wiki-page-view";
import styles from "./wiki.module.css";
import { loadWikiView } from "@/lib/wiki/browse";

export async function WikiRoute({ repositoryId, slug }: { repositoryId: string; slug: string }) {
  const view = await loadWikiView(repositoryId, slug);
  if (!view) notFound();
  return (
    <section data-testid="wiki">
      <RepositoryTabs
        repositoryId={view.repository.id}
        name={view.repository.name}
        generation={view.repository.active?.number ?? null}
        current="wiki"
      />
      <div className={styles.layout}>
        <WikiNav tree={view.tree} repositoryId={view.repository.id} current={view.page.slug} />
        <WikiPageView view={view} />
      </div>
    </section>
  );
}
