/**
 * Whether the lines a shared answer cited still read the same in the repository's
 * current index. Trailing whitespace and a final newline are ignored: a re-index of
 * an unchanged file must not report a change.
 */
import type { DriftStatus } from "@/components/citations/citation-list";

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

/** `current` is the file's content in the active generation, or null when the file is gone. */
export function citationDrift(
  cited: string,
  current: string | null,
  start: number,
  end: number,
): DriftStatus {
  if (current === null) return "file-removed";
  return normalize(cited) === normalize(linesOf(current, start, end)) ? "unchanged" : "changed";
}
