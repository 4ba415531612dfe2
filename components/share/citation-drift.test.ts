import { describe, expect, it } from "vitest";
import { citationDrift, linesOf } from "./citation-drift";

const file = ["def a():", "    return 1", "", "def b():", '    """Second."""', "    return 2", ""].join("\n");

/** A citation of b (lines 4-6) showing its body line (6), as answers record it now. */
const shownBody = { startLine: 4, endLine: 6, snippet: "    return 2", shown: { startLine: 6, endLine: 6 } };
/** The same citation stored before shown lines were recorded: its snippet starts at the span. */
const older = { startLine: 4, endLine: 6, snippet: 'def b():  \n    """Second."""\n    return 2\n' };

describe("citationDrift", () => {
  it("reports unchanged lines, ignoring trailing whitespace and newlines", () => {
    expect(citationDrift(shownBody, file, file)).toBe("unchanged");
    expect(citationDrift(older, file, file)).toBe("unchanged");
  });

  it("checks the shown lines: a changed body line is a change", () => {
    const changed = file.replace("return 2", "return 3");
    expect(citationDrift(shownBody, file, changed)).toBe("changed");
    expect(citationDrift(older, file, changed)).toBe("changed");
  });

  it("checks the span too: a changed line outside the snippet is a change", () => {
    const changed = file.replace('"""Second."""', '"""Other."""');
    expect(citationDrift(shownBody, file, changed)).toBe("changed");
  });

  it("reports lines that moved as changed (the cited range now holds other text)", () => {
    expect(citationDrift(shownBody, file, `# header\n${file}`)).toBe("changed");
  });

  it("judges an old snippet at the span's first lines only as long as it is", () => {
    const firstTwo = { startLine: 4, endLine: 6, snippet: 'def b():\n    """Second."""' };
    expect(citationDrift(firstTwo, null, file)).toBe("unchanged");
    expect(citationDrift(firstTwo, null, file.replace("Second", "Third"))).toBe("changed");
  });

  it("reports a removed file", () => {
    expect(citationDrift(shownBody, file, null)).toBe("file-removed");
  });

  it("treats a range past the end of a shortened file as changed", () => {
    expect(citationDrift(shownBody, file, "def a():\n")).toBe("changed");
  });
});

describe("linesOf", () => {
  it("cuts an inclusive 1-based range", () => {
    expect(linesOf(file, 1, 2)).toBe("def a():\n    return 1");
  });
});
