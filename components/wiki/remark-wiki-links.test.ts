/** Citations and page paths in generated wiki Markdown become links. */
import { describe, expect, it } from "vitest";
import { linkCitations, remarkWikiLinks } from "./remark-wiki-links";

const options = {
  sourceUrl: (path: string, start: number, end: number) => `/src?path=${path}&lines=${start}-${end}`,
  pageUrl: (path: string) => (path === "shop/pricing.py" ? "/wiki/file/shop/pricing.py" : null),
};

describe("linkCitations", () => {
  it("links each path:start-end and keeps the text around it", () => {
    expect(linkCitations("`f` (function) shop/a.py:5-7 — does things", options)).toEqual([
      { type: "text", value: "`f` (function) " },
      {
        type: "link",
        url: "/src?path=shop/a.py&lines=5-7",
        children: [{ type: "text", value: "shop/a.py:5-7" }],
      },
      { type: "text", value: " — does things" },
    ]);
  });

  it("leaves text without citations alone", () => {
    expect(linkCitations("Python · 25 lines · version 1.2", options)).toBeNull();
  });
});

describe("remarkWikiLinks", () => {
  it("links page paths in inline code and skips code blocks", () => {
    const tree = {
      type: "root",
      children: [
        {
          type: "paragraph",
          children: [
            { type: "text", value: "calls " },
            { type: "inlineCode", value: "compute_total" },
            { type: "text", value: " in " },
            { type: "inlineCode", value: "shop/pricing.py" },
          ],
        },
        { type: "code", value: "def f(): pass  # shop/a.py:1-2" },
      ],
    };
    remarkWikiLinks(options)(tree);
    expect(tree.children[0]?.children?.[3]).toEqual({
      type: "link",
      url: "/wiki/file/shop/pricing.py",
      children: [{ type: "inlineCode", value: "shop/pricing.py" }],
    });
    expect(tree.children[0]?.children?.[1]).toEqual({ type: "inlineCode", value: "compute_total" });
    expect(tree.children[1]).toEqual({ type: "code", value: "def f(): pass  # shop/a.py:1-2" });
  });
});
