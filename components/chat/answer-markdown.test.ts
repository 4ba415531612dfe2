/**
 * Fenced mermaid blocks in an answer become diagrams (drawn in the browser; on the
 * server the component says it is drawing), other code blocks stay code, and a block
 * still streaming in is shown as code until its fence is closed and text follows.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AnswerMarkdown } from "./answer-markdown";

const DIAGRAM = "sequenceDiagram\n  api->>service: place_order(cart)\n  service-->>api: Order";

function render(text: string, streaming = false): string {
  return renderToStaticMarkup(createElement(AnswerMarkdown, { text, streaming }));
}

describe("AnswerMarkdown", () => {
  it("turns a fenced mermaid block into a diagram and leaves other blocks as code", () => {
    const html = render(
      `The order flows like this:\n\n\`\`\`mermaid\n${DIAGRAM}\n\`\`\`\n\nAnd in Python:\n\n\`\`\`python\nplace_order(cart)\n\`\`\``,
    );
    expect(html).toContain('data-testid="fenced-diagram"');
    expect(html).toContain('data-testid="mermaid-diagram" data-status="drawing"');
    expect(html).not.toContain("language-mermaid");
    expect(html).toContain('<pre><code class="language-python">place_order(cart)\n</code></pre>');
  });

  it("shows a block still being written as code, and draws it once text follows its fence", () => {
    const writing = render(`Like this:\n\n\`\`\`mermaid\n${DIAGRAM.slice(0, 40)}`, true);
    expect(writing).toContain('class="language-mermaid"');
    expect(writing).not.toContain("fenced-diagram");

    const closedAtEnd = render(`Like this:\n\n\`\`\`mermaid\n${DIAGRAM}\n\`\`\`\n`, true);
    expect(closedAtEnd).toContain('class="language-mermaid"');

    const followed = render(`Like this:\n\n\`\`\`mermaid\n${DIAGRAM}\n\`\`\`\n\nThen`, true);
    expect(followed).toContain('data-testid="fenced-diagram"');
    expect(followed).not.toContain("language-mermaid");
  });
});
