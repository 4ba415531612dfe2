/**
 * A path or qualified name that may wrap only where a reader would split it: after a
 * path separator, a dot, `::`, `#`, `_` or `-` (a `<wbr>` there), never between two
 * letters of a word. Pair it with `.name-wrap` (overflow-wrap: normal) so the browser
 * does not fall back to breaking anywhere.
 */
import { Fragment } from "react";

/** The pieces of a name, each ending at a place where a line may break. */
export function namePieces(text: string): string[] {
  // Inside a word only between snake_case or kebab-case parts: not in `__init__`, not
  // after the dash of a line range (12-20).
  const pieces = text.split(/(?<=[/.#]|::|[A-Za-z0-9]_(?=[A-Za-z0-9])|[A-Za-z]-(?=[A-Za-z0-9]))(?=.)/);
  if (!text.includes("/")) return pieces;
  // In a path, a file's name stays with its extension (and a citation's line range).
  const out: string[] = [];
  for (const piece of pieces) {
    const last = out.at(-1);
    if (last?.endsWith(".") && !last.endsWith("/.") && /^[A-Za-z0-9]{1,6}(?::|$)/.test(piece))
      out[out.length - 1] = last + piece;
    else out.push(piece);
  }
  return out;
}

export function BreakableName({ text }: { text: string }) {
  const pieces = namePieces(text);
  return (
    <>
      {pieces.map((piece, i) => (
        <Fragment key={i}>
          {piece}
          {i < pieces.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </>
  );
}
