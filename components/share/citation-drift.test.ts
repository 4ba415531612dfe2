import { describe, expect, it } from "vitest";
import { citationDrift, linesOf } from "./citation-drift";

const file = ["def a():", "    return 1", "", "def b():", "    return 2", ""].join("\n");

describe("citationDrift", () => {
  it("reports unchanged lines, ignoring trailing whitespace and newlines", () => {
    expect(citationDrift("def b():  \n    return 2\n", file, 4, 5)).toBe("unchanged");
  });

  it("reports changed lines when the text at the cited range differs", () => {
    expect(citationDrift("def b():\n    return 3", file, 4, 5)).toBe("changed");
  });

  it("reports lines that moved as changed (the cited range now holds other text)", () => {
    const moved = `# header\n${file}`;
    expect(citationDrift("def b():\n    return 2", moved, 4, 5)).toBe("changed");
  });

  it("reports a removed file", () => {
    expect(citationDrift("def b():", null, 4, 4)).toBe("file-removed");
  });

  it("treats a range past the end of a shortened file as changed", () => {
    expect(citationDrift("def b():\n    return 2", "def a():\n", 4, 5)).toBe("changed");
  });
});

describe("linesOf", () => {
  it("cuts an inclusive 1-based range", () => {
    expect(linesOf(file, 1, 2)).toBe("def a():\n    return 1");
  });
});
