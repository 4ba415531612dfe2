/**
 * Where the bench's repositories come from. Each repository in bench/data/corpus.json, and
 * each of the multi-language instances' (bench/data/multi-swe-bench-dev.jsonl), is
 * taken from a git bundle named `<name>.bundle` in a corpus folder (`--corpus DIR`, or
 * WAYFINDER_BENCH_CORPUS; a folder and its direct subfolders are searched), else cloned
 * from its upstream URL. A revision is a named ref (the bundles tag each SWE-bench
 * instance with its id, the single-commit bundles with `head`) or, in a plain clone,
 * the pinned commit: the instance's base commit, or the commit the manifest records.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { childProcessEnv, env } from "../lib/env.ts";
import { tsScriptArgs } from "../lib/package-files.ts";

export const BENCH_DATA = path.resolve(__dirname, "data");
export const BENCH_WORK = path.join(os.tmpdir(), "wayfinder-bench");

export interface CorpusEntry {
  /** upstream clone URL */
  url: string;
  language: string;
  /** the commit a single-revision repository is pinned to (abbreviated SHAs are fine) */
  commit?: string;
}

export interface SweInstance {
  instance_id: string;
  repo: string;
  base_commit: string;
  problem_statement: string;
  gold_files: string[];
  /** `path:Class.method` of each function the fix edited (SWE-bench Lite; the multi-language set has none) */
  edit_functions?: string[];
  /** the repository's language (the multi-language set) */
  language?: string;
}

/**
 * The instance sets the localization sections run: SWE-bench Lite's Python dev set, and
 * Multi-SWE-bench's dev set in C, C++, Go, Java, JavaScript and Rust.
 */
export type InstanceSet = "swe" | "multi";

const INSTANCE_FILES: Record<InstanceSet, string> = {
  swe: "swebench-lite-dev.jsonl",
  multi: "multi-swe-bench-dev.jsonl",
};

export interface CorpusRepo {
  name: string;
  dir: string;
  /** Revisions in the order the bench walks them: instance ids, or `head`. */
  revisions: string[];
  /** The git ref of one revision: its tag when the repository has it, else its pinned commit. */
  ref(revision: string): string;
  /** Checks out one revision (discarding local edits). */
  checkout(revision: string): void;
}

// Set by --corpus (setCorpusFolders); bench workers, child processes, get it through
// WAYFINDER_BENCH_CORPUS in benchChildEnv.
let chosenFolders: string[] | null = null;

/**
 * The question bench's own repositories, bundled in the project (one commit each, tagged
 * `head`): the benchmark corpora passed with --corpus do not hold them.
 */
const BUNDLED = path.resolve(__dirname, "corpus-questions");

/**
 * The folders searched for bundles and question files: `--corpus` (else
 * WAYFINDER_BENCH_CORPUS), then the project's own bundles.
 */
export function corpusFolders(): string[] {
  chosenFolders ??= (env().WAYFINDER_BENCH_CORPUS ?? "").split(path.delimiter).filter(Boolean);
  return chosenFolders.includes(BUNDLED) ? chosenFolders : [...chosenFolders, BUNDLED];
}

/** Sets the folders searched for bundles (the `--corpus` option). */
export function setCorpusFolders(list: string[]): void {
  for (const folder of list) {
    if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
      throw new Error(`--corpus ${folder}: not a folder`);
    }
  }
  chosenFolders = list.map((f) => path.resolve(f));
}

/** The environment of a bench worker: its data directory, and the same corpus folders. */
export function benchChildEnv(home: string): NodeJS.ProcessEnv {
  return childProcessEnv({
    WAYFINDER_HOME: home,
    WAYFINDER_BENCH_CORPUS: corpusFolders().join(path.delimiter),
  });
}

/**
 * Runs a bench worker: `script` with `args` and the path of a JSON file holding `input`,
 * in a data directory of its own under BENCH_WORK, and reads the JSON lines it prints.
 */
export function runJsonWorker<T>(options: {
  script: string;
  args?: string[];
  input: unknown;
  /** names the worker in its data directory and in the error when it fails */
  label: string;
  root: string;
  maxBuffer?: number;
}): T[] {
  fs.mkdirSync(BENCH_WORK, { recursive: true });
  const home = fs.mkdtempSync(path.join(BENCH_WORK, `home-${options.label}-`));
  const input = path.join(home, "input.json");
  fs.writeFileSync(input, JSON.stringify(options.input));
  const result = spawnSync(
    process.execPath,
    tsScriptArgs(options.script, [...(options.args ?? []), input], options.root),
    {
      cwd: options.root,
      env: benchChildEnv(home),
      encoding: "utf8",
      maxBuffer: options.maxBuffer ?? 256 * 1024 * 1024,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  fs.rmSync(home, { recursive: true, force: true });
  if (result.status !== 0) throw new Error(`${options.label} worker failed (exit ${result.status})`);
  return result.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}

export function corpusManifest(): Record<string, CorpusEntry> {
  return JSON.parse(fs.readFileSync(path.join(BENCH_DATA, "corpus.json"), "utf8")) as Record<
    string,
    CorpusEntry
  >;
}

export function sweInstances(set: InstanceSet = "swe"): SweInstance[] {
  return fs
    .readFileSync(path.join(BENCH_DATA, INSTANCE_FILES[set]), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SweInstance);
}

/** `owner/name` → the corpus key `owner__name`. */
export function corpusKey(repo: string): string {
  return repo.replace("/", "__");
}

/** Every bundle of a repository in the corpus folders, in search order (several folders may hold one each, with different tags). */
function findBundles(name: string): string[] {
  return corpusFolders().flatMap((folder) =>
    [
      path.join(folder, `${name}.bundle`),
      ...fs
        .readdirSync(folder, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => path.join(folder, d.name, `${name}.bundle`)),
    ].filter((c) => fs.existsSync(c)),
  );
}

function git(args: string[]): string {
  return execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

function hasRef(dir: string, ref: string): boolean {
  try {
    git(["-C", dir, "rev-parse", "--verify", "--quiet", `refs/tags/${ref}`]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Clones (once) and opens a corpus repository: one of bench/data/corpus.json, or with
 * set `multi` one of the multi-language instances' repositories.
 */
export function openRepo(name: string, set: InstanceSet = "swe"): CorpusRepo {
  const instances = sweInstances(set).filter((i) => corpusKey(i.repo) === name);
  const entry = corpusManifest()[name];
  const url = entry?.url ?? (instances[0] && `https://github.com/${instances[0].repo}.git`);
  if (!url) throw new Error(`${name} is neither in bench/data/corpus.json nor in the ${set} instances`);
  const dir = path.join(BENCH_WORK, "repos", name);
  if (!fs.existsSync(path.join(dir, ".git"))) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    const bundle = findBundles(name)[0];
    const source = bundle ?? url;
    try {
      git(["clone", "-q", "--no-checkout", source, dir]);
    } catch (error) {
      throw new Error(
        `could not get ${name} from ${source}${bundle ? "" : " (no bundle found: pass --corpus DIR with bench bundles to work offline)"}: ${String((error as { stderr?: string }).stderr ?? error).trim()}`,
      );
    }
  }
  // A repository can have bundles in several corpus folders (one per benchmark, each with its
  // own tags): the clone gets the tags of all of them, whichever it was made from (a clone
  // kept from an earlier run may come from another folder). A tag the clone already has is
  // kept (two bundles may tag the same instance on commits made separately).
  for (const other of findBundles(name)) {
    const missing = git(["bundle", "list-heads", other])
      .split("\n")
      .map((line) => line.split(" ")[1] ?? "")
      .filter((ref) => ref.startsWith("refs/tags/") && !hasRef(dir, ref.slice("refs/tags/".length)));
    if (missing.length) git(["-C", dir, "fetch", "-q", other, ...missing.map((ref) => `${ref}:${ref}`)]);
  }
  const baseCommit = new Map(instances.map((i) => [i.instance_id, i.base_commit]));
  let revisions: string[];
  if (instances.length > 0) {
    // Bundles carry the instances' tags in the order their trees were made.
    const tagged = git(["-C", dir, "tag", "--sort=creatordate"])
      .split("\n")
      .filter((t) => baseCommit.has(t));
    revisions = tagged.length > 0 ? tagged : instances.map((i) => i.instance_id);
  } else {
    revisions = ["head"];
  }
  const headCommit = entry?.commit;
  function ref(revision: string): string {
    if (hasRef(dir, revision)) return revision;
    const pinned = baseCommit.get(revision) ?? (revision === "head" ? headCommit : undefined);
    if (!pinned) throw new Error(`${name}: no revision ${revision}`);
    return pinned;
  }
  return {
    name,
    dir,
    revisions,
    ref,
    checkout(revision: string): void {
      git(["-C", dir, "checkout", "-q", "-f", ref(revision)]);
      git(["-C", dir, "clean", "-q", "-fdx"]);
    },
  };
}
