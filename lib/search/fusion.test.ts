import { describe, expect, it } from "vitest";
import { rrf } from "./fusion.ts";

const id = (s: string) => s;

describe("rrf", () => {
  it("scores by summed reciprocal ranks", () => {
    const fused = rrf([{ items: ["a", "b", "c"] }, { items: ["b", "d"] }], id);
    expect(fused.map((f) => f.item)).toEqual(["b", "a", "d", "c"]);
    const b = fused[0];
    expect(b?.score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(b?.ranks).toEqual([2, 1]);
    expect(fused.find((f) => f.item === "c")?.ranks).toEqual([3, 0]);
  });

  it("applies list weights", () => {
    const unweighted = rrf([{ items: ["a", "b"] }, { items: ["b", "a"] }], id);
    const weighted = rrf([{ items: ["a", "b"] }, { items: ["b", "a"], weight: 2 }], id);
    expect(unweighted[0]?.score).toBeCloseTo(unweighted[1]?.score ?? NaN, 12);
    expect(weighted.map((f) => f.item)).toEqual(["b", "a"]);
    expect(weighted[0]?.score).toBeCloseTo(1 / 62 + 2 / 61, 12);
  });

  it("deduplicates by key, counting only the first occurrence within a list", () => {
    const rows = [
      { id: 1, from: "lexical" },
      { id: 2, from: "lexical" },
      { id: 1, from: "lexical-again" },
    ];
    const fused = rrf([{ items: rows }, { items: [{ id: 2, from: "vector" }] }], (r) => String(r.id));
    expect(fused).toHaveLength(2);
    expect(fused.find((f) => f.item.id === 1)?.score).toBeCloseTo(1 / 61, 12);
    // Item 2's kept instance is its best-ranked appearance (rank 1 in the vector list).
    expect(fused[0]?.item).toEqual({ id: 2, from: "vector" });
  });

  it("breaks ties stably: by rank, then by list order", () => {
    const fused = rrf([{ items: ["a", "b", "c"] }, { items: ["x", "y", "z"] }], id);
    expect(fused.map((f) => f.item)).toEqual(["a", "x", "b", "y", "c", "z"]);
    const again = rrf([{ items: ["x", "y", "z"] }, { items: ["a", "b", "c"] }], id);
    expect(again.map((f) => f.item)).toEqual(["x", "a", "y", "b", "z", "c"]);
  });

  it("uses k to flatten or sharpen rank differences", () => {
    const lists = [{ items: ["a", "x", "b"] }, { items: ["c", "y", "b"] }];
    // b is third in both lists: with a large k it beats items that are first in one list,
    // with a small k a single first place wins (1/1 > 2/3).
    expect(rrf(lists, id, 1000)[0]?.item).toBe("b");
    expect(rrf(lists, id, 0)[0]?.item).toBe("a");
  });

  it("handles empty input and zero weights", () => {
    expect(rrf([], id)).toEqual([]);
    expect(rrf([{ items: [] }, { items: [] }], id)).toEqual([]);
    const fused = rrf([{ items: ["a"], weight: 0 }, { items: ["b"] }], id);
    expect(fused.map((f) => [f.item, f.score])).toEqual([
      ["b", 1 / 61],
      ["a", 0],
    ]);
  });

  it("rejects negative k and weights", () => {
    expect(() => rrf([{ items: ["a"] }], id, -1)).toThrow(RangeError);
    expect(() => rrf([{ items: ["a"], weight: -1 }], id)).toThrow(RangeError);
    expect(() => rrf([{ items: ["a"], weight: Number.NaN }], id)).toThrow(RangeError);
  });
});
