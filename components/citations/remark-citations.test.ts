import { describe, expect, it } from "vitest";
import { remarkCitations, splitCitations } from "./remark-citations";

describe("splitCitations", () => {
  it("splits text around citations", () => {
    const nodes = splitCitations("raised in shop/payments.py:12-18 when declined", false);
    expect(nodes?.map((n) => n.type)).toEqual(["text", "citation", "text"]);
    expect(nodes?.[1]?.data?.hProperties).toEqual({
      dataCitation: "shop/payments.py:12-18",
      dataCode: "false",
    });
  });

  it("leaves text without citations alone", () => {
    expect(splitCitations("version 1.2 at 10:30", false)).toBeNull();
  });
});

describe("remarkCitations", () => {
  it("rewrites text and inline code but not code blocks or links", () => {
    const tree = {
      type: "root",
      children: [
        { type: "paragraph", children: [{ type: "inlineCode", value: "shop/api.py:3-9" }] },
        { type: "code", value: "shop/api.py:3-9" },
        { type: "link", children: [{ type: "text", value: "shop/api.py:3-9" }] },
      ],
    };
    remarkCitations()(tree);
    expect(tree.children[0]?.children?.[0]?.type).toBe("citation");
    expect(tree.children[1]?.type).toBe("code");
    expect(tree.children[2]?.children?.[0]?.type).toBe("text");
  });
});
