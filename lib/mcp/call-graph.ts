/**
 * The walk behind `callers` and `callees`: from the symbols a name finds, follow the
 * resolved call graph of the serving generation up or down, hop by hop, and return the
 * edges met and the symbols at their ends. Both tools share its schemas.
 */
import "server-only";
import { z } from "zod";
import { calleesOf, callersOf, symbolsByQualifiedIds, type EdgeRecord } from "../db/code-graph.ts";
import { WayfinderError } from "../errors.ts";
import { lookupSymbols } from "./lookups.ts";
import { pin } from "./pin.ts";
import { indexRef, repository } from "./schemas.ts";

export const callGraphInput = {
  repository,
  symbol: z
    .string()
    .min(1)
    .max(500)
    .describe("Qualified id (path::Class.method), Class.method or a plain name."),
  depth: z.number().int().min(1).max(4).default(1).describe("Hops to follow (1-4)."),
  limit: z.number().int().min(1).max(100).default(25).describe("Edges per symbol and hop."),
};

export const callGraphOutput = {
  index: indexRef,
  direction: z.enum(["callers", "callees"]),
  roots: z.array(z.string()),
  depth: z.number().int(),
  edges: z.array(
    z.object({
      from: z.string(),
      to: z.string().nullable().describe("null: an unresolved call (raw keeps the name)"),
      raw: z.string(),
      depth: z.number().int(),
      path: z.string().describe("file of the call site"),
      line: z.number().int().describe("line of the call site"),
      confidence: z.number(),
    }),
  ),
  nodes: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      path: z.string(),
      startLine: z.number().int(),
      endLine: z.number().int(),
    }),
  ),
  truncated: z.boolean(),
};

/** Edges visited per call: deep walks through hubs stop here and say so. */
const MAX_EDGES = 300;

interface WalkedEdge {
  from: string;
  to: string | null;
  raw: string;
  depth: number;
  path: string;
  line: number;
  confidence: number;
}

export async function walkCallGraph(
  direction: "callers" | "callees",
  input: { repository: string; symbol: string; depth?: number; limit?: number },
) {
  const { generationId, index } = await pin(input.repository);
  const roots = await lookupSymbols(generationId, input.symbol, 5);
  if (roots.length === 0) {
    throw new WayfinderError("not_found:symbol", `No symbol named "${input.symbol}" in ${index.repository}.`);
  }
  const depth = input.depth ?? 1;
  const perSymbol = input.limit ?? 25;
  const edges: WalkedEdge[] = [];
  const seen = new Set(roots.map((r) => r.qualifiedId));
  let frontier = roots.map((r) => r.qualifiedId);
  let truncated = false;
  for (let level = 1; level <= depth && frontier.length && !truncated; level++) {
    const next: string[] = [];
    for (const id of frontier) {
      const found: EdgeRecord[] =
        direction === "callers"
          ? await callersOf(generationId, id, perSymbol)
          : await calleesOf(generationId, id, perSymbol);
      for (const e of found) {
        if (edges.length >= MAX_EDGES) {
          truncated = true;
          break;
        }
        edges.push({
          from: e.srcId,
          to: e.dstId,
          raw: e.raw,
          depth: level,
          path: e.srcPath,
          line: e.line,
          confidence: e.confidence,
        });
        const other = direction === "callers" ? e.srcId : e.dstId;
        if (other && !seen.has(other)) {
          seen.add(other);
          next.push(other);
        }
      }
      if (truncated) break;
    }
    frontier = next;
  }
  const nodes = await symbolsByQualifiedIds(generationId, [...seen]);
  return {
    index,
    direction,
    roots: roots.map((r) => r.qualifiedId),
    depth,
    edges,
    nodes: nodes.map((n) => ({
      id: n.qualifiedId,
      kind: n.kind,
      path: n.path,
      startLine: n.startLine,
      endLine: n.endLine,
    })),
    truncated,
  };
}
