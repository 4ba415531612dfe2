/** A reread (a text with characters blanked, parsed as an edit of the first tree) gives the tree a fresh parse gives. */
import { describe, expect, it } from "vitest";
import { firstPreprocessorBranches } from "./extract/languages/c-macros";
import { withRereadableTree, withTree } from "./parser";

const SOURCE = [
  "int run(int argc) {",
  "#ifdef HAVE_FAST",
  "  if (argc > 1) {",
  "#else",
  "  if (argc > 2) {",
  "#endif",
  "    return go(argc);",
  "  }",
  "  return 0;",
  "}",
  "",
].join("\n");

describe("withRereadableTree", () => {
  it("parses the second text as a fresh parse would, after reading the first", async () => {
    const text = firstPreprocessorBranches(SOURCE);
    const fresh = await withTree("c", text, (tree) => tree.rootNode.toString());
    const [firstHadErrors, reread] = await withRereadableTree("c", SOURCE, (tree, again) => [
      tree.rootNode.hasError,
      again(text).rootNode.toString(),
    ]);
    expect(firstHadErrors).toBe(true);
    expect(reread).toBe(fresh);
    expect(reread).not.toContain("ERROR");
  });
});
