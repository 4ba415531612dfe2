/**
 * Functions a step defines and hands back instead of calling: a decorator's wrapper
 * (`def retry(...): ... return wrap`), a factory's closure (`function makeHandler() { function
 * handle() {…} return handle }`). What the caller gets runs that function, so the walk goes
 * on in it; no call edge records it.
 */
import "server-only";
import { symbolsInFile, type SymbolRecord } from "../../db/code-graph.ts";
import type { SourceReader } from "../context.ts";

/** A `return` handing back a name as a value, not calling it. */
const RETURNS_A_NAME = /\breturn\b[^\n]*?(?<![\w$.])[A-Za-z_$][\w$]*(?![\w$]|\s*\()/;

/** How many returned functions of one step the walk follows. */
const RETURNED_PER_STEP = 2;

export async function returnedClosures(
  generationId: string,
  symbol: SymbolRecord,
  reader: SourceReader,
): Promise<string[]> {
  if (symbol.kind !== "function" && symbol.kind !== "method") return [];
  const lines = await reader.lines(symbol.path);
  if (!lines) return [];
  const span = lines.slice(symbol.startLine - 1, symbol.endLine).join("\n");
  // A step that returns no name as a value reads no symbols.
  if (!RETURNS_A_NAME.test(span)) return [];
  const inner = (await symbolsInFile(generationId, symbol.path)).filter(
    (s) =>
      s.kind === "function" &&
      s.qualifiedName === `${symbol.qualifiedName}.${s.name}` &&
      s.startLine > symbol.startLine &&
      s.endLine <= symbol.endLine,
  );
  if (inner.length === 0) return [];
  // The step's own lines, without the bodies of the functions it defines.
  const own = lines
    .slice(symbol.startLine - 1, symbol.endLine)
    .filter(
      (_, i) => !inner.some((s) => i + symbol.startLine >= s.startLine && i + symbol.startLine <= s.endLine),
    )
    .join("\n");
  return (
    inner
      // Returned as a value (`return wrap`, `return t.cast(T, wrapped)`), not called (`return wrap(f)`).
      .filter((s) =>
        new RegExp(String.raw`\breturn\b[^\n]*?(?<![\w$.])${escaped(s.name)}(?![\w$]|\s*\()`, "m").test(own),
      )
      .slice(0, RETURNED_PER_STEP)
      .map((s) => s.qualifiedId)
  );
}

function escaped(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
