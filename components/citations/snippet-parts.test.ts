import { describe, expect, it } from "vitest";
import { snippetParts } from "./snippet-parts";

describe("snippetParts", () => {
  it("keeps a small snippet in one part", () => {
    expect(snippetParts("a\nb\n", 10)).toEqual([{ code: "a\nb", firstLine: 10, highlight: true }]);
  });

  it("splits a large snippet into parts under the budget, numbering lines on", () => {
    const line = "x".repeat(30);
    const code = Array.from({ length: 10 }, () => line).join("\n");
    const parts = snippetParts(code, 100, 100);
    expect(parts.every((p) => p.code.length <= 100 && p.highlight)).toBe(true);
    expect(parts.map((p) => p.firstLine)).toEqual([100, 103, 106, 109]);
    expect(parts.map((p) => p.code).join("\n")).toBe(code);
  });

  it("shows a line too long to highlight plain, on its own", () => {
    const parts = snippetParts(`short\n${"y".repeat(500)}\nafter`, 1, 100);
    expect(parts).toEqual([
      { code: "short", firstLine: 1, highlight: true },
      { code: "y".repeat(500), firstLine: 2, highlight: false },
      { code: "after", firstLine: 3, highlight: true },
    ]);
  });
});
