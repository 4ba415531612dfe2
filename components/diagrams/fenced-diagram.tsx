/**
 * A fenced ```mermaid block of Markdown (an answer, a wiki page) shown as a diagram
 * in the same frame as the server's diagrams. No hooks: server-rendered Markdown
 * (the wiki) uses it too, and the drawing itself happens in the browser.
 */
import { MermaidDiagram } from "./mermaid-diagram";

export function FencedDiagram({ source }: { source: string }) {
  return (
    <figure className="diagram diagram-fenced" data-testid="fenced-diagram">
      <MermaidDiagram source={source} label="Diagram" />
    </figure>
  );
}
