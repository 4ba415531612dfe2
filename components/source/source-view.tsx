/**
 * A file as indexed: highlighted by shiki on the server, numbered, every line an
 * `#L<n>` anchor, the cited range marked and scrolled into view.
 */
import { highlightCode } from "./highlight";
import { ScrollToLine } from "./scroll-to-line";

interface SourceViewProps {
  content: string;
  language: string;
  mark: { start: number; end: number } | null;
}

export async function SourceView({ content, language, mark }: SourceViewProps) {
  const html = await highlightCode({ code: content, language, mark, anchors: true });
  return (
    <div
      className="source-code"
      data-testid="source-code"
      data-marked={mark ? `${mark.start}-${mark.end}` : undefined}
    >
      <div dangerouslySetInnerHTML={{ __html: html }} />
      {mark ? <ScrollToLine line={mark.start} /> : null}
    </div>
  );
}
