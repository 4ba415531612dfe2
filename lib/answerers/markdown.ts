/**
 * Small Markdown helpers for generated pages: inline code, `path:start-end`
 * citations, first sentences and paragraphs of docs, and capped name lists. Pure.
 */

export function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

export function cite(path: string, startLine: number, endLine: number): string {
  return `${path}:${startLine}-${Math.max(startLine, endLine)}`;
}

/** The qualified name inside a qualified id (`shop/api.py::create_order` → `create_order`). */
export function nameOfId(qualifiedId: string): string {
  const i = qualifiedId.indexOf("::");
  return i < 0 ? qualifiedId : qualifiedId.slice(i + 2);
}

export function firstSentence(text: string, max = 240): string {
  const clean = text.replace(/\s+/g, " ").trim();
  const match = /^(.{12,}?[.!?])(\s|$)/.exec(clean);
  const sentence = match?.[1] ?? clean;
  return sentence.length > max ? `${sentence.slice(0, max - 1)}…` : sentence;
}

/** First paragraph of prose, Markdown/reST decoration stripped (headings, badges, images, HTML). */
export function firstParagraph(text: string, max = 600): string {
  const paragraphs = text
    .replace(/\r\n?/g, "\n")
    .replace(/<!--[\s\S]*?-->/g, "")
    .split(/\n\s*\n/)
    .map((p) =>
      p
        .split("\n")
        .filter(
          (line) =>
            !/^\s*(#|=+\s*$|-+\s*$|~+\s*$|\*+\s*$|\.\.\s|:\w+:|\[!\[|!\[|<\/?\w|\|)/.test(line) &&
            line.trim() !== "",
        )
        .join(" ")
        .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
        .replace(/\s+/g, " ")
        .trim(),
    )
    .filter((p) => p.length >= 20 && /[a-z]/.test(p));
  const first = paragraphs[0] ?? "";
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? word : many}`;
}

/** "a, b and c" — or "a, b, c and 4 more" past `max`. */
export function joinCapped(items: string[], max: number): string {
  const shown = items.slice(0, max);
  const rest = items.length - shown.length;
  if (rest > 0) return `${shown.join(", ")} and ${rest} more`;
  if (shown.length <= 1) return shown.join("");
  return `${shown.slice(0, -1).join(", ")} and ${shown[shown.length - 1]}`;
}

const LANGUAGE_NAMES: Record<string, string> = {
  python: "Python",
  typescript: "TypeScript",
  tsx: "TSX",
  javascript: "JavaScript",
  java: "Java",
  go: "Go",
  rust: "Rust",
  c: "C",
  cpp: "C++",
  csharp: "C#",
  ruby: "Ruby",
  php: "PHP",
  markdown: "Markdown",
  restructuredtext: "reStructuredText",
};

export function languageName(language: string): string {
  return LANGUAGE_NAMES[language] ?? language;
}

/** Fence language for a snippet of the given index language. */
export function fenceLanguage(language: string): string {
  return language === "restructuredtext" ? "rst" : language === "csharp" ? "cs" : language;
}
