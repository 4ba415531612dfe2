/**
 * The large-repository bench (`npm run bench -- --only large`): several versions of
 * every bench repository side by side in one folder, committed as one git repository
 * (over 1.5M lines with the default four revisions per repository), indexed cold, then
 * re-indexed after one changed file, after one commit (one folder moved to its
 * repository's next tag, the pair with the fewest changed files), and ten more times
 * after one changed file each. Reports lines/s, CPU seconds, peak RSS, database size
 * and its growth over the ten re-indexes.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchChildEnv, corpusManifest, openRepo } from "./corpus.ts";
import { tsScriptArgs } from "../lib/package-files.ts";

const ROOT = path.resolve(__dirname, "..");

export interface LargeBenchOptions {
  /** versions (tags) of each repository put side by side */
  tagsPerRepository: number;
  /** successive one-file re-indexes whose database growth is measured */
  reindexes: number;
  workDir: string;
  log: (line: string) => void;
}

interface BuildFigures {
  seconds: number;
  cpuSeconds?: number;
  files: number;
  lines: number;
  parsedFiles: number;
  symbols: number;
  edges: number;
  chunks: number;
  peakRssMb: number;
  phaseSeconds: Record<string, number>;
}

function git(args: string[], cwd?: string): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
}

function extractTree(bare: string, tag: string, into: string): void {
  fs.rmSync(into, { recursive: true, force: true });
  fs.mkdirSync(into, { recursive: true });
  const archive = spawnSync("git", ["--git-dir", bare, "archive", tag], { maxBuffer: 1024 * 1024 * 1024 });
  if (archive.status !== 0) throw new Error(`git archive ${tag} failed: ${archive.stderr}`);
  const untar = spawnSync("tar", ["-x", "-C", into], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar failed for ${tag}: ${untar.stderr}`);
}

interface Corpus {
  dir: string;
  folders: { bare: string; tag: string; folder: string }[];
  /** the folder that moves to the next tag of its repository for the one-commit re-index */
  nextCommit: { folder: string; bare: string; tag: string; changedFiles: number } | null;
}

/**
 * Extracts the first `tagsPerRepository` revisions of every bench corpus repository (the
 * SWE-bench repositories' instance trees; the language corpora's pinned commit) into one
 * committed folder. Repositories come from the --corpus bundles or their upstream URLs.
 */
function assembleCorpus(options: LargeBenchOptions): Corpus {
  const dir = path.join(options.workDir, "corpus");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const folders: Corpus["folders"] = [];
  let nextCommit: Corpus["nextCommit"] = null;
  for (const name of Object.keys(corpusManifest()).sort()) {
    const repo = openRepo(name);
    const bare = path.join(repo.dir, ".git");
    const refs = repo.revisions.map((r) => ({ revision: r, ref: repo.ref(r) }));
    const folderOf = (revision: string) => path.join(name, revision.replace(/^.*-/, "v"));
    const chosen = refs.slice(0, options.tagsPerRepository);
    for (const { revision, ref } of chosen) {
      extractTree(bare, ref, path.join(dir, folderOf(revision)));
      folders.push({ bare, tag: ref, folder: folderOf(revision) });
    }
    // The smallest step from a chosen revision to the next one is the "one commit".
    for (let i = 0; i + 1 < refs.length && i < chosen.length; i++) {
      const [from, to] = [refs[i]!, refs[i + 1]!];
      const changedFiles = git(["--git-dir", bare, "diff", "--name-only", from.ref, to.ref])
        .split("\n")
        .filter(Boolean).length;
      if (changedFiles > 0 && (!nextCommit || changedFiles < nextCommit.changedFiles))
        nextCommit = { folder: folderOf(from.revision), bare, tag: to.ref, changedFiles };
    }
  }
  git(["init", "-q"], dir);
  git(["add", "-A"], dir);
  git(["-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-q", "-m", "corpus"], dir);
  return { dir, folders, nextCommit };
}

function indexOnce(home: string, dir: string): BuildFigures {
  const result = spawnSync(
    process.execPath,
    tsScriptArgs(path.join(ROOT, "lib/cli/main.ts"), ["index", dir, "--name", "large", "--json"], ROOT),
    {
      cwd: ROOT,
      env: benchChildEnv(home),
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (result.status !== 0) throw new Error(`index failed:\n${result.stderr.slice(-4000)}`);
  return (JSON.parse(result.stdout) as { stats: BuildFigures }).stats;
}

/** Bytes of the database files and the embedded vectors under a data directory, MB. */
function storeSizeMb(home: string): { dbMb: number; vectorsMb: number } {
  const sizeOf = (dir: string, keep: (f: string) => boolean) =>
    fs.existsSync(dir)
      ? fs
          .readdirSync(dir)
          .filter(keep)
          .reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0)
      : 0;
  const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
  return {
    dbMb: mb(sizeOf(home, (f) => f.startsWith("wayfinder.db"))),
    vectorsMb: mb(sizeOf(path.join(home, "vectors"), () => true)),
  };
}

/** Python files of the corpus, a spread of mid-sized ones to touch one at a time. */
function filesToTouch(dir: string, count: number): string[] {
  const files = git(["ls-files", "*.py"], dir)
    .split("\n")
    .filter((f) => f && !/(^|\/)tests?\//.test(f));
  const step = Math.max(1, Math.floor(files.length / (count + 1)));
  return Array.from({ length: count }, (_, i) => files[(i + 1) * step] as string);
}

function touch(dir: string, file: string, mark: string): void {
  fs.appendFileSync(path.join(dir, file), `\n# wayfinder bench touch ${mark}\n`);
}

function figures(stats: BuildFigures) {
  return {
    seconds: stats.seconds,
    cpuSeconds: stats.cpuSeconds ?? null,
    parsedFiles: stats.parsedFiles,
    phaseSeconds: stats.phaseSeconds,
  };
}

export function runLargeBench(options: LargeBenchOptions): Record<string, unknown> {
  const { log } = options;
  fs.mkdirSync(options.workDir, { recursive: true });
  const corpus = assembleCorpus(options);
  const home = fs.mkdtempSync(path.join(options.workDir, "home-"));
  try {
    const cold = indexOnce(home, corpus.dir);
    const coldSize = storeSizeMb(home);
    log(
      `large: ${corpus.folders.length} trees, ${cold.files} files, ${cold.lines} lines, ${cold.symbols} symbols, ${cold.edges} edges; ` +
        `cold ${cold.seconds}s (${Math.round(cold.lines / cold.seconds)} lines/s, CPU ${cold.cpuSeconds ?? "?"}s), ` +
        `peak RSS ${cold.peakRssMb} MB, db ${coldSize.dbMb} MB, vectors ${coldSize.vectorsMb} MB`,
    );
    const [first, ...rest] = filesToTouch(corpus.dir, options.reindexes + 1);
    touch(corpus.dir, first as string, "one");
    const oneFile = indexOnce(home, corpus.dir);
    log(
      `large: one changed file re-indexed in ${oneFile.seconds}s (${JSON.stringify(oneFile.phaseSeconds)})`,
    );

    let oneCommit: BuildFigures | null = null;
    if (corpus.nextCommit) {
      const { folder, bare, tag, changedFiles } = corpus.nextCommit;
      extractTree(bare, tag, path.join(corpus.dir, folder));
      git(["add", "-A"], corpus.dir);
      git(
        ["-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-q", "-m", tag],
        corpus.dir,
      );
      oneCommit = indexOnce(home, corpus.dir);
      log(
        `large: one commit (${folder} → ${tag}, ${changedFiles} files in git) re-indexed in ${oneCommit.seconds}s, ` +
          `${oneCommit.parsedFiles} parsed (${JSON.stringify(oneCommit.phaseSeconds)})`,
      );
    }

    const before = storeSizeMb(home);
    const successive: number[] = [];
    let peakRssMb = Math.max(cold.peakRssMb, oneFile.peakRssMb, oneCommit?.peakRssMb ?? 0);
    rest.forEach((file, i) => {
      touch(corpus.dir, file, String(i));
      const stats = indexOnce(home, corpus.dir);
      successive.push(stats.seconds);
      peakRssMb = Math.max(peakRssMb, stats.peakRssMb);
    });
    const after = storeSizeMb(home);
    const growth = (a: number, b: number) => (a > 0 ? Math.round(((b - a) / a) * 1000) / 10 : 0);
    const sorted = [...successive].sort((a, b) => a - b);
    const row = {
      trees: corpus.folders.map((f) => f.folder),
      files: cold.files,
      lines: cold.lines,
      symbols: cold.symbols,
      edges: cold.edges,
      chunks: cold.chunks,
      cold: { ...figures(cold), linesPerSecond: Math.round(cold.lines / cold.seconds) },
      oneFile: figures(oneFile),
      oneCommit: oneCommit ? { ...figures(oneCommit), step: corpus.nextCommit } : null,
      successiveOneFileSeconds: successive,
      successiveOneFileMedianSeconds: sorted[Math.floor(sorted.length / 2)] ?? null,
      peakRssMb,
      coldStore: coldSize,
      storeBeforeReindexes: before,
      storeAfterReindexes: after,
      dbGrowthPercent: growth(before.dbMb, after.dbMb),
      vectorsGrowthPercent: growth(before.vectorsMb, after.vectorsMb),
    };
    log(
      `large: ${options.reindexes} successive one-file re-indexes, median ${row.successiveOneFileMedianSeconds}s; ` +
        `db ${before.dbMb} → ${after.dbMb} MB (${row.dbGrowthPercent}%), vectors ${before.vectorsMb} → ${after.vectorsMb} MB (${row.vectorsGrowthPercent}%); ` +
        `peak RSS over all builds ${peakRssMb} MB`,
    );
    return row;
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/** The `large` section of bench/run.ts: four revisions per repository unless `tagsPerRepository` says otherwise. */
export function largeSection(tagsPerRepository = 4): Record<string, unknown> {
  if (!Number.isInteger(tagsPerRepository) || tagsPerRepository < 1)
    throw new Error(`--large-tags takes a whole number of revisions, 1 or more (got ${tagsPerRepository})`);
  return runLargeBench({
    tagsPerRepository,
    reindexes: 10,
    workDir: path.join(os.tmpdir(), "wayfinder-bench", "large"),
    log: (line) => process.stderr.write(`${line}\n`),
  });
}
