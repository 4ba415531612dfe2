/**
 * Methods a step hands on by reference rather than calling: its own class's method passed as an
 * argument (`handler.Handle(notification, PublishCore, token)`, `run(self._on_done)`,
 * `stream.once("end", this.finish)`, `items.forEach(this::visit)`) runs when the code given it
 * calls it back, so the flow goes on there. The index records calls only, so the body is read.
 */
import "server-only";
import { symbolsInFile, type SymbolRecord } from "../../db/code-graph.ts";
import type { SourceReader } from "../context.ts";

/** The ids of the caller's own class's methods that its body passes as arguments, in the order written. */
export async function referencedMethods(
  generationId: string,
  symbol: SymbolRecord,
  reader: SourceReader,
): Promise<string[]> {
  if (symbol.kind !== "method" || !symbol.parentId) return [];
  const lines = await reader.lines(symbol.path);
  if (!lines) return [];
  // The body past the signature: the method's own name in its declaration is no reference.
  const body = lines.slice(symbol.startLine, symbol.endLine).join("\n");
  const passed = methodArguments(body);
  if (passed.length === 0) return [];
  const siblings = (await symbolsInFile(generationId, symbol.path)).filter(
    (s) =>
      s.parentId === symbol.parentId &&
      s.kind === "method" &&
      s.fanOut > 0 &&
      s.qualifiedId !== symbol.qualifiedId &&
      passed.includes(s.name),
  );
  const out: string[] = [];
  for (const name of passed) {
    const found = siblings.find((s) => s.name === name);
    if (found && !out.includes(found.qualifiedId)) out.push(found.qualifiedId);
  }
  return out.slice(0, REFERENCES_PER_STEP);
}

/**
 * The names passed as whole arguments of a call, bare or on the object itself (`PublishCore`,
 * `self._on_done`, `this.finish`, `this::visit`, `Self::visit`), never called there: an argument
 * that is a name and nothing more, between `(` or `,` and `,` or `)`.
 */
export function methodArguments(body: string): string[] {
  const out: string[] = [];
  for (const m of body.matchAll(ARGUMENT)) {
    const name = m[1] as string;
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

const ARGUMENT = /[(,]\s*(?:(?:this|self|Self|base)\s*(?:\.|::)\s*|&?\s*)?([A-Za-z_$][\w$]*)\s*(?=[,)])/g;

/** How many methods passed by reference a step goes on into. */
const REFERENCES_PER_STEP = 2;
