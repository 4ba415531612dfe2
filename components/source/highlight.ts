/**
 * Server-side syntax highlighting with shiki, shared by the source view, the share
 * page and the /api/highlight route (citation snippets in the chat). Highlighting on
 * the server keeps shiki's grammars and regex engine out of the browser bundle and
 * gives snippets and full files exactly the same colours.
 */
import "server-only";
import { bundledLanguages, bundledLanguagesAlias, codeToHtml, type ShikiTransformer } from "shiki";

// The high-contrast variant: every token colour reads at 4.5:1 or more on white and on
// the marked-line and linked-line backgrounds (github-light's orange was 3:1).
const THEME = "github-light-high-contrast";

/** Index language names that shiki knows under another name. */
const LANGUAGE_ALIASES: Record<string, string> = { restructuredtext: "rst" };

export function shikiLanguage(language: string | null | undefined): string {
  const name = LANGUAGE_ALIASES[language ?? ""] ?? language ?? "text";
  return name in bundledLanguages || name in bundledLanguagesAlias ? name : "text";
}

export interface HighlightOptions {
  code: string;
  language: string | null | undefined;
  /** number of the first line of `code` in its file (snippets start mid-file) */
  firstLine?: number;
  /** file lines to mark (inclusive) */
  mark?: { start: number; end: number } | null;
  /** give every line an `L<n>` id so `#L10` links land on it (only once per page) */
  anchors?: boolean;
}

/** Highlighted HTML: one `span.line` per line with `data-line` for the CSS line numbers. */
export async function highlightCode({
  code,
  language,
  firstLine = 1,
  mark = null,
  anchors = false,
}: HighlightOptions): Promise<string> {
  const lines: ShikiTransformer = {
    name: "wayfinder-lines",
    line(node, line) {
      const number = firstLine + line - 1;
      node.properties["data-line"] = String(number);
      if (anchors) node.properties.id = `L${number}`;
      if (mark && number >= mark.start && number <= mark.end) this.addClassToHast(node, "marked");
    },
  };
  // Trailing newline would render an empty numbered line after the last real one.
  const text = code.endsWith("\n") ? code.slice(0, -1) : code;
  return codeToHtml(text, { lang: shikiLanguage(language), theme: THEME, transformers: [lines] });
}
