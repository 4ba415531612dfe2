/**
 * Compares the extraction engine with the previous per-language extractors on every
 * code file of the given repositories and reports the differences.
 *
 *   npx tsx scripts/compare-extraction.ts [--show 20] <dir>…
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { isDeepStrictEqual, parseArgs } from "node:util";
import { extractSource, type SourceExtraction } from "../lib/indexer/extract/index.ts";
import { extractSource as extractLegacy } from "../lib/indexer/extract/legacy/index.ts";
import { languageForPath } from "../lib/indexer/parser.ts";
import type { CodeLanguage } from "../lib/indexer/types.ts";

const COMPARED = new Set<CodeLanguage>(["python", "typescript", "tsx", "javascript", "java", "go", "rust"]);

export interface Comparison {
  files: number;
  symbols: number;
  calls: number;
  imports: number;
  differences: string[];
  millis: { reference: number; engine: number };
}

/** Differences between two extractions of one file, as short readable lines. */
export function diffExtractions(
  file: string,
  expected: SourceExtraction,
  actual: SourceExtraction,
): string[] {
  const out: string[] = [];
  const a = expected.symbols;
  const b = actual.symbols;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y) {
      out.push(`${file}: symbol ${i} ${x ? `${x.qualifiedName} missing` : `${y?.qualifiedName} extra`}`);
      continue;
    }
    for (const key of Object.keys(x) as Array<keyof typeof x>) {
      if (!isDeepStrictEqual(x[key], y[key]))
        out.push(`${file}: ${x.qualifiedName}.${key}: ${JSON.stringify(x[key])} ≠ ${JSON.stringify(y[key])}`);
    }
  }
  for (const key of ["imports", "moduleState", "parseErrors", "facts"] as const) {
    if (!isDeepStrictEqual(expected[key], actual[key]))
      out.push(`${file}: ${key}: ${JSON.stringify(expected[key])} ≠ ${JSON.stringify(actual[key])}`);
  }
  return out;
}

export async function compareFiles(files: Array<{ path: string; language: CodeLanguage; source: string }>) {
  const result: Comparison = {
    files: 0,
    symbols: 0,
    calls: 0,
    imports: 0,
    differences: [],
    millis: { reference: 0, engine: 0 },
  };
  for (const file of files) {
    let t = performance.now();
    const expected = await extractLegacy(file.language, file.source);
    result.millis.reference += performance.now() - t;
    t = performance.now();
    const actual = await extractSource(file.language, file.source);
    result.millis.engine += performance.now() - t;
    result.files++;
    result.symbols += expected.symbols.length;
    result.calls += expected.symbols.reduce((n, s) => n + s.calls.length, 0);
    result.imports += expected.imports.length;
    result.differences.push(...diffExtractions(file.path, expected, actual));
  }
  return result;
}

function codeFiles(
  dir: string,
  only: Set<string> | null,
): Array<{ path: string; language: CodeLanguage; source: string }> {
  const out = [];
  for (const rel of listFiles(dir)) {
    const language = rel ? languageForPath(rel) : null;
    if (!language || !COMPARED.has(language) || (only && !only.has(language))) continue;
    const full = path.join(dir, rel);
    if (!fs.statSync(full, { throwIfNoEntry: false })?.isFile()) continue;
    const source = fs.readFileSync(full, "utf8");
    if (source.includes("\0") || source.length > 1_000_000) continue;
    out.push({ path: path.join(path.basename(dir), rel), language, source });
  }
  return out;
}

/** Tracked files of a git work tree, else every file below the folder. */
function listFiles(dir: string): string[] {
  if (fs.existsSync(path.join(dir, ".git")))
    return execFileSync("git", ["-C", dir, "ls-files"], { encoding: "utf8", maxBuffer: 1 << 28 }).split("\n");
  return (fs.readdirSync(dir, { recursive: true }) as string[]).map((f) => f.split(path.sep).join("/"));
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { show: { type: "string" }, only: { type: "string" } },
    allowPositionals: true,
  });
  const show = Number(values.show ?? 20);
  const only = values.only ? new Set(values.only.split(",")) : null;
  let total = 0;
  for (const dir of positionals) {
    const result = await compareFiles(codeFiles(dir, only));
    total += result.differences.length;
    console.log(
      `${path.basename(dir)}: ${result.files} files, ${result.symbols} symbols, ${result.calls} calls, ` +
        `${result.imports} imports, ${result.differences.length} differences ` +
        `(reference ${Math.round(result.millis.reference)} ms, engine ${Math.round(result.millis.engine)} ms)`,
    );
    for (const line of result.differences.slice(0, show)) console.log(`  ${line}`);
  }
  process.exitCode = total > 0 ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) void main();
