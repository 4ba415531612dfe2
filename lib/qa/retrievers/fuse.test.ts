import { describe, expect, it } from "vitest";
import type { ContextItem } from "../../answerers/contract.ts";
import { fuseRetrievals } from "./index.ts";
import type { RetrievalOutput } from "./shared.ts";

function item(key: string, kind: ContextItem["kind"] = "symbol", tokens = 100): ContextItem {
  return {
    key,
    kind,
    path: `${key}.py`,
    startLine: 1,
    endLine: 2,
    title: key,
    text: key,
    tokens,
    reason: "",
    score: 1,
    origin: "initial",
    pass: 1,
    facts: null,
    truncated: false,
  };
}

function output(items: ContextItem[], files: string[], symbols: string[] = []): RetrievalOutput {
  return { items, diagram: null, rankedFiles: files, rankedSymbols: symbols };
}

describe("two retrievals fused", () => {
  const primary = output([item("a"), item("b"), item("c"), item("shared")], ["a.py", "b.py", "shared.py"]);
  const secondary = output(
    [item("flow", "flow"), item("x"), item("shared"), item("y")],
    ["x.py", "shared.py", "y.py"],
  );

  it("ranks files and symbols seen by both above those of one, the primary's leading", () => {
    const fused = fuseRetrievals(primary, secondary, 10_000);
    expect(fused.rankedFiles[0]).toBe("shared.py");
    expect(fused.rankedFiles.indexOf("a.py")).toBeLessThan(fused.rankedFiles.indexOf("x.py"));
    expect(new Set(fused.rankedFiles)).toEqual(new Set(["a.py", "b.py", "shared.py", "x.py", "y.py"]));
  });

  it("takes synthetic items first, then two of the primary's for each of the secondary's, once each", () => {
    const fused = fuseRetrievals(primary, secondary, 10_000);
    expect(fused.items.map((i) => i.key)).toEqual(["flow", "a", "b", "x", "c", "shared", "y"]);
  });

  it("stays within the budget", () => {
    const fused = fuseRetrievals(primary, secondary, 350);
    expect(fused.items.reduce((n, i) => n + i.tokens, 0)).toBeLessThanOrEqual(350);
    expect(fused.items.map((i) => i.key)).toEqual(["flow", "a", "b"]);
  });
});
