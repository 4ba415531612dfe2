/**
 * Analytical retrieval: structure first. Metrics for the scope (fan-in, fan-out,
 * cross-module coupling, cycles), the issues store's findings in scope (high severity
 * first), the dependency diagram from edges, the scope's wiki page, then the source of
 * the flagged functions and a little documentation.
 */
import "server-only";
import { countFilesUnder, symbolsByQualifiedIds } from "../../db/code-graph.ts";
import { lexicalSearch } from "../../search/hybrid.ts";
import { getFile } from "../../db/index-store.ts";
import { getWikiPage, pageChunkText } from "../../db/wiki-store.ts";
import { chunkPathOf, slugForPath } from "../../wiki/slugs.ts";
import { analyzeStructure, type StructureReport } from "../../wiki/structure.ts";
import { syntheticItem, textItem, type ContextItem } from "../context.ts";
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
  const page = await scopePage(input, scope, budget.docs);
  if (page) items.push(page);
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

/** The wiki page of the scope (a folder or file), or the overview: what it is for, in brief. */
async function scopePage(
  input: RetrievalInput,
  scope: string | null,
  docsBudget: number,
): Promise<ContextItem | null> {
  const file = scope ? await getFile(input.generationId, scope) : null;
  const page = await getWikiPage(input.generationId, slugForPath(scope ?? "", file !== null));
  if (!page) return null;
  const item = textItem(
    {
      path: chunkPathOf(page),
      startLine: 1,
      endLine: file?.lines ?? 1,
      title: `Wiki: ${page.title}`,
      text: pageChunkText(page),
      kind: "wiki",
    },
    {
      reason: "the scope's wiki page",
      score: 0.9,
      origin: "initial",
      pass: input.pass,
      maxTokens: Math.max(200, Math.min(500, docsBudget || 300)),
    },
  );
  // A file page cites its file: never past the file's last line, however long the page.
  return file ? { ...item, endLine: Math.max(1, file.lines) } : item;
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
  if (report.boundary) {
    const b = report.boundary;
    const others = (list: { module: string; edges: number }[]) =>
      list.length
        ? list
            .slice(0, 6)
            .map((d) => `${d.module} (${d.edges})`)
            .join(", ")
        : "none";
    lines.push(
      `Boundary of ${b.scope} (${b.files} files): ${b.importsIn} imports and ${b.callsIn} calls come in, ${b.importsOut} imports and ${b.callsOut} calls go out`,
    );
    lines.push(`- depended on by: ${others(b.dependents)}`);
    lines.push(`- depends on: ${others(b.dependencies)}`);
  }
  if (report.coupling.length) {
    lines.push(
      "Coupling between modules (afferent = modules depending on it, efferent = modules it depends on):",
    );
    for (const c of report.coupling.slice(0, 10))
      lines.push(
        `- ${c.module}: afferent ${c.afferent}, efferent ${c.efferent}, instability ${c.instability}, calls in ${c.callsIn}, calls out ${c.callsOut}`,
      );
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
    const counts = report.findingCounts.map((c) => `${c.count} ${c.severity} ${c.category}`).join(", ");
    lines.push(`Findings (issues store${counts ? `: ${counts}` : ""}), high severity first:`);
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
