/**
 * Whether the lines a shared answer cited still read the same in the repository's
 * current index: the lines its snippet shows and the span it links to. Trailing
 * whitespace and a final newline are ignored: a re-index of an unchanged file must not
 * report a change.
 */
import type { DriftStatus } from "@/components/citations/citation-list";
import { snippetLines } from "@/components/citations/citation-key";
import type { CitationPart } from "@/lib/qa/types";

function normalize(text: string): string {
  return text
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n+$/, "");
}

export function linesOf(content: string, start: number, end: number): string {
  return content
    .replace(/\r\n/g, "\n")
    .split("\n")
    .slice(start - 1, end)
    .join("\n");
}

/** What a shared answer recorded of a citation: its span, and the lines its snippet shows. */
export type CitedLines = Pick<CitationPart, "startLine" | "endLine" | "snippet" | "shown">;

/**
 * Whether a citation still reads the same: its snippet against the current file at the
 * lines it shows, and its span against the same span of the file it was answered from.
 * `answered` and `current` are the file's content in the answer's generation and in the
 * active one (null when the file is gone). A citation stored without a snippet is judged
 * by its span alone; one stored before its shown lines were recorded, by its snippet at
 * the span's first lines.
 */
export function citationDrift(
  cited: CitedLines,
  answered: string | null,
  current: string | null,
): DriftStatus {
  if (current === null) return "file-removed";
  if (cited.snippet !== null) {
    const shown = snippetLines(cited);
    if (normalize(cited.snippet) !== normalize(linesOf(current, shown.startLine, shown.endLine)))
      return "changed";
  }
  if (answered === null) return cited.snippet === null ? "changed" : "unchanged";
  const span = (content: string) => normalize(linesOf(content, cited.startLine, cited.endLine));
  return span(answered) === span(current) ? "unchanged" : "changed";
}
