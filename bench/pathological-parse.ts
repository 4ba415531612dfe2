/**
 * Times the parse and extraction of each generated pathological file, alone, in this
 * process (the optimizing WASM tier, as the CLI runs): how long each takes against its
 * budget, per MiB, and what it became (symbols, or text with the reason). Run by the
 * robustness section of the bench; prints one JSON array.
 */
import { parseBudgetSeconds, parseFile } from "../lib/indexer/parse-file.ts";
import { codeSource } from "../test-support/parse-fixtures.ts";
import {
  callChain,
  concatenation,
  functionsFile,
  minifiedLine,
  nestedJavaScript,
  nestedPython,
} from "../test-support/pathological.ts";

const FILES: Record<string, () => string> = {
  "steps.py (50k lines, 17k functions)": functionsFile,
  "web/app.js (1 MiB on one line, parsed as code)": minifiedLine,
  "deep.py (nested 100k deep)": nestedPython,
  "deep.js (nested 100k deep)": nestedJavaScript,
  "chain.js (20k chained calls, one per line)": () => callChain(20_000).replace(/\)\./g, ")\n  ."),
  "message.py (50k concatenated strings)": concatenation,
};

async function main(): Promise<void> {
  const rows: Record<string, unknown>[] = [];
  for (const [label, make] of Object.entries(FILES)) {
    const content = make();
    const path = label.split(" ")[0] as string;
    const source = codeSource(path, content);
    const started = performance.now();
    const parsed = await parseFile(source);
    const seconds = (performance.now() - started) / 1000;
    const mb = source.size / (1024 * 1024);
    rows.push({
      file: label,
      mb: Math.round(mb * 100) / 100,
      seconds: Math.round(seconds * 100) / 100,
      secondsPerMb: Math.round((seconds / mb) * 10) / 10,
      budgetSeconds: parseBudgetSeconds(source.size),
      symbols: parsed.symbols.length,
      unparsed: parsed.file.unparsed,
    });
  }
  process.stdout.write(`${JSON.stringify(rows)}\n`);
}

void main();
