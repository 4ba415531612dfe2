/**
 * Unhighlighted code with the same markup shiki produces (`span.line[data-line]`),
 * shown while a highlighted version loads or when highlighting fails, so swapping
 * one for the other does not move anything on the page.
 */
export function PlainCode({ code, firstLine = 1 }: { code: string; firstLine?: number }) {
  const lines = (code.endsWith("\n") ? code.slice(0, -1) : code).split("\n");
  return (
    <pre className="shiki plain">
      <code>
        {lines.map((line, i) => (
          <span key={i} className="line" data-line={firstLine + i}>
            {line}
            {i < lines.length - 1 ? "\n" : null}
          </span>
        ))}
      </code>
    </pre>
  );
}
