/**
 * Trains the general term-association model shipped as lib/search/associations/general.bin,
 * in two steps (run with `node --conditions=react-server --import tsx`):
 *
 *   mine  --manifest lib/search/associations/corpus.json --mirrors DIR --work WORK
 *         For each repository of the manifest, its pinned commit is exported from a git
 *         directory under DIR (`<owner>+<name>/repo` or `<owner>__<name>`), its files are
 *         discovered as an index build discovers them (vendored and build folders, binary and
 *         secret files left out, secrets redacted) and chunked as an index build chunks
 *         them (tree-sitter symbols, documentation sections); each chunk's words are
 *         written to WORK/<owner>__<name>.words, one chunk a line: its name's words, a
 *         tab, its words in order, identifier parts marked with a leading `_`.
 *   train --work WORK --out FILE [--words 32000] [--rank 96]
 *         The vocabulary (words found in at least three repositories, the most used
 *         first), co-occurrence counts within a window and between a chunk's name and
 *         its first words, summed over repositories with each repository's count
 *         damped (log 1 + n, so no repository's habits dominate), PPMI, and its truncated
 *         eigendecomposition as word vectors.
 *
 * Nothing of the mined repositories is kept but these statistics; the manifest says
 * which repositories at which commits they come from.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { streamFiles } from "../lib/indexer/discover.ts";
import { parseFile } from "../lib/indexer/parse-file.ts";
import { chunkWords } from "../lib/search/associations/words.ts";
import { countPairs, MAX_VOCABULARY, PairCounts } from "../lib/search/associations/cooccurrence.ts";
import { ppmiMatrix, truncatedEigen, wordVectors } from "../lib/search/associations/ppmi.ts";
import { encodeModel } from "../lib/search/associations/model.ts";

interface ManifestEntry {
  repo: string;
  commit: string;
}

/** Words mined from one repository at most: large repositories must not dominate the corpus. */
const MAX_WORDS_PER_REPOSITORY = 1_500_000;
const WINDOW = 5;
const NAME_REACH = 48;
const MIN_REPOSITORIES = 3;
const NEIGHBOURS = 8;
/** Vocabulary words: ASCII letters and digits (translated documentation brings words of other scripts). */
const VOCABULARY_WORD = /^[a-z][a-z0-9]*$/;

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

function gitDir(mirrors: string, repo: string): string {
  const [owner, name] = repo.split("/");
  const candidates = [
    path.join(mirrors, `${owner}+${name}`, "repo"),
    path.join(mirrors, `${owner}__${name}`),
  ];
  const found = candidates.find((c) => fs.existsSync(c));
  if (!found) throw new Error(`no git directory for ${repo} under ${mirrors}`);
  return found;
}

/**
 * Writes the files of a commit (up to 1 MiB each, symlinks and submodules left out)
 * into `dest`. Not `git archive`: snapshots may lack the blobs of very large files,
 * which git archive refuses; such files are skipped here.
 */
function exportTree(dir: string, commit: string, dest: string): void {
  const listing = execFileSync("git", ["--git-dir", dir, "ls-tree", "-r", "-l", "-z", commit], {
    maxBuffer: 512 * 1024 * 1024,
    encoding: "utf8",
  });
  const wanted = new Map<string, string[]>();
  for (const record of listing.split("\0")) {
    const match = /^(\d+) blob ([0-9a-f]+)\s+(\d+)\t(.*)$/s.exec(record);
    if (!match || match[1] === "120000" || Number(match[3]) > 1024 * 1024) continue;
    const [, , sha = "", , file = ""] = match;
    wanted.set(sha, [...(wanted.get(sha) ?? []), file]);
  }
  const shas = [...wanted.keys()];
  const output = execFileSync("git", ["--git-dir", dir, "cat-file", "--batch"], {
    input: `${shas.join("\n")}\n`,
    maxBuffer: 4 * 1024 * 1024 * 1024,
  });
  let at = 0;
  while (at < output.length) {
    const newline = output.indexOf(10, at);
    const header = output.toString("utf8", at, newline).split(" ");
    at = newline + 1;
    if (header[1] !== "blob") continue;
    const size = Number(header[2]);
    const content = output.subarray(at, at + size);
    at += size + 1;
    for (const file of wanted.get(header[0] ?? "") ?? []) {
      const target = path.join(dest, file);
      if (!target.startsWith(`${dest}${path.sep}`)) continue;
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, content);
    }
  }
}

async function mineRepository(entry: ManifestEntry, mirrors: string, work: string): Promise<void> {
  const out = path.join(work, `${entry.repo.replace("/", "__")}.words`);
  if (fs.existsSync(out)) return;
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), "wayfinder-mine-"));
  try {
    exportTree(gitDir(mirrors, entry.repo), entry.commit, tree);
    const discovery = await streamFiles(tree, { maxFileBytes: 1024 * 1024 });
    const lines: string[] = [];
    let words = 0;
    for await (const file of discovery.files()) {
      if (words >= MAX_WORDS_PER_REPOSITORY) break;
      const parsed = await parseFile(file).catch(() => null);
      if (!parsed) continue;
      for (const chunk of parsed.chunks) {
        // File summaries repeat the signatures their symbols' chunks hold.
        if (chunk.kind === "file") continue;
        const read = chunkWords(chunk.kind === "code" ? chunk.title : "", chunk.text);
        if (read.words.length < 3) continue;
        words += read.words.length;
        lines.push(
          `${read.name.join(" ")}\t${read.words.map((w, i) => (read.identifier[i] ? `_${w}` : w)).join(" ")}`,
        );
      }
    }
    fs.writeFileSync(`${out}.partial`, `${lines.join("\n")}\n`);
    fs.renameSync(`${out}.partial`, out);
    log(`mined ${entry.repo}: ${lines.length} chunks, ${words} words`);
  } finally {
    fs.rmSync(tree, { recursive: true, force: true });
  }
}

interface Chunk {
  name: string[];
  words: string[];
  identifier: boolean[];
}

function* readChunks(file: string): Generator<Chunk> {
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (!line) continue;
    const [name = "", body = ""] = line.split("\t");
    const tokens = body.split(" ").filter(Boolean);
    yield {
      name: name.split(" ").filter(Boolean),
      words: tokens.map((t) => (t.startsWith("_") ? t.slice(1) : t)),
      identifier: tokens.map((t) => t.startsWith("_")),
    };
  }
}

function train(work: string, out: string, maxWords: number, rank: number): void {
  const files = fs
    .readdirSync(work)
    .filter((f) => f.endsWith(".words"))
    .sort()
    .map((f) => path.join(work, f));
  // Pass 1: the vocabulary. A word's use is summed over repositories, each damped.
  const repositories = new Map<string, number>();
  const use = new Map<string, number>();
  const inIdentifiers = new Map<string, number>();
  const occurrences = new Map<string, number>();
  for (const file of files) {
    const counts = new Map<string, number>();
    for (const chunk of readChunks(file)) {
      chunk.words.forEach((w, i) => {
        counts.set(w, (counts.get(w) ?? 0) + 1);
        if (chunk.identifier[i]) inIdentifiers.set(w, (inIdentifiers.get(w) ?? 0) + 1);
      });
    }
    for (const [w, n] of counts) {
      repositories.set(w, (repositories.get(w) ?? 0) + 1);
      use.set(w, (use.get(w) ?? 0) + Math.log1p(n));
      occurrences.set(w, (occurrences.get(w) ?? 0) + n);
    }
  }
  const vocabulary = [...use.entries()]
    .filter(([w]) => (repositories.get(w) ?? 0) >= MIN_REPOSITORIES && VOCABULARY_WORD.test(w))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, Math.min(maxWords, MAX_VOCABULARY - 1))
    .map(([w]) => w);
  const index = new Map(vocabulary.map((w, i) => [w, i]));
  log(`vocabulary: ${vocabulary.length} words from ${files.length} repositories`);
  // Pass 2: co-occurrence, each repository's counts damped before they are summed.
  const total = new PairCounts(1 << 22);
  for (const file of files) {
    const local = new PairCounts(1 << 18);
    for (const chunk of readChunks(file)) {
      const ids = Int32Array.from(chunk.words, (w) => index.get(w) ?? -1);
      const nameIds = Int32Array.from(chunk.name, (w) => index.get(w) ?? -1);
      countPairs(local, ids, nameIds, { window: WINDOW, nameReach: NAME_REACH });
    }
    local.forEach((a, b, c) => total.add(a, b, Math.log1p(c)));
    log(`counted ${path.basename(file)}: ${local.size} pairs (${total.size} in all)`);
  }
  const matrix = ppmiMatrix(total, vocabulary.length);
  log(`PPMI: ${matrix.values.length} non-zero entries`);
  const started = performance.now();
  const eigen = truncatedEigen(matrix, rank, { iterations: 3, seed: 7 });
  log(`eigendecomposition (rank ${eigen.rank}) in ${Math.round((performance.now() - started) / 1000)} s`);
  const data = encodeModel({
    vocabulary,
    rank: eigen.rank,
    corpusRepositories: files.length,
    vectors: wordVectors(eigen),
    repositories: vocabulary.map((w) => repositories.get(w) ?? 0),
    identifierShare: vocabulary.map(
      (w) => (inIdentifiers.get(w) ?? 0) / Math.max(1, occurrences.get(w) ?? 0),
    ),
    neighbourCount: NEIGHBOURS,
  });
  fs.writeFileSync(out, data);
  log(`wrote ${out}: ${(data.length / 1024 / 1024).toFixed(2)} MB`);
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      manifest: { type: "string" },
      mirrors: { type: "string" },
      work: { type: "string" },
      out: { type: "string" },
      words: { type: "string", default: "32000" },
      rank: { type: "string", default: "96" },
    },
  });
  if (!values.work) throw new Error("--work is required");
  fs.mkdirSync(values.work, { recursive: true });
  if (command === "mine") {
    if (!values.manifest || !values.mirrors) throw new Error("mine needs --manifest and --mirrors");
    const manifest = JSON.parse(fs.readFileSync(values.manifest, "utf8")) as {
      repositories: ManifestEntry[];
    };
    for (const entry of manifest.repositories) await mineRepository(entry, values.mirrors, values.work);
  } else if (command === "train") {
    if (!values.out) throw new Error("train needs --out");
    train(values.work, values.out, Number(values.words), Number(values.rank));
  } else {
    throw new Error("usage: train-associations.ts mine|train …");
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
