/**
 * The CLI's commands. Each reads its arguments from the context, calls into lib/,
 * and prints either a human summary or one JSON document (`--json`).
 */
import fs from "node:fs";
import path from "node:path";
import cliProgress from "cli-progress";
import { WayfinderError } from "../errors.ts";
import { migrateDatabase } from "../db/migrate.ts";
import { generationNumber, getGeneration } from "../db/generations.ts";
import { listRepositories } from "../db/repositories.ts";
import {
  callersOf,
  calleesOf,
  symbolsByName,
  symbolsByQualifiedName,
  symbolsOfQualifiedId,
} from "../db/code-graph.ts";
import { indexRepository } from "../builds/build.ts";
import type { BuildPhase, BuildStats } from "../builds/types.ts";
import {
  CLASS_ADVICE,
  skipAdvice,
  skipReasonText,
  unparsedAdvice,
  unparsedReasonText,
} from "../indexer/build-report.ts";
import { hybridSearch, lexicalSearch, vectorSearch } from "../search/hybrid.ts";
import { findGitSource } from "../db/source-store.ts";
import { registerGitRepository } from "../sources/checkout.ts";
import { assertBranchName, looksLikeGitRemote, parseGitRemote } from "../sources/git-url.ts";
import { isBareRepository } from "../sources/git.ts";
import { queueFollowUp } from "../builds/refresh.ts";
import { resolveRepoArgument, type Command, type CommandContext } from "./context.ts";

function print(ctx: CommandContext, text: string): void {
  ctx.out.write(`${text}\n`);
}

function json(ctx: CommandContext, value: unknown): void {
  ctx.out.write(`${JSON.stringify(value, null, 2)}\n`);
}

function required(ctx: CommandContext, index: number, what: string): string {
  const value = ctx.positionals[index];
  if (!value) throw new WayfinderError("bad_request:argument", `Missing ${what}.`);
  return value;
}

/** Call edges once per symbol, in order: `a.c::f (0.9)`, `a.c::g (0.6, 2 call sites)`. */
export function bySymbol(edges: { id: string | null; confidence: number }[]): string[] {
  const sites = new Map<string, { confidence: number; count: number }>();
  for (const e of edges) {
    const id = e.id ?? "(unresolved)";
    const seen = sites.get(id);
    if (seen) {
      seen.count++;
      seen.confidence = Math.max(seen.confidence, e.confidence);
    } else sites.set(id, { confidence: e.confidence, count: 1 });
  }
  return [...sites].map(([id, { confidence, count }]) =>
    count > 1 ? `${id} (${confidence}, ${count} call sites)` : `${id} (${confidence})`,
  );
}

const PHASE_LABEL: Record<BuildPhase, string> = {
  fetching: "fetching   ",
  discovering: "discovering",
  parsing: "parsing    ",
  resolving: "resolving  ",
  wiki: "wiki       ",
  embedding: "embedding  ",
  associations: "associating",
  activating: "activating ",
  done: "done       ",
};

/**
 * What `index` was given: a folder (indexed in place), or a Git remote — a URL, or the
 * path of a bare repository — registered once (same URL and branch: the same
 * repository) and referred to by its id from then on.
 */
async function indexTarget(ctx: CommandContext): Promise<string> {
  const target = required(ctx, 0, "repository path or Git URL (npm run wayfinder -- index <path|url>)");
  const branch = typeof ctx.values.branch === "string" ? ctx.values.branch : undefined;
  const local = path.resolve(target);
  const bare = !looksLikeGitRemote(target) && fs.existsSync(local) && isBareRepository(local);
  if (!looksLikeGitRemote(target) && !bare) {
    if (branch) throw new WayfinderError("bad_request:argument", "--branch applies to Git URLs only.");
    return target;
  }
  const remote = parseGitRemote(bare ? local : target);
  const existing = await findGitSource(remote.url, branch ? assertBranchName(branch) : null);
  if (existing) return existing.id;
  const name = typeof ctx.values.name === "string" ? ctx.values.name : undefined;
  return (await registerGitRepository({ url: remote.url, branch, name })).id;
}

const indexCommand: Command = async (ctx) => {
  const target = await indexTarget(ctx);
  const asJson = Boolean(ctx.values.json);
  const bar = new cliProgress.SingleBar(
    { format: " {phase} [{bar}] {value}/{total} files", stream: process.stderr, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  const { repository, stats } = await indexRepository(target, {
    name: typeof ctx.values.name === "string" ? ctx.values.name : undefined,
    onProgress: (p) => {
      if (asJson || !process.stderr.isTTY) return;
      if (!started) {
        bar.start(Math.max(p.filesTotal, 1), p.filesDone, { phase: PHASE_LABEL[p.phase] });
        started = true;
      }
      bar.setTotal(Math.max(p.filesTotal, 1));
      bar.update(p.filesDone, { phase: PHASE_LABEL[p.phase] });
    },
  });
  if (started) bar.stop();
  // Golden questions re-checked against the new generation (null when the repository has none).
  const golden = await import("../admin/golden.ts").then((m) => m.runGoldenAfterReindex(repository.id));
  // A push reported while this build ran gets its own build.
  const followUp = await queueFollowUp(repository.id);
  if (asJson) {
    json(ctx, {
      repository: { id: repository.id, name: repository.name, rootPath: repository.rootPath },
      stats,
      ...(golden ? { golden } : {}),
      ...(followUp?.queued ? { followUp } : {}),
    });
    return 0;
  }
  const skipped = Object.entries(stats.skipped)
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${n} ${reason}`)
    .join(", ");
  const languages = Object.entries(stats.languages)
    .sort((a, b) => b[1] - a[1])
    .map(([l, n]) => `${l} ${n}`)
    .join(", ");
  const source =
    repository.sourceKind === "git"
      ? `${repository.gitUrl} ${repository.gitBranch ?? ""}`.trim()
      : repository.rootPath;
  print(ctx, `Indexed ${repository.name} (${source}) — generation ${stats.generation}`);
  if (stats.commitSha) print(ctx, `  commit    ${stats.commitSha}`);
  print(
    ctx,
    `  files     ${stats.files} (${stats.parsedFiles} parsed, ${stats.reusedFiles} unchanged, ${stats.removedFiles} removed)`,
  );
  print(ctx, `  lines     ${stats.lines}`);
  print(ctx, `  symbols   ${stats.symbols}`);
  print(ctx, `  edges     ${stats.edges} (${stats.callEdges} calls)`);
  print(ctx, `  chunks    ${stats.chunks}`);
  print(ctx, `  languages ${languages || "none"}`);
  if (skipped) print(ctx, `  skipped   ${skipped}`);
  printFileReport(ctx, stats);
  if (stats.secrets.redactions > 0)
    print(
      ctx,
      `  secrets   ${stats.secrets.redactions} redacted in ${stats.secrets.redactedFiles} files (file, line and kind: /admin/secrets)`,
    );
  if (stats.files === 0) print(ctx, "  note      no indexable files were found in this folder");
  print(ctx, `  seconds   ${stats.seconds}`);
  if (golden) print(ctx, `  golden    ${golden.passed}/${golden.total} passed`);
  if (followUp?.queued)
    print(ctx, `  follow-up generation ${followUp.generation} queued (the branch moved during the build)`);
  return 0;
};

/** The files a build skipped or indexed as text, each with why and what to do, and the file classes. */
function printFileReport(ctx: CommandContext, stats: BuildStats): void {
  const LIST = 10;
  const listed = stats.skippedFiles ?? [];
  for (const f of listed.slice(0, LIST)) {
    print(ctx, `            ${f.path}: ${skipReasonText(f)}. ${skipAdvice(f.reason)}`);
  }
  if (listed.length > LIST) print(ctx, `            … and ${listed.length - LIST} more (--json lists them)`);
  const classes = Object.entries(stats.fileClasses ?? {})
    .map(([fileClass, n]) => `${n} ${fileClass}`)
    .join(", ");
  if (classes) print(ctx, `  classes   ${classes}. ${CLASS_ADVICE}`);
  if (stats.unparsedCount > 0) {
    print(ctx, `  as text   ${stats.unparsedCount} code files could not be parsed and are indexed as text:`);
    for (const f of stats.unparsedFiles.slice(0, LIST))
      print(ctx, `            ${f.path}: ${unparsedReasonText(f.reason)}. ${unparsedAdvice(f.reason)}`);
    if (stats.unparsedCount > LIST)
      print(ctx, `            … and ${stats.unparsedCount - LIST} more (--json lists the first 100)`);
  }
}

const reposCommand: Command = async (ctx) => {
  const repos = await listRepositories();
  const rows = await Promise.all(
    repos.map(async (r) => {
      const gen = r.activeGenerationId ? await getGeneration(r.activeGenerationId) : null;
      return {
        ...r,
        generation: gen ? generationNumber(gen) : null,
        commit: gen?.commitSha ?? null,
        stats: gen ? JSON.parse(gen.stats) : null,
      };
    }),
  );
  if (ctx.values.json) {
    json(ctx, rows);
    return 0;
  }
  if (rows.length === 0) print(ctx, "No repositories yet. Index one: npm run wayfinder -- index <path>");
  for (const r of rows) {
    const s = r.stats as { files?: number; symbols?: number } | null;
    const source = r.sourceKind === "git" ? `${r.gitUrl} ${r.gitBranch ?? "(default branch)"}` : r.rootPath;
    const commit = r.commit ? ` @ ${r.commit.slice(0, 12)}` : "";
    print(
      ctx,
      `${r.name}\t${source}\tgeneration ${r.generation ?? "-"}${commit}\t${s?.files ?? 0} files\t${s?.symbols ?? 0} symbols`,
    );
  }
  return 0;
};

const searchCommand: Command = async (ctx) => {
  const repo = await resolveRepoArgument(required(ctx, 0, "repository"));
  const query = required(ctx, 1, "query");
  const limit = Number(ctx.values.limit ?? 10);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) {
    throw new WayfinderError("bad_request:limit", "--limit must be a whole number from 1 to 200.");
  }
  const mode = String(ctx.values.mode ?? "hybrid");
  const generationId = repo.activeGenerationId;
  const hits =
    mode === "lexical"
      ? await lexicalSearch(generationId, query, { limit })
      : mode === "vector"
        ? await vectorSearch(repo.id, generationId, query, { limit })
        : mode === "hybrid"
          ? await hybridSearch(repo.id, generationId, query, { limit })
          : null;
  if (!hits) throw new WayfinderError("bad_request:mode", "--mode must be lexical, vector or hybrid.");
  if (ctx.values.json) {
    json(
      ctx,
      hits.map((h) => ({
        path: h.path,
        startLine: h.startLine,
        endLine: h.endLine,
        kind: h.kind,
        title: h.title,
        symbolId: h.symbolId,
        score: h.score,
      })),
    );
    return 0;
  }
  if (hits.length === 0) print(ctx, "No matches.");
  for (const h of hits)
    print(ctx, `${h.score.toFixed(3)}  ${h.path}:${h.startLine}-${h.endLine}  ${h.title}`);
  return 0;
};

const symbolCommand: Command = async (ctx) => {
  const repo = await resolveRepoArgument(required(ctx, 0, "repository"));
  const name = required(ctx, 1, "symbol name");
  const gen = repo.activeGenerationId;
  const matches = name.includes("::")
    ? await symbolsOfQualifiedId(gen, name)
    : name.includes(".")
      ? await symbolsByQualifiedName(gen, name)
      : await symbolsByName(gen, name);
  if (matches.length === 0) {
    throw new WayfinderError("not_found:symbol", `No symbol named "${name}" in ${repo.name}.`);
  }
  const detailed = await Promise.all(
    matches.map(async (s) => ({
      id: s.qualifiedId,
      kind: s.kind,
      path: s.path,
      lines: [s.startLine, s.endLine],
      signature: s.signature,
      docstring: s.docstring,
      calls: (await calleesOf(gen, s.qualifiedId)).map((e) => ({
        id: e.dstId,
        raw: e.raw,
        line: e.line,
        confidence: e.confidence,
      })),
      unresolvedCalls: unresolvedCalls(s.calls, await calleesOf(gen, s.qualifiedId)),
      calledBy: (await callersOf(gen, s.qualifiedId)).map((e) => ({
        id: e.srcId,
        line: e.line,
        confidence: e.confidence,
      })),
      raises: JSON.parse(s.raises) as string[],
      mutates: JSON.parse(s.mutates) as string[],
      errorStrings: JSON.parse(s.errorStrings) as string[],
      fanIn: s.fanIn,
      fanOut: s.fanOut,
    })),
  );
  if (ctx.values.json) {
    json(ctx, detailed);
    return 0;
  }
  for (const s of detailed) {
    print(ctx, `${s.id}  (${s.kind}, ${s.path}:${s.lines[0]}-${s.lines[1]})`);
    print(ctx, `  ${s.signature}`);
    if (s.docstring) print(ctx, `  “${s.docstring.split("\n")[0]}”`);
    const list = (label: string, items: string[]) =>
      print(ctx, `  ${label.padEnd(14)}${items.length ? items.join(", ") : "—"}`);
    list("calls", bySymbol(s.calls));
    list("unresolved", s.unresolvedCalls);
    list("called by", bySymbol(s.calledBy));
    list("raises", s.raises);
    list("mutates", s.mutates);
    list(
      "error strings",
      s.errorStrings.map((e) => JSON.stringify(e)),
    );
    print(ctx, "");
  }
  return 0;
};

function unresolvedCalls(callsJson: string, resolved: { raw: string }[]): string[] {
  const done = new Set(resolved.map((r) => r.raw));
  const raw = (JSON.parse(callsJson) as { raw: string }[]).map((c) => c.raw);
  return [...new Set(raw.filter((r) => !done.has(r)))].slice(0, 30);
}

const migrateCommand: Command = async (ctx) => {
  print(ctx, (await migrateDatabase()).trim().split("\n").pop() ?? "migrated");
  return 0;
};

export const commands: Record<string, Command> = {
  ask: (ctx) => import("./ask-commands.ts").then((m) => m.askCommand(ctx)),
  retrieve: (ctx) => import("./ask-commands.ts").then((m) => m.retrieveCommand(ctx)),
  index: indexCommand,
  repos: reposCommand,
  search: searchCommand,
  symbol: symbolCommand,
  migrate: migrateCommand,
  "admin-token": (ctx) => import("./admin-commands.ts").then((m) => m.adminTokenCommand(ctx)),
  worker: (ctx) => import("./worker-command.ts").then((m) => m.workerCommand(ctx)),
  mcp: (ctx) => import("./mcp-command.ts").then((m) => m.mcpCommand(ctx)),
};
