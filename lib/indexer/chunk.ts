/**
 * Turns files into searchable chunks: one per symbol for code (classes keep their
 * header and member list, members get their own chunks), a file-summary chunk per
 * code file, and heading-sized sections for Markdown and other text.
 */
import type { ExtractedSymbol } from "./types.ts";

export interface ChunkDraft {
  kind: "code" | "file" | "doc" | "text";
  title: string;
  symbolId: string | null;
  startLine: number;
  endLine: number;
  text: string;
}

/** Long bodies are cut for the index; question-time fetching reads the full source. */
const MAX_CODE_LINES = 150;
const MAX_TEXT_LINES = 60;
/**
 * Characters a chunk holds at most, whatever its lines: symbols on one long line (a
 * minified or generated file) would otherwise each copy that whole line, which made
 * chunking quadratic in the number of symbols on it.
 */
export const MAX_CHUNK_CHARS = 12_000;

/** Lines longer than this are not code a person wrote to be read. */
const LONG_LINE_CHARS = 2_000;

function hasLongLine(lines: string[], start: number, end: number): boolean {
  for (let i = start - 1; i < end && i < lines.length; i++)
    if ((lines[i] ?? "").length > LONG_LINE_CHARS) return true;
  return false;
}

function capChars(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function slice(lines: string[], start: number, end: number): string {
  let out = "";
  for (let i = start - 1; i < end && i < lines.length; i++) {
    out += (i >= start ? "\n" : "") + (lines[i] ?? "");
    if (out.length > MAX_CHUNK_CHARS) return capChars(out, MAX_CHUNK_CHARS);
  }
  return out;
}

export function chunkCode(
  path: string,
  lines: string[],
  symbols: ExtractedSymbol[],
  qualifiedId: (s: ExtractedSymbol) => string,
): ChunkDraft[] {
  const out: ChunkDraft[] = [];
  const childrenOf = new Map<string, ExtractedSymbol[]>();
  for (const s of symbols) {
    if (!s.parent) continue;
    const list = childrenOf.get(s.parent) ?? [];
    list.push(s);
    childrenOf.set(s.parent, list);
  }
  for (const s of symbols) {
    const children = childrenOf.get(s.qualifiedName) ?? [];
    const isContainer = s.kind !== "function" && s.kind !== "method" && children.length > 0;
    let end = Math.min(s.endLine, s.startLine + MAX_CODE_LINES - 1);
    let text: string;
    if (isContainer) {
      // The class header (and docstring / fields) up to its first member, then the member list.
      const firstChild = Math.min(...children.map((c) => c.startLine));
      end = Math.max(s.startLine, Math.min(firstChild - 1, s.startLine + 40));
      const members = capChars(children.map((c) => `  ${c.signature}`).join("\n"), MAX_CHUNK_CHARS);
      text = `${slice(lines, s.startLine, end)}\n  # members:\n${members}`;
    } else {
      // A symbol sharing an overlong line with others (minified or generated code) is
      // known by its signature: the line itself would repeat in every one of their chunks.
      text = hasLongLine(lines, s.startLine, end) ? s.signature : slice(lines, s.startLine, end);
    }
    out.push({
      kind: "code",
      title: s.qualifiedName,
      symbolId: qualifiedId(s),
      startLine: s.startLine,
      endLine: end,
      text,
    });
  }
  // File summary: leading comments / module docstring, the top-level signatures, and the
  // module-level statements between symbols (constants, messages, registrations), which
  // belong to no symbol's chunk.
  const firstSymbol = symbols.length ? Math.min(...symbols.map((s) => s.startLine)) : lines.length + 1;
  const headEnd = Math.min(firstSymbol - 1, 40);
  const head = headEnd > 0 ? slice(lines, 1, headEnd) : "";
  const topLevel = symbols.filter((s) => !s.parent).map((s) => s.signature);
  out.push({
    kind: "file",
    title: path,
    symbolId: null,
    startLine: 1,
    endLine: Math.max(1, lines.length),
    text: capChars(
      [head, ...topLevel, ...moduleLevelLines(lines, symbols, headEnd)].filter(Boolean).join("\n"),
      2 * MAX_CHUNK_CHARS,
    ),
  });
  return out;
}

const MAX_MODULE_LINES = 40;
const IMPORT_LINE =
  /^\s*(?:import\s|from\s+\S+\s+import\s|export\s+\*|export\s+\{[^}]*\}\s+from|#include|using\s|package\s|use\s)/;

/** Lines after the head that no symbol covers, imports and blank lines left out (capped). */
function moduleLevelLines(lines: string[], symbols: ExtractedSymbol[], headEnd: number): string[] {
  const covered = new Uint8Array(lines.length + 2);
  for (const s of symbols) for (let l = s.startLine; l <= s.endLine && l <= lines.length; l++) covered[l] = 1;
  const out: string[] = [];
  for (let l = Math.max(1, headEnd + 1); l <= lines.length && out.length < MAX_MODULE_LINES; l++) {
    const line = lines[l - 1] ?? "";
    if (covered[l] || !line.trim() || IMPORT_LINE.test(line)) continue;
    out.push(line.length > 200 ? line.slice(0, 200) : line);
  }
  return out;
}

/** Lines of a file as editors count them (a trailing newline does not start a new line). */
export function fileLines(content: string): string[] {
  const lines = content.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

export function chunkText(path: string, content: string, language: string): ChunkDraft[] {
  const lines = fileLines(content);
  const out: ChunkDraft[] = [];
  const isMarkdown = language === "markdown";
  const headingAt = (i: number) => isMarkdown && /^#{1,6}\s/.test(lines[i] ?? "");
  let start = 0;
  let title = path;
  const kind = isMarkdown || language === "restructuredtext" ? "doc" : "text";
  const push = (startLine: number, endLine: number, text: string) => {
    if (text.trim()) out.push({ kind, title, symbolId: null, startLine, endLine, text });
  };
  const flush = (endExclusive: number) => {
    // Split long sections so every chunk stays readable in a prompt: at most
    // MAX_TEXT_LINES lines and MAX_CHUNK_CHARS characters, a longer line in pieces.
    let from = start;
    let text = "";
    for (let i = start; i < endExclusive; i++) {
      const line = lines[i] ?? "";
      if (i > from && (i - from >= MAX_TEXT_LINES || text.length + line.length >= MAX_CHUNK_CHARS)) {
        push(from + 1, i, text);
        from = i;
        text = "";
      }
      if (line.length <= MAX_CHUNK_CHARS) {
        text += (i > from ? "\n" : "") + line;
        continue;
      }
      for (let at = 0; at < line.length; at += MAX_CHUNK_CHARS)
        push(i + 1, i + 1, line.slice(at, at + MAX_CHUNK_CHARS));
      from = i + 1;
      text = "";
    }
    if (from < endExclusive) push(from + 1, endExclusive, text);
  };
  for (let i = 0; i < lines.length; i++) {
    if (i > start && headingAt(i)) {
      flush(i);
      start = i;
    }
    if (headingAt(i)) title = `${path} › ${(lines[i] ?? "").replace(/^#+\s*/, "").trim()}`;
  }
  flush(lines.length);
  return out;
}
