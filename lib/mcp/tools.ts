/**
 * What the MCP tools do, as plain functions over the index: every repository-scoped
 * call pins the repository's serving generation first and reads only its rows (file
 * text comes from the indexed blobs, never the disk), and says which generation and
 * commit it answered from. `ask` runs the same question orchestrator as /api/qa and
 * the CLI (lib/qa/ask.ts) and returns its evidence as structured data.
 */
import "server-only";
import { loadEngineSettings } from "../admin/settings.ts";
import {
  calleesOf,
  callersOf,
  symbolsOfQualifiedId,
  symbolsByName,
  symbolsByQualifiedIds,
  symbolsByQualifiedName,
  type EdgeRecord,
  type SymbolRecord,
} from "../db/code-graph.ts";
import {
  getFile,
  getFileContent,
  getGeneration,
  listRepositories,
  requireRepository,
  type RepositoryRow,
} from "../db/index-store.ts";
import { getSource } from "../db/source-store.ts";
import { getRepositoryView } from "../db/ui-queries.ts";
import { findingCounts, getWikiPage, listFindings, listWikiPages } from "../db/wiki-store.ts";
import { env } from "../env.ts";
import { WayfinderError } from "../errors.ts";
import { isSafeRelativePath } from "../paths.ts";
import { askQuestion, prepareResume, type MessageChunk, type PartWriter } from "../qa/ask.ts";
import { claimsOf, type Claim } from "../qa/claims.ts";
import type { ConversationAccess } from "../qa/conversations.ts";
import { effectiveConfig } from "../qa/config.ts";
import { gapReportsOf } from "../qa/loop.ts";
import { isLookupOnly } from "../qa/passes.ts";
import type { GapAnswer } from "../qa/gap-answers.ts";
import type { CitationPart, Quality, QueryMode } from "../qa/types.ts";
import { hybridSearch, lexicalSearch } from "../search/hybrid.ts";
import { readerGitMessage } from "../sources/git-errors.ts";
import { dirSlug, fileSlug } from "../wiki/slugs.ts";

/** Which index a result comes from: the generation and, when known, its commit. */
export interface IndexRef {
  repositoryId: string;
  repository: string;
  generation: number;
  commit: string | null;
}

interface Pinned {
  repository: RepositoryRow;
  generationId: string;
  index: IndexRef;
}

/** The repository (id, name or path) and the generation it serves; refused when it has none yet. */
async function pin(ref: string): Promise<Pinned> {
  const repository = await requireRepository(ref);
  const generationId = repository.activeGenerationId;
  const generation = generationId ? await getGeneration(generationId) : null;
  if (!generationId || !generation) {
    throw new WayfinderError(
      "conflict:not_indexed",
      `Repository "${repository.name}" has no finished index yet.`,
    );
  }
  return {
    repository,
    generationId,
    index: {
      repositoryId: repository.id,
      repository: repository.name,
      generation: generation.number,
      commit: generation.commitSha ?? null,
    },
  };
}

// ------------------------------------------------------------------ repositories

export async function listRepositoriesTool() {
  const rows = await listRepositories();
  const repositories = await Promise.all(
    rows.map(async (r) => {
      const view = await getRepositoryView(r.id);
      const active = r.activeGenerationId ? await getGeneration(r.activeGenerationId) : null;
      return {
        id: r.id,
        name: r.name,
        source: sourceOf(r),
        status: view?.status ?? "not-indexed",
        generation: active?.number ?? null,
        commit: active?.commitSha ?? null,
        indexedAt: active?.finishedAt?.toISOString() ?? null,
        files: view?.active?.stats.files ?? 0,
        symbols: view?.active?.stats.symbols ?? 0,
      };
    }),
  );
  return { repositories };
}

function sourceOf(r: RepositoryRow) {
  return r.sourceKind === "git"
    ? { kind: "git" as const, url: r.gitUrl ?? null, branch: r.gitBranch ?? null }
    : { kind: "folder" as const, url: null, branch: null };
}

export async function indexStatusTool(input: { repository: string }, options: { gitReasons?: boolean } = {}) {
  // git's own reason for an unreachable remote only for those who may see it (git-errors.ts).
  const reason = (message: string | null) =>
    options.gitReasons === false ? readerGitMessage(message) : message;
  const repository = await requireRepository(input.repository);
  const [view, source] = await Promise.all([getRepositoryView(repository.id), getSource(repository.id)]);
  if (!view || !source)
    throw new WayfinderError("not_found:repository", `No indexed repository "${input.repository}".`);
  const active = repository.activeGenerationId ? await getGeneration(repository.activeGenerationId) : null;
  const latest = view.build ? await getGeneration(view.build.generationId) : null;
  return {
    repositoryId: repository.id,
    repository: repository.name,
    status: view.status,
    source: {
      ...sourceOf(repository),
      pollMinutes: source.pollMinutes,
      lastPolledAt: source.lastPolledAt?.toISOString() ?? null,
      pollError: reason(source.pollError),
      remoteHead: source.remoteHeadSha,
    },
    active: active
      ? {
          generation: active.number,
          commit: active.commitSha ?? null,
          finishedAt: active.finishedAt?.toISOString() ?? null,
          files: view.active?.stats.files ?? 0,
          symbols: view.active?.stats.symbols ?? 0,
          edges: view.active?.stats.edges ?? 0,
        }
      : null,
    build: view.build
      ? {
          generation: view.build.number,
          status: view.build.status,
          phase: view.build.phase,
          filesDone: view.build.filesDone,
          filesTotal: view.build.filesTotal,
          error: reason(view.build.error),
          commit: latest?.commitSha ?? null,
        }
      : null,
  };
}

// ------------------------------------------------------------------------ search

/** A folder or file the caller wants results under, as a clean repository-relative path. */
function cleanScope(scope: string | undefined): string | null {
  if (!scope) return null;
  const clean = scope
    .trim()
    .replace(/^(\.\/)+/, "")
    .replace(/\/+$/, "");
  if (!clean || clean === ".") return null;
  if (!isSafeRelativePath(clean))
    throw new WayfinderError("bad_request:scope", `Not a path inside the repository: ${scope}`);
  return clean;
}

const inScope = (path: string, scope: string | null) =>
  !scope || path === scope || path.startsWith(`${scope}/`);

export async function searchTool(input: {
  repository: string;
  query: string;
  mode?: "lexical" | "hybrid";
  scope?: string;
  kinds?: ("code" | "doc" | "text" | "wiki")[];
  limit?: number;
}) {
  const { repository, generationId, index } = await pin(input.repository);
  const scope = cleanScope(input.scope);
  const limit = input.limit ?? 10;
  const options = { limit: scope ? limit * 4 : limit, kinds: input.kinds, pathPrefix: scope ?? undefined };
  const hits =
    input.mode === "lexical"
      ? await lexicalSearch(generationId, input.query, options)
      : await hybridSearch(repository.id, generationId, input.query, options);
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
}

// ----------------------------------------------------------------------- symbols

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

/** Symbols by qualified id (`path::Class.method`), qualified name (`Class.method`) or plain name. */
async function lookupSymbols(generationId: string, name: string, limit: number): Promise<SymbolRecord[]> {
  const ref = name.trim();
  if (ref.includes("::")) return (await symbolsOfQualifiedId(generationId, ref)).slice(0, limit);
  if (ref.includes(".")) {
    const qualified = await symbolsByQualifiedName(generationId, ref, limit);
    if (qualified.length) return qualified;
  }
  return symbolsByName(generationId, ref.split(".").pop() ?? ref, limit);
}

export async function findSymbolTool(input: { repository: string; name: string; limit?: number }) {
  const { generationId, index } = await pin(input.repository);
  const found = await lookupSymbols(generationId, input.name, input.limit ?? 10);
  if (found.length === 0) {
    throw new WayfinderError("not_found:symbol", `No symbol named "${input.name}" in ${index.repository}.`);
  }
  return { index, symbols: found.map(symbolView) };
}

/** Edges visited per call: deep walks through hubs stop here and say so. */
const MAX_EDGES = 300;

export async function callGraphTool(
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
  const edges: {
    from: string;
    to: string | null;
    raw: string;
    depth: number;
    path: string;
    line: number;
    confidence: number;
  }[] = [];
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

// -------------------------------------------------------------------------- read

export const MAX_SPAN_LINES = 400;

export async function readSpanTool(input: {
  repository: string;
  path: string;
  startLine?: number;
  endLine?: number;
}) {
  const { generationId, index } = await pin(input.repository);
  const filePath = input.path.trim().replace(/^(\.\/)+/, "");
  if (!isSafeRelativePath(filePath)) {
    throw new WayfinderError("bad_request:path", `Not a path inside the repository: ${input.path}`);
  }
  const [file, text] = await Promise.all([
    getFile(generationId, filePath),
    getFileContent(generationId, filePath),
  ]);
  if (!file || text === null) {
    throw new WayfinderError(
      "not_found:file",
      `${filePath} is not in the index of ${index.repository} (generation ${index.generation}).`,
    );
  }
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  const start = input.startLine ?? 1;
  const end = Math.min(input.endLine ?? start + MAX_SPAN_LINES - 1, lines.length);
  if (start > Math.max(lines.length, 1)) {
    throw new WayfinderError(
      "bad_request:lines",
      `${filePath} has ${lines.length} lines; line ${start} does not exist.`,
    );
  }
  if (end < start) throw new WayfinderError("bad_request:lines", "endLine must not be before startLine.");
  if (end - start + 1 > MAX_SPAN_LINES) {
    throw new WayfinderError(
      "bad_request:lines",
      `At most ${MAX_SPAN_LINES} lines per call; ask for a smaller span.`,
    );
  }
  return {
    index,
    path: filePath,
    language: file.language,
    startLine: start,
    endLine: end,
    totalLines: lines.length,
    text: lines.slice(start - 1, end).join("\n"),
  };
}

// -------------------------------------------------------------------- wiki, issues

export async function wikiPageTool(input: { repository: string; page?: string }) {
  const { generationId, index } = await pin(input.repository);
  const ref = (input.page ?? "")
    .trim()
    .replace(/^(\.\/)+/, "")
    .replace(/\/+$/, "");
  // A slug ("file/a.py", "dir/src", "" for the overview) or simply the path a page documents.
  const candidates = ref === "" || /^(file|dir)\//.test(ref) ? [ref] : [fileSlug(ref), dirSlug(ref)];
  for (const slug of candidates) {
    const page = await getWikiPage(generationId, slug);
    if (!page) continue;
    const pages =
      slug === "" ? (await listWikiPages(generationId)).map((p) => ({ slug: p.slug, title: p.title })) : [];
    return {
      index,
      slug: page.slug,
      kind: page.kind,
      title: page.title,
      sourcePath: page.sourcePath,
      summary: page.summary,
      markdown: page.content,
      diagram: page.diagram?.mermaid ?? null,
      modelWritten: page.modelWritten,
      pages: pages.slice(0, 500),
    };
  }
  throw new WayfinderError("not_found:wiki_page", `No wiki page for "${input.page}" in ${index.repository}.`);
}

export async function findingsTool(input: {
  repository: string;
  category?: string;
  severity?: "high" | "medium" | "low";
  scope?: string;
  limit?: number;
}) {
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
}

// --------------------------------------------------------------------------- ask

export interface AskProgress {
  /** passes done so far, with a fraction for the phase of the current one: it only grows */
  progress: number;
  maxPasses: number;
  message: string;
}

/** How far into its pass each phase is (MCP progress must increase with every notification). */
const PHASE_FRACTION = { retrieving: 0.25, answering: 0.5, done: 1 } as const;

/** Turns the orchestrator's pass parts into one progress report per pass phase. */
class ProgressWriter implements PartWriter {
  constructor(
    private readonly maxPasses: number,
    private readonly onProgress: (p: AskProgress) => void,
  ) {}

  write(part: MessageChunk): void {
    if (part.type !== "data-pass") return;
    const p = part.data;
    const gaps =
      p.phase === "done" && p.gapsIdentified.length ? ` — gaps: ${p.gapsIdentified.join("; ")}` : "";
    // A pass is a round that answers (lib/qa/passes.ts), as the chat and the answer's
    // metadata count them: looking gaps up belongs to the end of the pass before, and a
    // lookup that found nothing new ends there, half-way to a pass that never came.
    const lookupOnly = isLookupOnly(p);
    const message = lookupOnly
      ? `after pass ${p.pass - 1}: looked up the missing context, found nothing new (stop: ${p.stopReason})`
      : p.phase === "retrieving"
        ? p.pass === 1 || p.source === "user"
          ? `pass ${p.pass}: ${p.label}`
          : `after pass ${p.pass - 1}: ${p.label}`
        : p.phase === "answering"
          ? `pass ${p.pass}: answering with ${p.added.length} new context items (${p.contextTokens} tokens)`
          : `pass ${p.pass} done${gaps}${p.stopReason ? ` (stop: ${p.stopReason})` : ""}`;
    const fraction = lookupOnly ? 0.5 : PHASE_FRACTION[p.phase];
    this.onProgress({ progress: p.pass - 1 + fraction, maxPasses: this.maxPasses, message });
  }
}

export async function askTool(
  input: {
    repository: string;
    question?: string;
    mode?: QueryMode;
    quality?: Quality;
    maxPasses?: number;
    sessionId?: string;
    gapAnswers?: GapAnswer[];
  },
  options: {
    signal?: AbortSignal;
    onProgress?: (p: AskProgress) => void;
    /** whose conversations `sessionId` may continue (HTTP: the caller's) */
    conversations?: ConversationAccess;
  } = {},
) {
  const { index } = await pin(input.repository);
  const engine = await loadEngineSettings();
  const overrides = { mode: input.mode, quality: input.quality, maxPasses: input.maxPasses };
  // Continuing an answer: it keeps the options it was asked with, and each pass answered
  // from what a user provided adds one to the limit, as the answer's metadata counts it
  // (checked here, before any progress is sent).
  const resumed = input.gapAnswers
    ? await prepareResume(
        {
          repository: index.repositoryId,
          sessionId: input.sessionId,
          gapAnswers: input.gapAnswers,
          conversations: options.conversations,
        },
        { settings: engine.settings },
      )
    : null;
  const userPasses = resumed
    ? resumed.resume.priorPasses.filter((p) => p.source === "user" && p.pass < resumed.resume.pass).length + 1
    : 0;
  const { maxPasses } = effectiveConfig({
    envOverrides: env().cgragOverrides,
    settings: engine.settings,
    overrides: resumed?.overrides ?? overrides,
  });
  const writer = new ProgressWriter(maxPasses + userPasses, (p) => options.onProgress?.(p));
  const result = await askQuestion(
    {
      repository: index.repositoryId,
      question: input.question ?? "",
      sessionId: input.sessionId,
      overrides,
      signal: options.signal,
      conversations: options.conversations,
      gapAnswers: input.gapAnswers,
    },
    writer,
    { settings: engine.settings, model: engine.model },
  );
  const m = result.metadata;
  // The generation the answer was pinned to (a re-index may have flipped since `pin`).
  const generation = await getGeneration(m.generationId);
  // Each gap's latest report: one the user filled after the loop could not is resolved.
  const reports = [...new Map(gapReportsOf(result.loop.passes).map((g) => [g.gap, g])).values()];
  const claims: Claim[] = claimsOf(result.loop.answer, result.citations);
  const citation = (c: CitationPart) => ({
    path: c.path,
    startLine: c.startLine,
    endLine: c.endLine,
    verified: c.verified,
    symbol: c.symbol,
    reason: c.reason,
    snippet: c.snippet,
  });
  return {
    index: {
      ...index,
      generation: generation?.number ?? index.generation,
      commit: generation?.commitSha ?? index.commit,
    },
    answer: result.loop.answer,
    claims: claims.map((c) => ({ text: c.text, verified: c.verified, citations: c.citations.map(citation) })),
    citations: result.citations.map(citation),
    gaps: {
      identified: m.gapsIdentified,
      resolved: reports
        .filter((g) => g.status === "resolved")
        .map((g) => ({ gap: g.gap, via: g.via, found: g.found, note: g.note })),
      unresolved: reports
        .filter((g) => g.status !== "resolved")
        .map((g) => ({ gap: g.gap, searched: g.searched, note: g.note })),
    },
    mode: m.mode,
    scope: result.classification.scope,
    passes: { used: m.passesUsed, max: m.maxPasses, stopReason: m.stopReason },
    confidence: m.confidence,
    engine: m.engine,
    fallback: m.fallback?.reason ?? null,
    sessionId: m.sessionId,
  };
}
