/** Cycle detection over edge lists: components, loops through them, deep chains. */
import { describe, expect, it } from "vitest";
import { cyclePath, findCycles } from "./graph.ts";

const e = (from: string, to: string) => ({ from, to });

describe("findCycles", () => {
  it("returns each strongly connected component with more than one node, largest first", () => {
    const edges = [e("a", "b"), e("b", "a"), e("c", "d"), e("d", "e"), e("e", "c"), e("e", "f"), e("g", "g")];
    expect(findCycles([], edges)).toEqual([
      ["c", "d", "e"],
      ["a", "b"],
    ]);
  });

  it("ignores self-loops and acyclic graphs", () => {
    expect(findCycles(["x"], [e("x", "x"), e("x", "y"), e("y", "z")])).toEqual([]);
  });

  it("handles chains far deeper than the call stack would allow recursively", () => {
    const n = 200_000;
    const edges = Array.from({ length: n }, (_, i) => e(`n${i}`, `n${i + 1}`));
    edges.push(e(`n${n}`, "n0"));
    const [cycle] = findCycles([], edges);
    expect(cycle).toHaveLength(n + 1);
  });
});

describe("cyclePath", () => {
  it("walks the shortest loop from the component's first node back to it", () => {
    const edges = [e("a", "b"), e("b", "c"), e("c", "a"), e("b", "a")];
    expect(cyclePath(["a", "b", "c"], edges)).toEqual(["a", "b"]);
    expect(cyclePath(["p", "q", "r"], [e("p", "q"), e("q", "r"), e("r", "p")])).toEqual(["p", "q", "r"]);
  });
});
