/**
 * One wiki page: where it sits, its summary (badged when a model wrote it; an
 * evidence-only summary is the body's first line and is not repeated), the evidence
 * body with linked citations and highlighted signatures, the diagram built from
 * edges, the findings located here, and a way to ask the chat about it.
 */
import Link from "next/link";
import { DiagramView } from "@/components/diagrams/diagram-view";
import { FindingList } from "@/components/issues/finding-list";
import { BreakableName } from "@/components/ui/breakable-name";
import { askAboutQuestion, type WikiView } from "@/lib/wiki/browse";
import { wikiHref } from "@/lib/wiki/slugs";
import styles from "./wiki.module.css";
import { WikiMarkdown } from "./wiki-markdown";

function Breadcrumbs({ view }: { view: WikiView }) {
  const { page, repository, pagePaths } = view;
  if (!page.sourcePath) return null;
  const parts = page.sourcePath.split("/");
  return (
    <nav className={styles.crumbs} aria-label="Breadcrumb">
      <Link href={wikiHref(repository.id, "")}>{repository.name}</Link>
      {parts.slice(0, -1).map((part, i) => {
        const path = parts.slice(0, i + 1).join("/");
        const slug = pagePaths[path];
        return (
          <span key={path}>
            {" / "}
            {slug !== undefined ? <Link href={wikiHref(repository.id, slug)}>{part}</Link> : part}
          </span>
        );
      })}
      <span>
        {" / "}
        {parts[parts.length - 1]}
      </span>
    </nav>
  );
}

const KIND_LABEL = { overview: "repository", directory: "folder", file: "file" } as const;

export function WikiPageView({ view }: { view: WikiView }) {
  const { page, repository } = view;
  const askHref = `/repos/${encodeURIComponent(repository.id)}?ask=${encodeURIComponent(askAboutQuestion(page))}`;
  return (
    <article
      className={`card ${styles.page}`}
      data-testid="wiki-page"
      data-kind={page.kind}
      data-slug={page.slug}
    >
      <Breadcrumbs view={view} />
      <h2 className={styles.title} data-testid="wiki-title">
        <BreakableName text={page.kind === "overview" ? `${page.title} overview` : page.title} />
      </h2>
      <div className={styles.meta}>
        <span className="badge">{KIND_LABEL[page.kind]}</span>
        {page.kind === "file" && page.sourcePath ? (
          <Link
            className="small"
            href={`/repos/${encodeURIComponent(repository.id)}/source?path=${encodeURIComponent(page.sourcePath)}`}
            data-testid="wiki-open-source"
          >
            View source
          </Link>
        ) : null}
        <Link className="button secondary" href={askHref} data-testid="wiki-ask">
          {page.kind === "file"
            ? "Ask about this file"
            : page.kind === "directory"
              ? "Ask about this folder"
              : "Ask about this repository"}
        </Link>
      </div>
      {page.modelWritten || !page.content.startsWith(`**Purpose.** ${page.summary}`) ? (
        <div className={styles.summary} data-testid="wiki-summary">
          {page.modelWritten ? (
            <span
              className="badge warn"
              data-testid="wiki-model-badge"
              title="Written by a language model from the evidence below"
            >
              model-written
            </span>
          ) : null}{" "}
          {page.summary}
        </div>
      ) : null}
      {page.diagram ? (
        <DiagramView diagram={page.diagram} repositoryId={repository.id} generationId={null} />
      ) : null}
      <WikiMarkdown text={page.content} repositoryId={repository.id} pagePaths={view.pagePaths} />
      {view.findings.length ? (
        <section className={styles.section} data-testid="wiki-findings">
          <h3>{page.kind === "overview" ? "Most important issues" : "Issues here"}</h3>
          <FindingList findings={view.findings} repositoryId={repository.id} />
          <p className="small">
            <Link href={`/repos/${encodeURIComponent(repository.id)}/issues`}>All issues</Link>
          </p>
        </section>
      ) : null}
    </article>
  );
}
