import { describe, expect, it } from "vitest";
import { DiagramSyntaxError, parseMermaid } from "./mermaid.ts";

describe("parseMermaid", () => {
  it("reads answers stored before diagrams were laid out on the server", () => {
    // The exact shape the exploratory retriever wrote then.
    const parsed = parseMermaid(
      'graph TD\n  f0["OrderService.place_order"]\n  f1["charge_card"]\n  f0 --> f1',
    );
    expect(parsed.direction).toBe("TD");
    expect(parsed.nodes.map((n) => n.label)).toEqual(["OrderService.place_order", "charge_card"]);
    expect(parsed.edges).toEqual([{ from: "f0", to: "f1", label: null }]);
  });

  it("keeps brackets inside quoted labels", () => {
    const parsed = parseMermaid('graph LR\n  a["compute(total)[0]"]\n  b(["lib/x"])\n  a -->|2| b');
    expect(parsed.nodes.map((n) => [n.label, n.shape])).toEqual([
      ["compute(total)[0]", "box"],
      ["lib/x", "module"],
    ]);
  });

  it("refuses what it cannot read, naming the line", () => {
    expect(() => parseMermaid("graph LR\n  a[[[ broken")).toThrow(DiagramSyntaxError);
    expect(() => parseMermaid("graph LR\n  a[[[ broken")).toThrow(/a\[\[\[ broken/);
    expect(() => parseMermaid("sequenceDiagram\n  A->>B: hi")).toThrow(/graph LR/);
    expect(() => parseMermaid('graph LR\n  subgraph s["x"]\n  a["y"]')).toThrow(/not closed/);
  });
});
