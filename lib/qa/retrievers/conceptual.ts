/**
 * Conceptual retrieval: hybrid search over documentation — the generated wiki pages
 * first, then the repository's Markdown and docs — topped up with file summaries and
 * symbol signatures/docstrings when a codebase has little prose.
 */
import "server-only";
import type { ChunkHit } from "../../db/code-graph.ts";
import { hybridSearch } from "../../search/hybrid.ts";
import type { ContextItem } from "../context.ts";
import { attachSymbols } from "./diagnostic.ts";
import {
  chunkCandidate,
  fuseSignals,
  packCandidates,
  rankFiles,
  type RetrievalInput,
  type RetrievalOutput,
} from "./shared.ts";

export async function retrieveConceptual(input: RetrievalInput): Promise<RetrievalOutput> {
  const { generationId, config, repositoryId } = input;
  const [wiki, docs, files, code] = await Promise.all([
    hybridSearch(repositoryId, generationId, input.question, { limit: 8, kinds: ["wiki"] }),
    hybridSearch(repositoryId, generationId, input.question, { limit: 8, kinds: ["doc", "text"] }),
    hybridSearch(repositoryId, generationId, input.question, { limit: 6, kinds: ["file"] }),
    hybridSearch(repositoryId, generationId, input.question, { limit: 8, kinds: ["code"] }),
  ]);
  const ranked = fuseSignals([
    { name: "wiki", weight: 3, candidates: wiki.map((c) => chunkCandidate(c, "wiki page on the topic")) },
    {
      name: "docs",
      weight: 2.5,
      candidates: docs.map((c) => chunkCandidate(c, "documentation on the topic")),
    },
    { name: "files", weight: 1.5, candidates: files.map((c) => chunkCandidate(c, "file overview")) },
    { name: "code", weight: 1.2, candidates: code.map((c) => chunkCandidate(c, "code on the topic")) },
  ]);
  const budget = config.modeBudgets.conceptual;
  const prose = ranked.filter((r) => r.candidate.chunk?.kind !== "code");
  const items = withinPageRanges(
    await packCandidates(input, prose, Math.min(budget.docs, config.initialRetrievalBudget), {
      maxItems: 8,
      perItemTokens: 600,
    }),
    wiki,
  );
  const used = items.reduce((n, i) => n + i.tokens, 0);
  // Code as signatures and docstrings only (conceptual questions rarely need bodies), unless a source budget is set.
  const codeRanked = ranked.filter((r) => r.candidate.chunk?.kind === "code");
  await attachSymbols(
    generationId,
    codeRanked.map((r) => r.candidate),
  );
  const codeBudget =
    budget.source > 0
      ? budget.source
      : Math.max(0, Math.min(budget.docs, config.initialRetrievalBudget) - used);
  if (codeBudget > 100) {
    const asSignatures =
      budget.source > 0
        ? codeRanked
        : codeRanked.map((r) => ({ ...r, candidate: { ...r.candidate, chunk: null } }));
    const sourceOff = {
      ...input,
      config: {
        ...config,
        features: {
          ...config.features,
          useSourceFetching: budget.source > 0 && config.features.useSourceFetching,
        },
      },
    };
    items.push(
      ...(await packCandidates(sourceOff, asSignatures, codeBudget, { maxItems: 6, perItemTokens: 200 })),
    );
  }
  return {
    items,
    diagram: null,
    rankedFiles: rankFiles(ranked).slice(0, 30),
    rankedSymbols: ranked
      .flatMap((r) => (r.candidate.chunk?.symbolId ? [r.candidate.chunk.symbolId] : []))
      .slice(0, 50),
  };
}

/**
 * A wiki page's chunk cites the file it documents (lines 1 to its end); a page cut to
 * fit the budget must not claim lines past that, whatever its own length.
 */
function withinPageRanges(items: ContextItem[], pages: ChunkHit[]): ContextItem[] {
  return items.map((item) => {
    if (item.kind !== "wiki") return item;
    const page = pages.find((p) => p.path === item.path && p.startLine === item.startLine);
    return page && item.endLine > page.endLine ? { ...item, endLine: page.endLine } : item;
  });
}
