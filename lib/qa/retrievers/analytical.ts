/**
 * Analytical retrieval: structure first. The scope is resolved against the index (the
 * classifier's, a path written in the question, a folder or dotted module it names) and
 * kept strictly: metrics (fan-in, fan-out, the most imported files, cross-module
 * coupling, cycles), the issues store's findings (high severity first), the dependency
 * diagram from edges, the scope's wiki page, the source of the flagged functions, and
 * every ranked file lie inside it. Documentation is added only for the whole repository.
 */
import "server-only";
import {
  countFilesUnder,
  filesStartingWith,
  pathsWithSegment,
  symbolsByQualifiedIds,
} from "../../db/code-graph.ts";
import { lexicalSearch } from "../../search/hybrid.ts";
import { getFile } from "../../db/index-store.ts";
import { getWikiPage, pageChunkText } from "../../db/wiki-store.ts";
import { chunkPathOf, slugForPath } from "../../wiki/slugs.ts";
import { analyzeStructure, inScope, type StructureReport } from "../../wiki/structure.ts";
import { syntheticItem, textItem } from "../context.ts";
import { questionTopics } from "../concepts.ts";
import { type ContextItem } from "../../answerers/contract.ts";
import {
  chunkCandidate,
  demoteAuxiliary,
  docsItems,
  fuseFiles,
  fuseSignals,
  packCandidates,
  retrievalTopics,
  symbolCandidate,
  type RetrievalInput,
  type RetrievalOutput,
  type SignalList,
} from "./shared.ts";

export async function retrieveAnalytical(input: RetrievalInput): Promise<RetrievalOutput> {
  const { generationId, config } = input;
  const scope = await resolveScope(generationId, input.question, input.scope);
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
  // What the question asks for leads: dependents (fan-in), dependencies (fan-out), or problems.
  const asksFanIn = FAN_IN.test(input.question);
  const asksFanOut = FAN_OUT.test(input.question);
  const lists: SignalList[] = [
    {
      name: "flagged",
      weight: asksFanIn || asksFanOut ? 1.5 : 3,
      candidates: flagged.map((s) => symbolCandidate(s, findingReason(report, s.qualifiedId))),
    },
    {
      name: "fan-in",
      weight: asksFanIn ? 3 : 1.5,
      candidates: report.topFanIn
        .slice(0, 5)
        .map((s) => symbolCandidate(s, `fan-in ${s.fanIn}, fan-out ${s.fanOut}`)),
    },
    {
      name: "fan-out",
      weight: asksFanOut ? 3 : 1,
      candidates: report.topFanOut
        .slice(0, 5)
        .map((s) => symbolCandidate(s, `fan-in ${s.fanIn}, fan-out ${s.fanOut}`)),
    },
    {
      name: "bm25",
      weight: 1,
      candidates: lexical.map((c) => chunkCandidate(c, "matches the question's terms")),
    },
  ];
  // Tests and docs are part of a structure; vendored, generated and minified code is not
  // (as stored), unless the question asks about it.
  const topics = await retrievalTopics(input, {
    tests: true,
    docs: true,
    thirdParty: questionTopics(input.question).thirdParty,
  });
  const ranked = demoteAuxiliary(fuseSignals(lists), [], topics).filter((r) =>
    inScope(r.candidate.symbol?.path ?? r.candidate.chunk?.path ?? null, scope),
  );
  // Files: the most imported ones count as much as the symbols' own evidence.
  const fileLists: SignalList[] = [
    ...lists,
    {
      name: "imported",
      weight: asksFanOut ? 1.5 : 3,
      candidates: report.topImported.map((f) => ({
        key: f.path,
        symbol: null,
        chunk: {
          id: 0,
          path: f.path,
          kind: "file",
          symbolId: null,
          title: f.path,
          startLine: 1,
          endLine: 1,
          text: "",
          score: f.importers,
        },
        reason: `imported by ${f.importers} files`,
      })),
    },
  ];
  const rankedFiles = fuseFiles(fileLists, [], 30, topics).filter((f) => inScope(f, scope));
  items.push(
    ...(await packCandidates(input, ranked, Math.min(budget.source, config.initialRetrievalBudget), {
      maxItems: 8,
      perItemTokens: 350,
    })),
  );
  // Documentation only for the whole repository: a scoped answer keeps to its scope.
  if (!scope) {
    items.push(
      ...(await docsItems(input, `${input.question} architecture design`, {
        budget: budget.docs,
        used: items.reduce((n, i) => n + i.tokens, 0),
        limit: 2,
        reason: "architecture documentation",
      })),
    );
  }
  return {
    items,
    diagram: report.diagram,
    rankedFiles,
    rankedSymbols: ranked
      .flatMap((r) => (r.candidate.symbol ? [r.candidate.symbol.qualifiedId] : []))
      .slice(0, 50),
  };
}

const FAN_IN =
  /\bfan[- ]?in\b|\bdepended on\b|\bdepend(?:s|ed)? on (?:it|them)\b|\b(?:most|highly|heavily|widely) (?:used|imported|called|depended)\b|\bhubs?\b|\bcentral\b|\bcore (?:modules?|pieces?)\b|\bwhat depends on\b/i;
const FAN_OUT = /\bfan[- ]?out\b|\bdepends on the most\b|\b(?:calls|imports) the most\b/i;

/**
 * The part of the repository a question is about, checked against the index: the
 * classifier's scope when files live under it, else a path written in the question
 * (`xarray/plot`, `src/_pytest/config`), else a folder the question names ("the
 * backends package"). Null means the whole repository.
 */
export async function resolveScope(
  generationId: string,
  question: string,
  classified: string | null,
): Promise<string | null> {
  const fromClassifier = await pathScope(generationId, classified);
  if (fromClassifier) return fromClassifier;
  const tokens = question
    .split(/[\s"'`()<>[\]{},;|]+/)
    .map((t) =>
      t
        .replace(/^\.?\//, "")
        .replace(/[.:!?]+$/, "")
        .replace(/\/+$/, ""),
    )
    .filter((t) => t.length > 1 && !t.includes("://"));
  for (const token of tokens.filter((t) => t.includes("/"))) {
    const found = await pathScope(generationId, token);
    if (found) return found;
  }
  const named = [
    ...question.matchAll(
      /\b([\w.-]+)\s+(?:package|module|folder|directory|subpackage|layer|component)s?\b/gi,
    ),
  ]
    .map((m) => m[1] ?? "")
    // Dotted module paths (`xarray.core`, `_pytest.config`) name folders too.
    .concat(
      tokens
        .filter((t) => /^[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+$/.test(t))
        .map((t) => t.replace(/\./g, "/")),
    );
  for (const name of [...new Set(named)]) {
    if (STOP_SCOPES.has(name.toLowerCase())) continue;
    const folder = await folderNamed(generationId, name);
    if (folder) return folder;
  }
  // "in svc", "under backends": a word after a preposition that is exactly a path of the repository.
  for (const m of question.matchAll(/\b(?:in|of|under|inside|within)\s+([\w.-]+)/gi)) {
    const word = m[1] ?? "";
    if (word.length < 2 || STOP_SCOPES.has(word.toLowerCase())) continue;
    const exact = await pathScope(generationId, word);
    if (exact) return exact;
  }
  return null;
}

const STOP_SCOPES = new Set(
  "the a an this that which what our my its each every whole entire main core code module modules package packages folder parts part most more and or of in is are".split(
    " ",
  ),
);

/** A file or a folder of the repository called `name` (a file name, or a folder's last segment); the shallowest wins. */
async function folderNamed(generationId: string, name: string): Promise<string | null> {
  const exact = await pathScope(generationId, name);
  if (exact) return exact;
  if (name.includes("/")) return null;
  const paths = await pathsWithSegment(generationId, name, 50);
  const folders = paths
    .map((p) => {
      const segments = p.split("/");
      const at = segments.indexOf(name);
      return at >= 0 && at < segments.length - 1 ? segments.slice(0, at + 1).join("/") : null;
    })
    .filter((f): f is string => f !== null)
    .sort((a, b) => a.split("/").length - b.split("/").length || a.length - b.length);
  return folders[0] ?? null;
}

/** A scope is used as a path filter only when files live under it. */
export async function pathScope(generationId: string, scope: string | null): Promise<string | null> {
  if (!scope) return null;
  const cleaned = scope.replace(/^\.?\//, "").replace(/\/+$/, "");
  if (!cleaned) return null;
  if (await getFile(generationId, cleaned)) return cleaned;
  if ((await countFilesUnder(generationId, `${cleaned}/`)) > 0) return cleaned;
  // A module named without its extension (`app/handlers` for `app/handlers.py`).
  const files = await filesStartingWith(generationId, `${cleaned}.`, 5);
  return files.find((f) => f.replace(/\.\w+$/, "") === cleaned) ?? null;
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
  lines.push(`Scope: ${report.scope ?? "the whole repository"}`);
  if (report.topImported.length)
    lines.push(
      "Most imported files: " +
        report.topImported
          .slice(0, 6)
          .map((f) => `${f.path} (${f.importers} importers) [${f.path}:1-${f.lines}]`)
          .join(", "),
    );
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
