/** find_symbol: functions, methods and classes by any form of their name, with what the index knows of each. */
import "server-only";
import { z } from "zod";
import type { SymbolRecord } from "../../db/code-graph.ts";
import { WayfinderError } from "../../errors.ts";
import { lookupSymbols } from "../lookups.ts";
import { pin } from "../pin.ts";
import { indexRef, repository } from "../schemas.ts";
import { defineTool } from "../tool.ts";

const symbol = z.object({
  id: z.string().describe("qualified id, path::Qualified.name"),
  name: z.string(),
  kind: z.string(),
  language: z.string(),
  path: z.string(),
  startLine: z.number().int(),
  endLine: z.number().int(),
  signature: z.string(),
  docstring: z.string(),
  raises: z.array(z.string()),
  mutates: z.array(z.string()),
  fanIn: z.number().int(),
  fanOut: z.number().int(),
});

function symbolView(s: SymbolRecord) {
  const list = (json: string) => {
    try {
      return (JSON.parse(json) as unknown[]).map(String);
    } catch {
      return [];
    }
  };
  return {
    id: s.qualifiedId,
    name: s.name,
    kind: s.kind,
    language: s.language,
    path: s.path,
    startLine: s.startLine,
    endLine: s.endLine,
    signature: s.signature,
    docstring: s.docstring,
    raises: list(s.raises),
    mutates: list(s.mutates),
    fanIn: s.fanIn,
    fanOut: s.fanOut,
  };
}

export const findSymbolTool = defineTool({
  name: "find_symbol",
  title: "Find symbol",
  description:
    "Functions, methods and classes by name, with location, signature, docstring, raises and mutations.",
  input: {
    repository,
    name: z
      .string()
      .min(1)
      .max(500)
      .describe("Qualified id (path::Class.method), Class.method or a plain name."),
    limit: z.number().int().min(1).max(50).default(10),
  },
  output: { index: indexRef, symbols: z.array(symbol) },
  async handle(input) {
    const { generationId, index } = await pin(input.repository);
    const found = await lookupSymbols(generationId, input.name, input.limit ?? 10);
    if (found.length === 0) {
      throw new WayfinderError("not_found:symbol", `No symbol named "${input.name}" in ${index.repository}.`);
    }
    return { index, symbols: found.map(symbolView) };
  },
});
