import { describe, expect, it } from "vitest";
import {
  capGraph,
  MAX_DIAGRAM_NODES,
  moreLabel,
  toMermaid,
  type DiagramGraph,
  type GraphNode,
} from "./graph.ts";
import { parseMermaid } from "./mermaid.ts";

function node(id: string, folder: string | null, group: string | null = null): GraphNode {
  return {
    id,
    label: id,
    path: `${folder ?? "."}/${id}.py`,
    startLine: 1,
    endLine: 9,
    shape: "box",
    group,
    folder,
    noun: "files",
  };
}

describe("capGraph", () => {
  // 21 folders, most important first: 12 under src/, 9 under test/.
  const nodes = [
    ...Array.from({ length: 12 }, (_, i) => node(`s${i}`, "src")),
    ...Array.from({ length: 9 }, (_, i) => node(`t${i}`, "test")),
  ];
  const edges = [
    { from: "s0", to: "t3", weight: 2 },
    { from: "s0", to: "t4", weight: 3 },
    { from: "t5", to: "t6", weight: 1 },
    { from: "s1", to: "s0", weight: 1 },
  ];
  const graph: DiagramGraph = { direction: "LR", groups: [], nodes, edges };

  it("keeps at most a dozen nodes and groups the rest by folder", () => {
    const { graph: capped, groupedNodes } = capGraph(graph);
    expect(capped.nodes.length).toBeLessThanOrEqual(MAX_DIAGRAM_NODES);
    const more = capped.nodes.filter((n) => n.shape === "more").map((n) => n.label);
    expect(more).toContain("+ 9 more files in test/");
    // The most important nodes stay, in order.
    expect(capped.nodes.slice(0, 3).map((n) => n.id)).toEqual(["s0", "s1", "s2"]);
    // Every node of the input is either drawn or counted in a group.
    const drawn = capped.nodes.filter((n) => n.shape !== "more").length;
    expect(drawn + groupedNodes).toBe(nodes.length);
  });

  it("moves edges onto the group node and sums their weights", () => {
    const { graph: capped } = capGraph(graph);
    const test = capped.nodes.find((n) => n.label === "+ 9 more files in test/");
    expect(capped.edges).toContainEqual({ from: "s0", to: test!.id, weight: 5 });
    // An edge inside the group disappears rather than looping on itself.
    expect(capped.edges.some((e) => e.from === e.to)).toBe(false);
  });

  it("leaves a small graph alone", () => {
    const small = { ...graph, nodes: nodes.slice(0, 5), edges: edges.slice(3) };
    expect(capGraph(small).graph).toEqual(small);
  });

  it("shares one '+ N more' among folders when there are too many to give each its own", () => {
    const scattered = Array.from({ length: 40 }, (_, i) => node(`n${i}`, `pkg${i}`));
    const { graph: capped, groupedNodes } = capGraph({
      direction: "LR",
      groups: [],
      nodes: scattered,
      edges: [],
    });
    expect(capped.nodes.length).toBeLessThanOrEqual(MAX_DIAGRAM_NODES);
    expect(capped.nodes.filter((n) => n.shape !== "more").length + groupedNodes).toBe(40);
    expect(capped.nodes.some((n) => /^\+ \d+ more files$/.test(n.label))).toBe(true);
  });

  it("names at most three groups, so the nodes the picture is about keep most of it", () => {
    // 30 nodes over ten folders, then edges between members of different folders.
    const spread = Array.from({ length: 30 }, (_, i) => node(`n${i}`, `pkg${i % 10}`));
    const between = spread
      .slice(12)
      .map((n, i) => ({ from: n.id, to: spread[12 + ((i + 1) % 18)]!.id, weight: 1 }));
    const { graph: capped } = capGraph({ direction: "LR", groups: [], nodes: spread, edges: between });
    const groups = capped.nodes.filter((n) => n.shape === "more");
    expect(groups.length).toBeLessThanOrEqual(3);
    expect(capped.nodes.filter((n) => n.shape !== "more").length).toBeGreaterThanOrEqual(9);
    // Arrows between two "+ N more" nodes say nothing about the code shown: not drawn.
    const grouped = new Set(groups.map((g) => g.id));
    expect(capped.edges.some((e) => grouped.has(e.from) && grouped.has(e.to))).toBe(false);
  });

  it("keeps grouped nodes inside their group box", () => {
    const boxed = Array.from({ length: 20 }, (_, i) => node(`f${i}`, "pkg/core", "here"));
    const { graph: capped } = capGraph({
      direction: "LR",
      groups: [{ id: "here", label: "pkg/core" }],
      nodes: boxed,
      edges: [],
    });
    const more = capped.nodes.find((n) => n.shape === "more");
    expect(more).toMatchObject({ label: "+ 9 more files in pkg/core/", group: "here" });
  });

  it("keeps only the heaviest edges beyond the edge cap", () => {
    const many = Array.from({ length: 10 }, (_, i) => node(`n${i}`, "src"));
    const all = many.flatMap((a, i) => many.map((b, j) => ({ from: a.id, to: b.id, weight: i + j })));
    const { graph: capped, droppedEdges } = capGraph(
      { direction: "LR", groups: [], nodes: many, edges: all },
      12,
      5,
    );
    expect(capped.edges).toHaveLength(5);
    expect(droppedEdges).toBe(all.filter((e) => e.from !== e.to).length - 5);
    expect(capped.edges.map((e) => e.weight).sort((a, b) => b - a)).toEqual([17, 17, 16, 16, 15]);
  });
});

describe("moreLabel", () => {
  it("names the folder or file the nodes come from", () => {
    expect(moreLabel(9, "files", "test")).toBe("+ 9 more files in test/");
    expect(moreLabel(4, "functions", "lib/app.rb")).toBe("+ 4 more functions in lib/app.rb");
    expect(moreLabel(3, "folders", null)).toBe("+ 3 more folders");
  });
});

describe("toMermaid", () => {
  it("writes what parseMermaid reads back: groups, shapes, weights and classes", () => {
    const graph: DiagramGraph = {
      direction: "LR",
      groups: [{ id: "here", label: 'pkg/"core"' }],
      nodes: [
        { ...node("f0", "pkg/core", "here"), label: "a.py" },
        { ...node("m0", "pkg"), label: "pkg/util", shape: "module", cycle: true },
        { ...node("more2", "pkg"), label: "+ 3 more files in pkg/", shape: "more" },
      ],
      edges: [
        { from: "f0", to: "m0", weight: 3 },
        { from: "m0", to: "more2", weight: 1 },
      ],
    };
    const parsed = parseMermaid(toMermaid(graph));
    expect(parsed.direction).toBe("LR");
    expect(parsed.groups).toEqual([{ id: "here", label: "pkg/'core'", parent: null }]);
    expect(parsed.nodes.map((n) => [n.id, n.label, n.shape, n.group, n.classes])).toEqual([
      ["f0", "a.py", "box", "here", []],
      ["m0", "pkg/util", "module", null, ["cycle"]],
      ["more2", "+ 3 more files in pkg/", "more", null, ["more"]],
    ]);
    expect(parsed.edges).toEqual([
      { from: "f0", to: "m0", label: "3" },
      { from: "m0", to: "more2", label: null },
    ]);
  });
});
