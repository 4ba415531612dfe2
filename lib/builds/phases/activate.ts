/**
 * Phase 6, activate: the generation's statistics counted and stored, and the generation
 * made the one readers see (it gets its serial number). Then what no generation needs
 * any more is collected: closed rows, their vectors, unreferenced blobs.
 */
import "server-only";
import { env } from "../../env.ts";
import { activateGeneration } from "../../db/generations.ts";
import { collectBlobs, collectGarbage } from "../../db/garbage.ts";
import { countRows, fileReport, type FileReport, type RowCounts } from "../../db/index-reads.ts";
import { collectVectorGarbage } from "../../indexer/embed.ts";
import { INDEX_FORMAT_VERSION } from "../../indexer/format.ts";
import type { BuildRun } from "../run.ts";
import type { BuildStats } from "../types.ts";

/** The statistics of the build from what its phases found (times are filled in on activation). */
function statsOf(run: BuildRun, counts: RowCounts, fileSummary: FileReport): BuildStats {
  const { generation, phaseSeconds } = run;
  const discovery = run.need("discovery");
  const files = run.need("files");
  const { insertedEdges, reresolvedSymbols } = run.need("resolved");
  const wiki = run.need("wiki");
  const { embedding, history, associations } = run.need("embedded");
  return {
    formatVersion: INDEX_FORMAT_VERSION,
    generation: generation.number,
    build: generation.number,
    generationId: generation.id,
    files: files.count,
    codeFiles: files.code,
    textFiles: files.text,
    parsedFiles: files.changedPaths.length,
    reusedFiles: files.count - files.changedPaths.length,
    removedFiles: files.removedPaths.length,
    readFiles: discovery.read,
    symbols: counts.symbols,
    edges: counts.edges,
    callEdges: counts.callEdges,
    resolvedEdges: insertedEdges,
    reresolvedSymbols,
    sharedEdges: counts.edges - insertedEdges,
    chunks: counts.chunks,
    embeddedChunks: embedding.embedded,
    reusedVectors: env().WAYFINDER_EMBEDDINGS ? counts.chunks - embedding.embedded : 0,
    associationsLearned: associations.learned,
    associationWords: associations.words,
    lines: files.lines,
    languages: files.languages,
    skipped: discovery.skipped,
    skippedFiles: discovery.skippedFiles,
    secrets: discovery.secrets,
    fileClasses: fileSummary.classes,
    classRules: discovery.classRules,
    unparsedFiles: fileSummary.unparsed,
    unparsedCount: fileSummary.unparsedCount,
    parseErrors: files.parseErrors,
    parseThreads: files.parseThreads,
    parseWorkersReplaced: files.parseWorkersReplaced,
    seconds: 0,
    cpuSeconds: 0,
    phaseSeconds,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    source: discovery.source,
    wikiSeconds: phaseSeconds.wiki ?? 0,
    wikiPages: wiki.pages,
    wikiPagesGenerated: wiki.generated,
    wikiPagesReused: wiki.reused,
    wikiScope: wiki.scope,
    wikiModelWritten: wiki.modelWritten,
    findings: wiki.findings,
    wikiFormatVersion: wiki.formatVersion,
    wikiModel: wiki.model,
    commitSha: run.need("checkout").commitSha,
    historyCommits: history.commits,
  };
}

export async function activate(run: BuildRun): Promise<void> {
  const { repository, generation } = run;
  const { generation: previousGeneration, incremental } = run.need("previous");
  await run.enter("activating");
  const [counts, fileSummary] = await Promise.all([
    countRows(
      generation.id,
      incremental && previousGeneration ? (JSON.parse(previousGeneration.stats) as RowCounts) : null,
    ),
    fileReport(generation.id),
  ]);
  const stats = statsOf(run, counts, fileSummary);
  stats.seconds = Math.round((performance.now() - run.started) / 10) / 100;
  const cpu = process.cpuUsage(run.cpuStart);
  stats.cpuSeconds = Math.round((cpu.user + cpu.system) / 1e4) / 100;
  stats.generation = await activateGeneration(generation.id, stats);
  stats.build = generation.number;
  run.state.stats = stats;
  await run.enter("done");
  const garbage = await collectGarbage(repository.id);
  await collectVectorGarbage(repository.id, garbage.chunkIds);
  await collectBlobs();
}
