/**
 * A file's purpose line: its own docstring (headings skipped), else what it defines led
 * by its main definition, never the docstring of whichever function comes first.
 */
import { describe, expect, it } from "vitest";
import { EMPTY_FACTS } from "../db/file-shapes.ts";
import { filePurpose, type PageSymbol } from "./file-page.ts";

function sym(name: string, kind: string, startLine: number, endLine: number, docstring = ""): PageSymbol {
  return {
    qualifiedId: `x::${name}`,
    name,
    qualifiedName: name,
    kind,
    startLine,
    endLine,
    signature: name,
    docstring,
    parentId: null,
    exported: true,
    raises: [],
    mutates: [],
  };
}

describe("filePurpose", () => {
  it("reads the module docstring, skipping a reST title and its underline", () => {
    const doc =
      "requests.session\n~~~~~~~~~~~~~~~~\n\nThis module provides a Session object to manage settings. More.";
    expect(filePurpose({ facts: { ...EMPTY_FACTS, doc }, symbols: [] })).toBe(
      "This module provides a Session object to manage settings.",
    );
  });

  it("without one, describes what the file defines, led by its main class, not its first function", () => {
    const purpose = filePurpose({
      path: "xarray/core/dataset.py",
      facts: EMPTY_FACTS,
      symbols: [
        sym(
          "calculate_dimensions",
          "function",
          10,
          30,
          "Calculate the dimensions corresponding to a set of variables.",
        ),
        sym("Dataset", "class", 40, 900, "A multi-dimensional, in memory, array database."),
        sym("_helper", "function", 910, 920),
      ],
    });
    expect(purpose).not.toContain("Calculate the dimensions");
    expect(purpose).toBe(
      "Defines 2 functions and 1 class: `Dataset`, `calculate_dimensions` and `_helper`. `Dataset`: A multi-dimensional, in memory, array database.",
    );
  });
});
