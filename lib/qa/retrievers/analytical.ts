/**
 * Analytical retrieval: structure first. Metrics and findings for the scope (fan-in,
 * fan-out, cycles, long functions), the module dependency diagram from edges, then
 * the source of the flagged functions and a little documentation.
 */
import "server-only";
import { countFilesUnder, symbolsByQualifiedIds } from "../../db/code-graph.ts";
import { lexicalSearch } from "../../search/hybrid.ts";
import { analyzeStructure, type StructureReport } from "../../wiki/structure.ts";
import { syntheticItem } from "../context.ts";
import {
  chunkCandidate,
  docsItems,
  fuseSignals,
  packCandidates,
  rankFiles,
  symbolCandidate,
  type RetrievalInput,
  type RetrievalOutput,
} from "./shared.ts";

export async function retrieveAnalytical(input: RetrievalInput): Promise<RetrievalOutput> {
  const { generationId, config } = input;
  const scope = await pathScope(generationId, input.scope);
  const report = await analyzeStructure(generationId, scope);
  const budget = config.modeBudgets.analytical;
  const items = [
    syntheticItem(
      `structure:${scope ?? "."}`,
      "structure",
      `Structure of ${scope ?? "the repository"}`,
      renderReport(report),
      {
        reason: "structure metrics and findings computed from the code index",
        score: 1,
        pass: input.pass,
        maxTokens: Math.max(300, budget.issues),
      },
    ),
  ];
  const flaggedIds = report.findings.flatMap((f) => (f.symbolId ? [f.symbolId] : []));
  const flagged = await symbolsByQualifiedIds(generationId, flaggedIds);
  const order = new Map(flaggedIds.map((id, i) => [id, i]));
  flagged.sort((a, b) => (order.get(a.qualifiedId) ?? 0) - (order.get(b.qualifiedId) ?? 0));
  const lexical = await lexicalSearch(generationId, input.question, {
    limit: 10,
    kinds: ["code"],
    pathPrefix: scope ?? undefined,
  });
  const ranked = fuseSignals([
    {
      name: "flagged",
      weight: 3,
      candidates: flagged.map((s) => symbolCandidate(s, findingReason(report, s.qualifiedId))),
    },
    {
      name: "hubs",
      weight: 1.5,
      candidates: [...report.topFanIn.slice(0, 4), ...report.topFanOut.slice(0, 4)].map((s) =>
        symbolCandidate(s, `fan-in ${s.fanIn}, fan-out ${s.fanOut}`),
      ),
    },
    {
      name: "bm25",
      weight: 1,
      candidates: lexical.map((c) => chunkCandidate(c, "matches the question's terms")),
    },
  ]);
  items.push(
    ...(await packCandidates(input, ranked, Math.min(budget.source, config.initialRetrievalBudget), {
      maxItems: 8,
      perItemTokens: 350,
    })),
  );
  items.push(
    ...(await docsItems(input, `${input.question} architecture design`, {
      budget: budget.docs,
      used: items.reduce((n, i) => n + i.tokens, 0),
      limit: 2,
      reason: "architecture documentation",
    })),
  );
  return {
    items,
    diagram: report.diagram,
    rankedFiles: rankFiles(ranked).slice(0, 30),
    rankedSymbols: ranked
      .flatMap((r) => (r.candidate.symbol ? [r.candidate.symbol.qualifiedId] : []))
      .slice(0, 50),
  };
}

/** A scope is used as a path filter only when files live under it. */
export async function pathScope(generationId: string, scope: string | null): Promise<string | null> {
  if (!scope) return null;
  const cleaned = scope.replace(/^\.?\//, "").replace(/\/+$/, "");
  if (!cleaned) return null;
  return (await countFilesUnder(generationId, cleaned)) > 0 ? cleaned : null;
}

function findingReason(report: StructureReport, symbolId: string): string {
  return report.findings.find((f) => f.symbolId === symbolId)?.title ?? "flagged by structure analysis";
}

export function renderReport(report: StructureReport): string {
  const lines: string[] = [];
  lines.push(`Modules (${report.modules.length}):`);
  for (const m of report.modules.slice(0, 12))
    lines.push(`- ${m.name}: ${m.files} files, imported by ${m.fanIn} modules, imports ${m.fanOut}`);
  if (report.moduleEdges.length) {
    lines.push("Module dependencies (count of file imports):");
    for (const e of report.moduleEdges.slice(0, 15)) lines.push(`- ${e.from} → ${e.to} (${e.count})`);
  }
  lines.push(
    report.cycles.length
      ? `Cycles: ${report.cycles.map((c) => c.join(" ↔ ")).join("; ")}`
      : "Cycles: none found",
  );
  lines.push(
    "Highest fan-out: " +
      report.topFanOut
        .slice(0, 5)
        .map((s) => `${s.qualifiedName} (${s.fanOut}) [${s.path}:${s.startLine}-${s.endLine}]`)
        .join(", "),
  );
  lines.push(
    "Highest fan-in: " +
      report.topFanIn
        .slice(0, 5)
        .map((s) => `${s.qualifiedName} (${s.fanIn}) [${s.path}:${s.startLine}-${s.endLine}]`)
        .join(", "),
  );
  if (report.findings.length) {
    lines.push("Findings:");
    for (const f of report.findings.slice(0, 12)) {
      lines.push(
        `- [${f.severity}] ${f.category}: ${f.title}${f.path ? ` [${f.path}${f.startLine ? `:${f.startLine}-${f.endLine}` : ""}]` : ""}`,
      );
    }
  } else {
    lines.push("Findings: none above the thresholds");
  }
  return lines.join("\n");
}
