/**
 * A path or qualified name that may wrap only where a reader would split it: after a
 * path separator, a dot, `::`, `#`, `_` or `-` (a `<wbr>` there), never between two
 * letters of a word. Pair it with `.name-wrap` (overflow-wrap: normal) so the browser
 * does not fall back to breaking anywhere.
 */
import { Fragment } from "react";

/** The pieces of a name, each ending at a place where a line may break. */
export function namePieces(text: string): string[] {
  return text.split(/(?<=[/.#_-]|::)(?=.)/);
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
