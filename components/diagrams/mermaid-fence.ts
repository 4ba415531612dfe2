/**
 * Recognises a fenced ```mermaid block in rendered Markdown (the `pre` element
 * react-markdown hands to its components) and reads its source. Pure.
 */

/** The parts of a hast node this module reads. */
export interface HastNode {
  type: string;
  tagName?: string;
  value?: string;
  properties?: { className?: unknown };
  children?: HastNode[];
  position?: { end?: { offset?: number } };
}

function textOf(node: HastNode): string {
  if (node.type === "text") return node.value ?? "";
  return (node.children ?? []).map(textOf).join("");
}

/** The diagram source of a `pre` holding a `code` of language mermaid; null for any other block. */
export function mermaidFenceSource(pre: HastNode | undefined): string | null {
  const code = pre?.children?.find((c) => c.tagName === "code");
  const classes = code?.properties?.className;
  if (!code || !Array.isArray(classes) || !classes.includes("language-mermaid")) return null;
  return textOf(code).replace(/\n$/, "");
}

/**
 * Whether a fenced block can be drawn while the Markdown is still streaming in: only
 * once text follows it, since a block that runs to the end of the text may be a fence
 * not yet closed (Markdown reads an unclosed fence as running to the end).
 */
export function fenceComplete(pre: HastNode | undefined, markdown: string): boolean {
  const end = pre?.position?.end?.offset;
  return end !== undefined && end < markdown.trimEnd().length;
}
