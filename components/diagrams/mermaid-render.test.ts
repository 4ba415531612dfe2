import { describe, expect, it } from "vitest";
import { placedSvg } from "./mermaid-render";

describe("placedSvg", () => {
  it("makes every id of a drawing unique to the place it is shown", () => {
    const drawing = {
      id: "wf-mermaid-3",
      svg: '<svg id="wf-mermaid-3"><style>#wf-mermaid-3 .node{fill:#fff}</style><marker id="wf-mermaid-3_end"/><path marker-end="url(#wf-mermaid-3_end)"/></svg>',
    };
    const placed = placedSvg(drawing, "r1");
    expect(placed).toBe(
      '<svg id="wf-mermaid-3-r1"><style>#wf-mermaid-3-r1 .node{fill:#fff}</style><marker id="wf-mermaid-3-r1_end"/><path marker-end="url(#wf-mermaid-3-r1_end)"/></svg>',
    );
    expect(placedSvg(drawing, "r2")).not.toContain('id="wf-mermaid-3-r1"');
  });
});
