/**
 * A runner-up (ranks six to ten) whose conditions carry the question takes the place of a
 * leading symbol that decides nothing of it: the ordering on its own.
 */
import { describe, expect, it } from "vitest";
import type { SymbolRecord } from "../../db/code-graph.ts";
import { wordStems } from "../focus.ts";
import { decidingRunnersUp } from "./deciding-runners-up.ts";
import type { Ranked } from "./shared.ts";

const ranked = (names: string[], kinds: Record<string, string> = {}): Ranked[] =>
  names.map((name, i) => {
    const symbol = {
      qualifiedId: `f::${name}`,
      qualifiedName: name,
      name,
      kind: kinds[name] ?? "function",
      path: "f",
      startLine: 1,
      endLine: 9,
    } as SymbolRecord;
    return {
      candidate: { key: symbol.qualifiedId, symbol, chunk: null, reason: "" },
      score: 10 - i,
      reasons: [],
    };
  });

const order = (list: Ranked[]) => list.map((r) => r.candidate.symbol?.name);

describe("decidingRunnersUp", () => {
  const names = ["a", "b", "T", "c", "d", "e", "f", "g", "h", "i", "j"];
  const weightOf =
    (weights: Record<string, number>) =>
    (s: SymbolRecord): number | null =>
      s.kind === "function" ? (weights[s.name] ?? 0) : null;

  it("puts a runner-up deciding at least the best leading one in the lowest place deciding nothing, scores kept descending", () => {
    const out = decidingRunnersUp(ranked(names), weightOf({ a: 2, b: 1, c: 3, g: 3 }), new Set(), new Set());
    expect(order(out)).toEqual(["a", "b", "T", "c", "g", "d", "e", "f", "h", "i", "j"]);
    expect(out.map((r) => r.score)).toEqual(ranked(names).map((r) => r.score));
    expect(out[4]?.reasons.at(-1)).toMatch(/conditions carry the question/);
  });

  it("counts a type the question does not name as deciding nothing, and keeps one it names", () => {
    const kinds = { T: "struct" };
    const weights = weightOf({ a: 2, b: 1, c: 3, d: 1, g: 3 });
    expect(order(decidingRunnersUp(ranked(names, kinds), weights, new Set(), new Set()))).toEqual([
      "a",
      "b",
      "g",
      "c",
      "d",
      "T",
      "e",
      "f",
      "h",
      "i",
      "j",
    ]);
    expect(decidingRunnersUp(ranked(names, kinds), weights, new Set(["t"]), new Set())).toEqual(
      ranked(names, kinds),
    );
  });

  it("brings up no runner-up deciding less than the best leading function, nor what cannot be weighed", () => {
    expect(order(decidingRunnersUp(ranked(names), weightOf({ a: 4, g: 3 }), new Set(), new Set()))).toEqual(
      names,
    );
    const tests = ranked(names, { g: "test" });
    expect(decidingRunnersUp(tests, weightOf({ a: 1 }), new Set(), new Set())).toEqual(tests);
  });

  it("keeps a leading function weighing 0 whose name carries one of the question's words", () => {
    const list = ranked(["collect", "b", "T", "c", "scan", "e", "f", "g"]);
    const out = decidingRunnersUp(
      list,
      weightOf({ b: 1, c: 1, f: 2, g: 2 }),
      new Set(),
      new Set(wordStems("how do they collect and scan")),
    );
    expect(order(out)).toEqual(["collect", "b", "f", "c", "scan", "T", "e", "g"]);
    // Asked about neither, both give their places.
    const none = decidingRunnersUp(list, weightOf({ b: 1, c: 1, f: 2, g: 2 }), new Set(), new Set());
    expect(order(none)).toEqual(["collect", "b", "g", "c", "f", "T", "scan", "e"]);
  });

  it("brings up several, the heaviest into the lowest idle place, nothing past the tenth", () => {
    const out = decidingRunnersUp(ranked(names), weightOf({ a: 1, f: 1, h: 2, j: 5 }), new Set(), new Set());
    expect(order(out)).toEqual(["a", "b", "T", "f", "h", "c", "d", "e", "g", "i", "j"]);
  });
});
