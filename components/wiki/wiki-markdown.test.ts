/**
 * A wiki page's Markdown as the server renders it: a fenced mermaid block becomes a
 * diagram that the browser draws, any other fenced block is highlighted by shiki.
 */
import { createElement } from "react";
import { renderToReadableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { WikiMarkdown } from "./wiki-markdown";

async function render(text: string): Promise<string> {
  const stream = await renderToReadableStream(
    createElement(WikiMarkdown, { text, repositoryId: "r1", pagePaths: {} }),
  );
  await stream.allReady;
  return new Response(stream).text();
}

describe("WikiMarkdown", () => {
  it("turns a fenced mermaid block into a diagram and highlights other code", async () => {
    const html = await render(
      "How an order moves:\n\n```mermaid\nstateDiagram-v2\n  [*] --> Pending\n  Pending --> Paid\n```\n\n```python\ndef place_order(cart): ...\n```",
    );
    expect(html).toContain('data-testid="fenced-diagram"');
    expect(html).toContain('data-testid="mermaid-diagram" data-status="drawing"');
    expect(html).not.toContain("stateDiagram-v2");
    expect(html.match(/data-testid="wiki-code"/g)).toHaveLength(1);
    expect(html).toContain("place_order");
  });
});
