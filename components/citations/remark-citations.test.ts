import { describe, expect, it } from "vitest";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { protectCitations, remarkCitations, splitCitations } from "./remark-citations";

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

describe("protectCitations", () => {
  /** The citations a Markdown text yields after parsing, as the answer renders it. */
  function citationsIn(markdown: string): string[] {
    const tree = unified().use(remarkParse).parse(protectCitations(markdown)) as unknown as Parameters<
      ReturnType<typeof remarkCitations>
    >[0];
    remarkCitations()(tree);
    const found: string[] = [];
    const walk = (node: {
      type: string;
      data?: { hProperties?: Record<string, string> };
      children?: unknown[];
    }) => {
      if (node.type === "citation") found.push(node.data?.hProperties?.dataCitation ?? "");
      for (const child of node.children ?? []) walk(child as typeof node);
    };
    walk(tree as never);
    return found;
  }

  it("keeps paths with double underscores whole instead of bold", () => {
    const text = "Defined in xarray/__init__.py:1-20 and lib/__fixtures__/python/user_service.py:50-52.";
    expect(citationsIn(text)).toEqual([
      "xarray/__init__.py:1-20",
      "lib/__fixtures__/python/user_service.py:50-52",
    ]);
    // Unparsed, the same text loses the first two to emphasis.
    const plain = unified().use(remarkParse).parse(text) as never;
    remarkCitations()(plain);
    expect(JSON.stringify(plain)).toContain('"strong"');
  });

  it("leaves code spans, fenced blocks and other text unchanged", () => {
    const text = [
      "Use `pkg/__init__.py:1-2` and ``a `__x__` b``; __bold__ stays bold.",
      "```python",
      "# pkg/__init__.py:1-2",
      "```",
      "After: pkg/__main__.py:3-4",
    ].join("\n");
    const out = protectCitations(text);
    expect(out).toBe(text.replace("pkg/__main__.py:3-4", "pkg/\\_\\_main\\_\\_.py:3-4"));
    expect(citationsIn(text)).toEqual(["pkg/__init__.py:1-2", "pkg/__main__.py:3-4"]);
  });
});
