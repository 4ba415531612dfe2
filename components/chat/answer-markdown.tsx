"use client";
/**
 * The answer as Markdown (GFM tables and lists included), with inline citations
 * rendered as CitationRefs. Links to other sites open in a new tab; relative links
 * stay in the app. Inline code (names, paths) wraps only at separators. A fenced
 * ```mermaid block is drawn as a diagram once it is complete (while the answer streams,
 * a block still being written shows as code).
 */
import { createContext, useContext, type ComponentProps } from "react";
import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { CitationRef } from "@/components/citations/citation-ref";
import { protectCitations, remarkCitations } from "@/components/citations/remark-citations";
import { FencedDiagram } from "@/components/diagrams/fenced-diagram";
import { fenceComplete, mermaidFenceSource, type HastNode } from "@/components/diagrams/mermaid-fence";
import { BreakableName } from "@/components/ui/breakable-name";

const remarkPlugins = [remarkGfm, remarkCitations];

function Span(
  props: ComponentProps<"span"> & { node?: unknown; "data-citation"?: string; "data-code"?: string },
) {
  const { node: _node, "data-citation": citation, "data-code": code, ...rest } = props;
  if (citation) return <CitationRef raw={citation} code={code === "true"} />;
  return <span {...rest} />;
}

function Anchor(props: ComponentProps<"a"> & { node?: unknown }) {
  const { node: _node, href, ...rest } = props;
  const external = !!href && /^https?:\/\//.test(href);
  return <a href={href} {...rest} {...(external ? { target: "_blank", rel: "noreferrer noopener" } : {})} />;
}

/** Inline code only: a fenced block's code sits in a <pre> and keeps its lines. */
function Code(props: ComponentProps<"code"> & { node?: unknown }) {
  const { node: _node, children, className, ...rest } = props;
  if (typeof children !== "string" || children.includes("\n") || className)
    return (
      <code className={className} {...rest}>
        {children}
      </code>
    );
  return (
    <code className="name-wrap" {...rest}>
      <BreakableName text={children} />
    </code>
  );
}

/** The Markdown being shown, and whether more of it may still arrive. */
const Shown = createContext<{ markdown: string; streaming: boolean }>({ markdown: "", streaming: false });

function Pre(props: ComponentProps<"pre"> & { node?: HastNode }) {
  const { node, ...rest } = props;
  const { markdown, streaming } = useContext(Shown);
  const source = mermaidFenceSource(node);
  if (source !== null && (!streaming || fenceComplete(node, markdown)))
    return <FencedDiagram source={source} />;
  return <pre {...rest} />;
}

const components = { span: Span, a: Anchor, code: Code, pre: Pre };

interface AnswerMarkdownProps {
  text: string;
  /** true while the text is still streaming in */
  streaming?: boolean;
}

export function AnswerMarkdown({ text, streaming = false }: AnswerMarkdownProps) {
  const markdown = protectCitations(text);
  return (
    <div className="markdown">
      <Shown.Provider value={{ markdown, streaming }}>
        <ReactMarkdown remarkPlugins={remarkPlugins} components={components}>
          {markdown}
        </ReactMarkdown>
      </Shown.Provider>
    </div>
  );
}
