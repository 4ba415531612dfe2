import { describe, expect, it } from "vitest";
import { splitSharedReasons } from "./reasons.ts";

describe("splitSharedReasons", () => {
  it("states the parts every item shares once and keeps what differs", () => {
    const { shared, own } = splitSharedReasons([
      "entry point; matches the question's terms; similar to the question",
      "matches the question's terms; many parts of the file match; similar to the question",
      "similar to the question; matches the question's terms",
    ]);
    expect(shared).toEqual(["matches the question's terms", "similar to the question"]);
    expect(own).toEqual([["entry point"], ["many parts of the file match"], []]);
  });

  it("shares nothing for a single item or when nothing is common", () => {
    expect(splitSharedReasons(["a; b"])).toEqual({ shared: [], own: [["a", "b"]] });
    expect(splitSharedReasons(["a", "b"]).shared).toEqual([]);
  });
});
