import { describe, expect, it } from "vitest";
import { groupByReason, splitSharedReasons } from "./reasons.ts";

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

describe("groupByReason", () => {
  it("says each kind of reason once, keeping the order items come in", () => {
    const items = [
      { name: "extensions", reason: "entry point; matches the question's terms" },
      { name: "register", reason: "entry point; matches the question's terms" },
      { name: "respond_to?", reason: "step in the flow" },
      { name: "helpers", reason: "matches the question's terms; entry point" },
    ];
    const { shared, groups } = groupByReason(items, (i) => i.reason);
    expect(shared).toEqual([]);
    expect(groups.map((g) => [g.reason, g.items.map((i) => i.name)])).toEqual([
      ["entry point; matches the question's terms", ["extensions", "register", "helpers"]],
      ["step in the flow", ["respond_to?"]],
    ]);
  });
});
