/**
 * The robustness bench (`npm run bench -- --only robustness --corpus DIR …`): every git
 * bundle in the --corpus folders and their subfolders (the bench corpora, and
 * repositories assembled for this: npm packages that ship minified or generated code,
 * Debian sources, each committed and bundled), at its newest tag, plus a folder of
 * generated pathological files, each cold-indexed with default settings in a process
 * of its own. Reports files, skipped files by reason, file classes, files
 * indexed as text, time, CPU, peak RSS and any failure; then the parse time of each
 * pathological file alone, against its budget.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchChildEnv } from "./corpus.ts";
import { childProcessEnv } from "../lib/env.ts";
import { tsScriptArgs } from "../lib/package-files.ts";
import {
  binarySource,
  callChain,
  concatenation,
  functionsFile,
  latin1Source,
  minifiedLine,
  nestedJavaScript,
  nestedPython,
} from "../test-support/pathological.ts";

const ROOT = path.resolve(__dirname, "..");
const WORK = path.join(os.tmpdir(), "wayfinder-bench", "robustness");

interface Target {
  name: string;
  dir: string;
}

function bundles(folders: string[]): string[] {
  return folders.flatMap((folder) =>
    fs.existsSync(folder)
      ? fs
          .readdirSync(folder, { withFileTypes: true })
          .flatMap((d) =>
            d.isDirectory()
              ? bundles([path.join(folder, d.name)])
              : d.name.endsWith(".bundle")
                ? [path.join(folder, d.name)]
                : [],
          )
      : [],
  );
}

/** A bundle's newest tag (or HEAD) checked out into the work folder. */
function fromBundle(bundle: string): Target {
  const name = path.basename(bundle, ".bundle");
  const dir = path.join(WORK, "src", name);
  if (!fs.existsSync(path.join(dir, ".git"))) {
    fs.rmSync(dir, { recursive: true, force: true });
    execFileSync("git", ["clone", "-q", bundle, dir]);
    const tags = execFileSync("git", ["-C", dir, "tag", "--sort=creatordate"], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean);
    if (tags.length) execFileSync("git", ["-C", dir, "checkout", "-q", tags[tags.length - 1] as string]);
  }
  return { name, dir };
}

/** The generated pathological inputs, side by side with ordinary code. */
function pathological(): Target {
  const dir = path.join(WORK, "src", "pathological");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, "web"), { recursive: true });
  const files: Record<string, string | Buffer> = {
    "app.py": "def main():\n    return helper()\n\ndef helper():\n    return 1\n",
    "web/bundle.js": minifiedLine(),
    "steps.py": functionsFile(50_000),
    "deep.py": nestedPython(100_000),
    "deep.js": nestedJavaScript(100_000),
    "chain.js": callChain(20_000).replace(/\)\./g, ")\n  ."),
    "message.py": concatenation(50_000),
    "latin1.py": latin1Source(),
    "native.c": binarySource(),
  };
  for (const [file, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), content);
  fs.symlinkSync("loop-b.py", path.join(dir, "loop-a.py"));
  fs.symlinkSync("loop-a.py", path.join(dir, "loop-b.py"));
  return { name: "pathological", dir };
}

function targets(corpusFolders: string[]): Target[] {
  const seen = new Set<string>();
  const out: Target[] = [];
  for (const bundle of bundles(corpusFolders)) {
    const name = path.basename(bundle, ".bundle");
    if (seen.has(name)) continue;
    seen.add(name);
    out.push(fromBundle(bundle));
  }
  out.push(pathological());
  return out;
}

interface Figures {
  files: number;
  lines: number;
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  skipped: Record<string, number>;
  fileClasses: Record<string, number>;
  unparsedCount: number;
  unparsedFiles: { path: string; reason: string }[];
  parseWorkersReplaced: number;
}

export function robustnessSection(
  corpusFolders: string[],
  log: (line: string) => void,
): Record<string, unknown> {
  fs.mkdirSync(WORK, { recursive: true });
  const rows: Record<string, unknown>[] = [];
  for (const target of targets(corpusFolders)) {
    const home = fs.mkdtempSync(path.join(WORK, "home-"));
    const result = spawnSync(
      process.execPath,
      tsScriptArgs(
        path.join(ROOT, "lib/cli/main.ts"),
        ["index", target.dir, "--name", target.name, "--json"],
        ROOT,
      ),
      { cwd: ROOT, env: benchChildEnv(home), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
    );
    fs.rmSync(home, { recursive: true, force: true });
    if (result.status !== 0) {
      const failure = result.stderr.trim().split("\n").slice(-3).join(" ");
      rows.push({ name: target.name, failed: true, error: failure });
      log(`robustness ${target.name}: FAILED ${failure}`);
      continue;
    }
    const s = (JSON.parse(result.stdout) as { stats: Figures }).stats;
    const skipped = Object.fromEntries(Object.entries(s.skipped).filter(([, n]) => n > 0));
    rows.push({
      name: target.name,
      failed: false,
      files: s.files,
      lines: s.lines,
      seconds: s.seconds,
      cpuSeconds: s.cpuSeconds,
      peakRssMb: s.peakRssMb,
      skipped,
      fileClasses: s.fileClasses,
      unparsed: s.unparsedFiles,
      workersReplaced: s.parseWorkersReplaced,
    });
    log(
      `robustness ${target.name}: ${s.files} files, ${s.lines} lines in ${s.seconds}s (${s.cpuSeconds} s CPU), peak RSS ${s.peakRssMb} MB; ` +
        `skipped ${JSON.stringify(skipped)}; classes ${JSON.stringify(s.fileClasses)}; ` +
        `as text ${s.unparsedCount}${s.unparsedCount ? ` (${s.unparsedFiles.map((f) => `${f.path}: ${f.reason}`).join("; ")})` : ""}`,
    );
  }
  const failures = rows.filter((r) => r.failed).length;
  log(`robustness: ${rows.length} repositories, ${failures} failed builds`);
  return { repositories: rows.length, failures, rows, parseTimes: parseTimes(log) };
}

/** Each pathological file parsed alone (bench/pathological-parse.ts), in a process of its own. */
function parseTimes(log: (line: string) => void): unknown[] {
  const result = spawnSync(
    process.execPath,
    tsScriptArgs(path.join(ROOT, "bench/pathological-parse.ts"), [], ROOT),
    { cwd: ROOT, env: childProcessEnv(), encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
  );
  if (result.status !== 0) {
    log(`robustness parse times: FAILED ${result.stderr.trim().split("\n").slice(-3).join(" ")}`);
    return [];
  }
  const rows = JSON.parse(result.stdout) as Record<string, unknown>[];
  for (const r of rows)
    log(
      `robustness parse ${r.file}: ${r.seconds} s (${r.secondsPerMb} s/MiB, budget ${r.budgetSeconds} s), ` +
        `${r.unparsed ? `as text: ${r.unparsed}` : `${r.symbols} symbols`}`,
    );
  return rows;
}
