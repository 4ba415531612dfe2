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

/** A fenced code block (to its closing fence or the end of the text). */
const FENCE = /(^ {0,3}(?:```|~~~)[^\n]*\n[\s\S]*?(?:^ {0,3}(?:```|~~~)[ \t]*$|(?![\s\S])))/m;
/** A code span: a run of backticks up to the same run. */
const SPAN = /((`+)[\s\S]*?[^`]\2(?!`))/;

/**
 * Escapes Markdown emphasis characters inside citations in raw Markdown, outside code,
 * so `pkg/__init__.py:1-9` or `lib/__fixtures__/a.py:3-4` reach the citation plugin
 * whole instead of being read as bold text. Fenced blocks and code spans are kept as
 * they are (a citation in backticks is already safe).
 */
export function protectCitations(markdown: string): string {
  const pattern = new RegExp(CITATION_PATTERN.source, "g");
  const escape = (prose: string) =>
    prose.replace(pattern, (citation) =>
      /[_*]/.test(citation) ? citation.replace(/[_*]/g, "\\$&") : citation,
    );
  // Fenced code blocks first (split keeps them at odd indexes), then code spans: the
  // split by a span keeps [prose, span, its backtick run] triples.
  return markdown
    .split(FENCE)
    .map((part, i) => {
      if (i % 2 === 1) return part;
      return part
        .split(SPAN)
        .map((piece, j) => (j % 3 === 0 ? escape(piece) : j % 3 === 1 ? piece : ""))
        .join("");
    })
    .join("");
}
