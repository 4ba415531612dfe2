/**
 * A remark plugin that turns inline citations in an answer (`shop/api.py:12-20`,
 * plain or in backticks) into `<span data-citation>` elements, which the answer's
 * Markdown renderer swaps for a CitationRef (a link to the source view, or a visibly
 * unverified mark). Code blocks and existing links are left alone.
 */
import { CITATION_PATTERN } from "@/components/chat/message-parts";

// Minimal mdast shapes: only the fields this plugin reads or writes.
interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  data?: {
    hName?: string;
    hProperties?: Record<string, string>;
    hChildren?: { type: "text"; value: string }[];
  };
}

function citationNode(raw: string, code: boolean): MdNode {
  return {
    type: "citation",
    data: {
      hName: "span",
      hProperties: { dataCitation: raw, dataCode: code ? "true" : "false" },
      hChildren: [{ type: "text", value: raw }],
    },
  };
}

/** Splits a string into text and citation nodes; null when it holds no citation. */
export function splitCitations(value: string, code: boolean): MdNode[] | null {
  const pattern = new RegExp(CITATION_PATTERN.source, "g");
  const out: MdNode[] = [];
  let last = 0;
  for (const match of value.matchAll(pattern)) {
    const index = match.index ?? 0;
    if (index > last)
      out.push(
        code
          ? { type: "inlineCode", value: value.slice(last, index) }
          : { type: "text", value: value.slice(last, index) },
      );
    out.push(citationNode(match[0], code));
    last = index + match[0].length;
  }
  if (out.length === 0) return null;
  if (last < value.length) {
    out.push(
      code ? { type: "inlineCode", value: value.slice(last) } : { type: "text", value: value.slice(last) },
    );
  }
  return out;
}

function transform(node: MdNode): void {
  if (!node.children || node.type === "link" || node.type === "linkReference") return;
  const next: MdNode[] = [];
  for (const child of node.children) {
    if ((child.type === "text" || child.type === "inlineCode") && child.value) {
      const split = splitCitations(child.value, child.type === "inlineCode");
      if (split) {
        next.push(...split);
        continue;
      }
    }
    transform(child);
    next.push(child);
  }
  node.children = next;
}

export function remarkCitations() {
  return (tree: MdNode) => transform(tree);
}
