import { describe, expect, it } from "vitest";
import { analyticalAsks } from "./analytical-intent.ts";

describe("what an analytical question asks for", () => {
  it.each([
    [
      "Which parts of the code call into Scene to replace elements, and how do they depend on each other?",
      "callers",
    ],
    ["How many places call ctx.fail, and in which files are they?", "callers"],
    ["What does Command depend on and what depends on it?", "dependencies"],
    ["Which modules in src/click are imported by the most other modules?", "most-imported"],
    ["Across the whole package, which helpers are depended on most?", "most-imported"],
    ["Are there import cycles among core.py, types.py and parser.py?", "cycles"],
    ["Does utils/ ever import from core/ or plugins/, or is it a clean bottom layer?", "layering"],
    ["Which function in lodash.js has the highest fan-out?", "fan-out"],
    ["What are the largest functions in click/core.py by line count?", "largest"],
    ["Is there any dead code in _compat.py — functions nothing calls anymore?", "dead-code"],
    ["How coupled is progress.py to live.py?", "coupling"],
    ["Assess the code quality of lib/indexer.", "overview"],
  ])("%j asks for %s", (question, ask) => {
    expect(analyticalAsks(question)[0]).toBe(ask);
  });

  it("asks for an overview when nothing specific is named", () => {
    expect(analyticalAsks("Tell me about this package")).toEqual(["overview"]);
  });
});
