/** findings: the issues store's structural findings for the serving generation, worst first. */
import "server-only";
import { z } from "zod";
import { findingCounts, listFindings } from "../../db/wiki-store.ts";
import { cleanScope } from "../lookups.ts";
import { pin } from "../pin.ts";
import { indexRef, repository } from "../schemas.ts";
import { defineTool } from "../tool.ts";

export const findingsTool = defineTool({
  name: "findings",
  title: "Findings",
  description:
    "Structural findings of the issues store (cycles, swallowed errors, hubs, TODOs …), worst first.",
  input: {
    repository,
    category: z.string().max(100).optional(),
    severity: z.enum(["high", "medium", "low"]).optional(),
    scope: z.string().max(1000).optional().describe("Only findings under this folder or file."),
    limit: z.number().int().min(1).max(200).default(50),
  },
  output: {
    index: indexRef,
    findings: z.array(
      z.object({
        category: z.string(),
        severity: z.string(),
        title: z.string(),
        detail: z.string(),
        path: z.string().nullable(),
        startLine: z.number().int().nullable(),
        endLine: z.number().int().nullable(),
        symbol: z.string().nullable(),
      }),
    ),
    counts: z.array(z.object({ category: z.string(), severity: z.string(), count: z.number().int() })),
  },
  async handle(input) {
    const { generationId, index } = await pin(input.repository);
    const scope = cleanScope(input.scope);
    const [findings, counts] = await Promise.all([
      listFindings(generationId, {
        category: input.category,
        severity: input.severity,
        scope,
        limit: input.limit ?? 50,
      }),
      findingCounts(generationId, scope),
    ]);
    return {
      index,
      findings: findings.map((f) => ({
        category: f.category,
        severity: f.severity,
        title: f.title,
        detail: f.detail,
        path: f.path ?? null,
        startLine: f.startLine ?? null,
        endLine: f.endLine ?? null,
        symbol: f.symbolId ?? null,
      })),
      counts,
    };
  },
});
