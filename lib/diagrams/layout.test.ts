import { describe, expect, it } from "vitest";
import { toMermaid, type DiagramGraph, type GraphNode } from "./graph.ts";
import { layoutMermaid, withLayout } from "./layout.ts";
import type { DiagramLayout } from "./types.ts";

function graphOf(direction: "LR" | "TD", labels: string[], edges: [number, number][]): string {
  const nodes: GraphNode[] = labels.map((label, i) => ({
    id: `n${i}`,
    label,
    path: null,
    startLine: null,
    endLine: null,
    shape: "box",
    group: null,
    folder: null,
    noun: "files",
  }));
  const graph: DiagramGraph = {
    direction,
    groups: [],
    nodes,
    edges: edges.map(([a, b]) => ({ from: `n${a}`, to: `n${b}`, weight: 1 })),
  };
  return toMermaid(graph);
}

type Segment = [[number, number], [number, number]];

/** Proper crossings between segments of different edges (touching at a shared node does not count). */
function crossings(layout: DiagramLayout): number {
  const segments = layout.edges.map((e) => e.points.slice(1).map((p, i) => [e.points[i], p] as Segment));
  const orient = (a: number[], b: number[], c: number[]) =>
    Math.sign((b[0]! - a[0]!) * (c[1]! - a[1]!) - (b[1]! - a[1]!) * (c[0]! - a[0]!));
  const cross = ([p, q]: Segment, [r, s]: Segment) =>
    orient(p, q, r) * orient(p, q, s) < 0 && orient(r, s, p) * orient(r, s, q) < 0;
  let count = 0;
  for (let i = 0; i < segments.length; i++)
    for (let j = i + 1; j < segments.length; j++) {
      const [a, b] = [layout.edges[i]!, layout.edges[j]!];
      if ([a.from, a.to].some((n) => n === b.from || n === b.to)) continue;
      if (segments[i]!.some((s) => segments[j]!.some((t) => cross(s, t)))) count++;
    }
  return count;
}

function overlaps(layout: DiagramLayout): boolean {
  const boxes = layout.nodes;
  return boxes.some((a, i) =>
    boxes.some(
      (b, j) =>
        i < j && a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height,
    ),
  );
}

describe("layoutMermaid", () => {
  it("sizes every box for its wrapped label at a readable font size", async () => {
    const labels = [
      "lib/sinatra/base.rb",
      "Sinatra.Request.AcceptEntry.respond_to?",
      "rack-protection/lib/rack/protection/json_csrf.rb",
      "test",
    ];
    const layout = await layoutMermaid(
      graphOf("LR", labels, [
        [0, 1],
        [1, 2],
        [0, 3],
      ]),
    );
    expect(layout.fontSize).toBeGreaterThanOrEqual(12);
    expect(layout.nodes).toHaveLength(4);
    for (const node of layout.nodes) {
      const longest = Math.max(...node.lines.map((l) => l.length));
      // Monospace at 0.6 em per character: the text fits inside the box.
      expect(node.width).toBeGreaterThanOrEqual(longest * layout.fontSize * 0.6);
      expect(node.height).toBeGreaterThanOrEqual(node.lines.length * layout.lineHeight);
      expect(node.x + node.width).toBeLessThanOrEqual(layout.width);
      expect(node.y + node.height).toBeLessThanOrEqual(layout.height);
    }
    expect(layout.nodes[1]!.lines).toEqual(["Sinatra.Request.", "AcceptEntry.respond_to?"]);
    expect(overlaps(layout)).toBe(false);
    expect(layout.edges.every((e) => e.points.length >= 2)).toBe(true);
  });

  it("orders nodes so that edges do not cross when they need not", async () => {
    // Written in an order that crosses if drawn as given: 0→4, 1→3, 2→5 and 0→5… is planar once reordered.
    const source = graphOf(
      "LR",
      ["a", "b", "c", "d", "e", "f", "g"],
      [
        [0, 5],
        [1, 4],
        [2, 3],
        [0, 6],
        [2, 6],
        [1, 3],
      ],
    );
    expect(crossings(await layoutMermaid(source))).toBe(0);
  });

  it("turns a diagram too wide for the answer column around", async () => {
    const chain = Array.from({ length: 9 }, (_, i) => `pkg/module_number_${i}/handlers.py`);
    const layout = await layoutMermaid(
      graphOf(
        "LR",
        chain,
        chain.slice(1).map((_, i) => [i, i + 1]),
      ),
    );
    expect(layout.width).toBeLessThanOrEqual(800);
    expect(layout.height).toBeGreaterThan(layout.width);
  });

  it("lays a source out once and reuses it", async () => {
    const source = graphOf("TD", ["x", "y"], [[0, 1]]);
    expect(await layoutMermaid(source)).toBe(await layoutMermaid(source));
  });
});

describe("withLayout", () => {
  it("says why a diagram cannot be drawn instead of failing the page", async () => {
    const part = { kind: "dependencies" as const, title: "t", mermaid: "graph LR\n  a[[[ broken", nodes: [] };
    const drawn = await withLayout(part);
    expect(drawn.layout).toBeUndefined();
    expect(drawn.layoutError).toMatch(/cannot read/);
  });
});
