/** search: lexical (BM25) or hybrid search over the serving generation, optionally under a folder. */
import "server-only";
import { z } from "zod";
import { hybridSearch, lexicalSearch } from "../../search/hybrid.ts";
import { cleanScope, inScope } from "../lookups.ts";
import { pin } from "../pin.ts";
import { indexRef, repository } from "../schemas.ts";
import { defineTool } from "../tool.ts";

export const searchTool = defineTool({
  name: "search",
  title: "Search",
  description:
    "Lexical (BM25) or hybrid (BM25 + vectors) search over code, docs and wiki, optionally under a folder.",
  input: {
    repository,
    query: z.string().min(1).max(2000),
    mode: z.enum(["lexical", "hybrid"]).default("hybrid"),
    scope: z
      .string()
      .max(1000)
      .optional()
      .describe("Only results under this folder or file (repository-relative)."),
    kinds: z
      .array(z.enum(["code", "doc", "text", "wiki"]))
      .max(4)
      .optional()
      .describe("Chunk kinds to include."),
    limit: z.number().int().min(1).max(50).default(10),
  },
  output: {
    index: indexRef,
    results: z.array(
      z.object({
        path: z.string(),
        startLine: z.number().int(),
        endLine: z.number().int(),
        kind: z.string(),
        title: z.string(),
        symbol: z.string().nullable(),
        score: z.number(),
        preview: z.string(),
      }),
    ),
  },
  async handle(input) {
    const { repository: repo, generationId, index } = await pin(input.repository);
    const scope = cleanScope(input.scope);
    const limit = input.limit ?? 10;
    const options = { limit: scope ? limit * 4 : limit, kinds: input.kinds, pathPrefix: scope ?? undefined };
    const hits =
      input.mode === "lexical"
        ? await lexicalSearch(generationId, input.query, options)
        : await hybridSearch(repo.id, generationId, input.query, options);
    return {
      index,
      results: hits
        .filter((h) => inScope(h.path, scope))
        .slice(0, limit)
        .map((h) => ({
          path: h.path,
          startLine: h.startLine,
          endLine: h.endLine,
          kind: h.kind,
          title: h.title,
          symbol: h.symbolId,
          score: Math.round(h.score * 10_000) / 10_000,
          preview: h.text.split("\n").slice(0, 6).join("\n").slice(0, 400),
        })),
    };
  },
});
