/**
 * Node labels wrapped the way a reader splits a path or a qualified name: after a
 * path separator, a dot, `::`, `#` or a space, and inside an overlong part after `_`
 * or `-`; never between two letters of a word. A part that cannot be split stays whole
 * on its own line, however long.
 */

/** Characters after which a label may break. */
const BREAK_AFTER = /(?<=[/.#, ]|::)/;
/** Inside a part longer than a line: snake_case and kebab-case words. */
const SOFT_BREAK_AFTER = /(?<=[_-])/;

function splitLong(part: string, max: number): string[] {
  return part.length > max ? part.split(SOFT_BREAK_AFTER) : [part];
}

/** In a path, a file name keeps its extension: "test_helper." and "rb" are one part. */
function withExtensions(parts: string[], text: string): string[] {
  if (!text.includes("/")) return parts;
  const out: string[] = [];
  for (const part of parts) {
    const last = out.at(-1);
    if (last?.endsWith(".") && !last.endsWith("/.") && /^[A-Za-z0-9]{1,6}$/.test(part))
      out[out.length - 1] = last + part;
    else out.push(part);
  }
  return out;
}

export function wrapLabel(text: string, maxChars: number): string[] {
  const parts = withExtensions(text.split(BREAK_AFTER), text)
    .flatMap((p) => splitLong(p, maxChars))
    .filter((p) => p);
  const lines: string[] = [];
  let line = "";
  for (const part of parts) {
    if (line && (line + part).trimEnd().length > maxChars) {
      lines.push(line.trimEnd());
      line = part.trimStart();
    } else line += part;
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines.length ? lines : [text];
}
