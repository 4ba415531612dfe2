/**
 * A generated wiki page body, rendered on the server: GFM Markdown whose citations
 * link to the source view and whose file and folder names link to their pages, with
 * code blocks highlighted by shiki (the same highlighter as the source view) and
 * fenced ```mermaid blocks drawn as diagrams in the browser.
 */
import Link from "next/link";
import type { ComponentProps } from "react";
import ReactMarkdown from "react-markdown";
import { protectCitations } from "@/components/citations/remark-citations";
import { FencedDiagram } from "@/components/diagrams/fenced-diagram";
import { mermaidFenceSource } from "@/components/diagrams/mermaid-fence";
import remarkGfm from "remark-gfm";
import { highlightCode } from "@/components/source/highlight";
import { sourceHref } from "@/components/source/source-href";
import { wikiHref } from "@/lib/wiki/slugs";
import { remarkWikiLinks } from "./remark-wiki-links";
import styles from "./wiki.module.css";

interface HastNode {
  type: string;
  tagName?: string;
  value?: string;
  properties?: { className?: string[] };
  children?: HastNode[];
}

function textOf(node: HastNode | undefined): string {
  if (!node) return "";
  if (node.type === "text") return node.value ?? "";
  return (node.children ?? []).map(textOf).join("");
}

/** A fenced block, highlighted on the server (a mermaid one is a diagram). */
async function CodeBlock({ node }: { node?: HastNode }) {
  const diagram = mermaidFenceSource(node);
  if (diagram !== null) return <FencedDiagram source={diagram} />;
  const code = node?.children?.find((c) => c.tagName === "code");
  const language = code?.properties?.className?.find((c) => c.startsWith("language-"))?.slice(9) ?? null;
  const html = await highlightCode({ code: textOf(code), language });
  return <div className={styles.code} data-testid="wiki-code" dangerouslySetInnerHTML={{ __html: html }} />;
}

function Anchor({ href, children, node: _node, ...rest }: ComponentProps<"a"> & { node?: unknown }) {
  if (href?.startsWith("/")) {
    return (
      <Link
        prefetch={false}
        href={href}
        {...rest}
        data-testid={href.includes("/source?") ? "wiki-source-link" : "wiki-page-link"}
      >
        {children}
      </Link>
    );
  }
  return (
    <a href={href} target="_blank" rel="noreferrer noopener" {...rest}>
      {children}
    </a>
  );
}

interface WikiMarkdownProps {
  text: string;
  repositoryId: string;
  /** path → slug of the pages this wiki has */
  pagePaths: Record<string, string>;
}

export function WikiMarkdown({ text, repositoryId, pagePaths }: WikiMarkdownProps) {
  const links = remarkWikiLinks({
    sourceUrl: (path, startLine, endLine) => sourceHref({ repositoryId, path, startLine, endLine }),
    pageUrl: (path) => {
      const slug = pagePaths[path];
      return slug === undefined ? null : wikiHref(repositoryId, slug);
    },
  });
  return (
    <div className="markdown" data-testid="wiki-content">
      <ReactMarkdown remarkPlugins={[remarkGfm, () => links]} components={{ pre: CodeBlock, a: Anchor }}>
        {protectCitations(text)}
      </ReactMarkdown>
    </div>
  );
}
