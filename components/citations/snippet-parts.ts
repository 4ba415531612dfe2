/**
 * A citation's snippet in parts small enough to highlight: consecutive lines up to a
 * character budget per part, and any single line longer than that on its own, shown
 * plain (a minified line would cost the highlighter seconds and exceed what
 * /api/highlight accepts). Pure: the chat and the share page split the same way.
 */
export interface SnippetPart {
  code: string;
  /** file line of the part's first line */
  firstLine: number;
  /** false for a line too long to highlight */
  highlight: boolean;
}

/** Well below /api/highlight's limit per snippet, so a part is never refused. */
export const MAX_PART_CHARS = 20_000;

export function snippetParts(code: string, firstLine: number, maxChars = MAX_PART_CHARS): SnippetPart[] {
  const lines = (code.endsWith("\n") ? code.slice(0, -1) : code).split("\n");
  const parts: SnippetPart[] = [];
  let current: string[] = [];
  let start = firstLine;
  let size = 0;
  const flush = () => {
    if (current.length) parts.push({ code: current.join("\n"), firstLine: start, highlight: true });
    current = [];
    size = 0;
  };
  lines.forEach((line, i) => {
    const number = firstLine + i;
    if (line.length > maxChars) {
      flush();
      parts.push({ code: line, firstLine: number, highlight: false });
      start = number + 1;
      return;
    }
    if (size + line.length + 1 > maxChars) flush();
    if (!current.length) start = number;
    current.push(line);
    size += line.length + 1;
  });
  flush();
  return parts;
}
