import { describe, expect, it } from "vitest";
import { highlightKey, snippetLines } from "./citation-key";

const span = { path: "src/a.php", startLine: 10, endLine: 40 };

describe("snippetLines", () => {
  it("is the shown lines recorded with a citation", () => {
    expect(snippetLines({ ...span, snippet: "x\ny", shown: { startLine: 21, endLine: 22 } })).toEqual({
      startLine: 21,
      endLine: 22,
    });
  });

  it("reads a citation stored before shown lines were recorded from the span's first line", () => {
    expect(snippetLines({ ...span, snippet: "/**\n * Doc.\n */\n" })).toEqual({ startLine: 10, endLine: 12 });
    expect(snippetLines({ ...span, snippet: null })).toEqual({ startLine: 10, endLine: 10 });
  });
});

describe("highlightKey", () => {
  it("differs when the same text is shown at other lines of the span", () => {
    const older = highlightKey({ ...span, snippet: "return 1;" });
    const shown = highlightKey({ ...span, snippet: "return 1;", shown: { startLine: 30, endLine: 30 } });
    expect(older).not.toBe(shown);
    expect(shown).toContain("@30#");
  });
});
