/**
 * A remark plugin for generated wiki pages: `path:start-end` citations become links
 * into the source view at those lines, and inline code naming a file or folder that
 * has its own page (`shop/pricing.py`) becomes a link to that page. Code blocks and
 * existing links are left alone. Pure: the link targets come from the options.
 */

interface MdNode {
  type: string;
  value?: string;
  url?: string;
  children?: MdNode[];
}

export interface WikiLinkOptions {
  /** the source-view URL of a cited range */
  sourceUrl: (path: string, startLine: number, endLine: number) => string;
  /** the wiki URL of a path that has a page, else null */
  pageUrl: (path: string) => string | null;
}

// A relative path with an extension, then :start-end (the form every generated page uses).
const CITATION = /(?<![\w/.-])([\w@+~-][\w@+~./-]*\.[A-Za-z0-9]{1,10}):(\d+)-(\d+)(?![\w-])/g;

/** Text split into plain text and source links; null when it holds no citation. */
export function linkCitations(value: string, options: WikiLinkOptions): MdNode[] | null {
  const out: MdNode[] = [];
  let last = 0;
  for (const match of value.matchAll(CITATION)) {
    const [whole, path = "", start = "0", end = "0"] = match;
    const index = match.index ?? 0;
    if (index > last) out.push({ type: "text", value: value.slice(last, index) });
    out.push({
      type: "link",
      url: options.sourceUrl(path, Number(start), Number(end)),
      children: [{ type: "text", value: whole }],
    });
    last = index + whole.length;
  }
  if (out.length === 0) return null;
  if (last < value.length) out.push({ type: "text", value: value.slice(last) });
  return out;
}

function transform(node: MdNode, options: WikiLinkOptions): void {
  if (!node.children || node.type === "link" || node.type === "linkReference") return;
  const next: MdNode[] = [];
  for (const child of node.children) {
    if (child.type === "text" && child.value) {
      const linked = linkCitations(child.value, options);
      if (linked) {
        next.push(...linked);
        continue;
      }
    }
    if (child.type === "inlineCode" && child.value) {
      const url = options.pageUrl(child.value.replace(/\/$/, ""));
      if (url) {
        next.push({ type: "link", url, children: [child] });
        continue;
      }
    }
    transform(child, options);
    next.push(child);
  }
  node.children = next;
}

export function remarkWikiLinks(options: WikiLinkOptions) {
  return (tree: MdNode) => transform(tree, options);
}
