/**
 * Extraction regression check: extracts every code file under the given folders and
 * compares the result with a stored snapshot, file by file and field by field.
 * Without folders it checks the unit-test fixtures against their snapshot (the
 * output of the per-language extractors the query engine replaced).
 *
 *   npx tsx scripts/compare-extraction.ts                            fixtures vs their snapshot
 *   npx tsx scripts/compare-extraction.ts --write                    rewrite it after an intended change
 *   npx tsx scripts/compare-extraction.ts --snapshot s.json --write <dir>…   snapshot some repositories
 *   npx tsx scripts/compare-extraction.ts --snapshot s.json <dir>…           compare them later
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { isDeepStrictEqual, parseArgs } from "node:util";
import { extractSource, type SourceExtraction } from "../lib/indexer/extract/index.ts";
import { languageForFile, languageForPath } from "../lib/indexer/parser.ts";
import type { CodeLanguage } from "../lib/indexer/types.ts";

const ROOT = path.resolve(__dirname, "..");
export const FIXTURE_DIRS = ["lib/indexer/__fixtures__", "lib/wiki/__fixtures__"];
export const FIXTURE_SNAPSHOT = "lib/indexer/__fixtures__/extraction.golden.json";

type Snapshot = Record<string, SourceExtraction>;

export interface Comparison {
  files: number;
  symbols: number;
  calls: number;
  differences: string[];
}

/** Differences between two extractions of one file, as short readable lines. */
export function diffExtractions(
  file: string,
  expected: SourceExtraction,
  actual: SourceExtraction,
): string[] {
  const out: string[] = [];
  for (let i = 0; i < Math.max(expected.symbols.length, actual.symbols.length); i++) {
    const x = expected.symbols[i];
    const y = actual.symbols[i];
    if (!x || !y) {
      out.push(`${file}: symbol ${i} ${x ? `${x.qualifiedName} missing` : `${y?.qualifiedName} extra`}`);
      continue;
    }
    for (const key of Object.keys(x) as Array<keyof typeof x>) {
      if (!isDeepStrictEqual(x[key], y[key]))
        out.push(`${file}: ${x.qualifiedName}.${key}: ${JSON.stringify(x[key])} ≠ ${JSON.stringify(y[key])}`);
    }
  }
  for (const key of ["language", "imports", "moduleState", "parseErrors", "facts"] as const) {
    if (!isDeepStrictEqual(expected[key], actual[key]))
      out.push(`${file}: ${key}: ${JSON.stringify(expected[key])} ≠ ${JSON.stringify(actual[key])}`);
  }
  return out;
}

/** Code files below the folders (tracked files of a git work tree, else every file), paths relative to `base`. */
export function codeFiles(dirs: string[], base = ROOT): Array<{ path: string; language: CodeLanguage }> {
  const out = [];
  for (const dir of dirs) {
    const full = path.resolve(base, dir);
    const listed = fs.existsSync(path.join(full, ".git"))
      ? execFileSync("git", ["-C", full, "ls-files"], { encoding: "utf8", maxBuffer: 1 << 28 }).split("\n")
      : (fs.readdirSync(full, { recursive: true }) as string[]);
    for (const rel of listed.sort()) {
      const language = rel ? languageForPath(rel) : null;
      if (language && fs.statSync(path.join(full, rel), { throwIfNoEntry: false })?.isFile())
        out.push({ path: path.relative(base, path.join(full, rel)).split(path.sep).join("/"), language });
    }
  }
  return out;
}

export async function extractAll(dirs: string[], base = ROOT): Promise<Snapshot> {
  const out: Snapshot = {};
  for (const file of codeFiles(dirs, base)) {
    const source = fs.readFileSync(path.join(base, file.path), "utf8");
    const language = languageForFile(file.path, source) ?? file.language;
    if (!source.includes("\0")) out[file.path] = await extractSource(language, source);
  }
  return out;
}

export function compareSnapshots(expected: Snapshot, actual: Snapshot): Comparison {
  const result: Comparison = { files: 0, symbols: 0, calls: 0, differences: [] };
  for (const file of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
    const x = expected[file];
    const y = actual[file];
    if (!x || !y) {
      result.differences.push(`${file}: ${x ? "no longer extracted" : "not in the snapshot"}`);
      continue;
    }
    result.files++;
    result.symbols += x.symbols.length;
    result.calls += x.symbols.reduce((n, s) => n + s.calls.length, 0);
    result.differences.push(...diffExtractions(file, x, y));
  }
  return result;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { snapshot: { type: "string" }, write: { type: "boolean" }, show: { type: "string" } },
    allowPositionals: true,
  });
  const dirs = positionals.length ? positionals.map((d) => path.resolve(d)) : FIXTURE_DIRS;
  const snapshotFile = path.resolve(ROOT, values.snapshot ?? FIXTURE_SNAPSHOT);
  const base = positionals.length ? "/" : ROOT;
  const actual = await extractAll(dirs, base);
  if (values.write) {
    fs.writeFileSync(snapshotFile, `${JSON.stringify(actual, null, 1)}\n`);
    console.log(`wrote ${Object.keys(actual).length} files to ${snapshotFile}`);
    return;
  }
  const result = compareSnapshots(JSON.parse(fs.readFileSync(snapshotFile, "utf8")) as Snapshot, actual);
  console.log(
    `${result.files} files, ${result.symbols} symbols, ${result.calls} calls: ${result.differences.length} differences`,
  );
  for (const line of result.differences.slice(0, Number(values.show ?? 20))) console.log(`  ${line}`);
  process.exitCode = result.differences.length > 0 ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) void main();
