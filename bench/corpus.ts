/**
 * Where the bench's repositories come from. Each repository in bench/data/corpus.json is
 * taken from a git bundle named `<name>.bundle` in a corpus folder (`--corpus DIR`, or
 * WAYFINDER_BENCH_CORPUS; a folder and its direct subfolders are searched), else cloned
 * from its upstream URL. A revision is a named ref (the bundles tag each SWE-bench
 * instance with its id, the single-commit bundles with `head`) or, in a plain clone,
 * the pinned commit: the instance's base commit, or the commit the manifest records.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { childProcessEnv, env } from "../lib/env.ts";

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
  edit_functions: string[];
}

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
let corpusFolders: string[] | null = null;

function folders(): string[] {
  corpusFolders ??= (env().WAYFINDER_BENCH_CORPUS ?? "").split(path.delimiter).filter(Boolean);
  return corpusFolders;
}

/** Sets the folders searched for bundles (the `--corpus` option). */
export function setCorpusFolders(list: string[]): void {
  for (const folder of list) {
    if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
      throw new Error(`--corpus ${folder}: not a folder`);
    }
  }
  corpusFolders = list.map((f) => path.resolve(f));
}

/** The environment of a bench worker: its data directory, and the same corpus folders. */
export function benchChildEnv(home: string): NodeJS.ProcessEnv {
  return childProcessEnv({ WAYFINDER_HOME: home, WAYFINDER_BENCH_CORPUS: folders().join(path.delimiter) });
}

export function corpusManifest(): Record<string, CorpusEntry> {
  return JSON.parse(fs.readFileSync(path.join(BENCH_DATA, "corpus.json"), "utf8")) as Record<
    string,
    CorpusEntry
  >;
}

export function sweInstances(): SweInstance[] {
  return fs
    .readFileSync(path.join(BENCH_DATA, "swebench-lite-dev.jsonl"), "utf8")
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
  return folders().flatMap((folder) =>
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

/** The tags of another bundle of the same repository that the clone does not have yet. */
function addMissingTags(dir: string, bundle: string): void {
  git(["-C", dir, "fetch", "-q", bundle, "+refs/tags/*:refs/bundle-tags/*"]);
  const list = (prefix: string) =>
    git(["-C", dir, "for-each-ref", "--format=%(refname:strip=2) %(objectname)", prefix])
      .split("\n")
      .filter(Boolean)
      .map((line) => line.split(" ") as [string, string]);
  const existing = new Set(list("refs/tags/").map(([tag]) => tag));
  const fetched = list("refs/bundle-tags/");
  const commands = [
    ...fetched.filter(([tag]) => !existing.has(tag)).map(([tag, sha]) => `create refs/tags/${tag} ${sha}`),
    ...fetched.map(([tag]) => `delete refs/bundle-tags/${tag}`),
  ];
  if (commands.length > 0)
    execFileSync("git", ["-C", dir, "update-ref", "--stdin"], { input: `${commands.join("\n")}\n` });
}

/** Clones (once) and opens a corpus repository. */
export function openRepo(name: string): CorpusRepo {
  const entry = corpusManifest()[name];
  if (!entry) throw new Error(`${name} is not in bench/data/corpus.json`);
  const dir = path.join(BENCH_WORK, "repos", name);
  if (!fs.existsSync(path.join(dir, ".git"))) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    const bundle = findBundles(name)[0];
    const source = bundle ?? entry.url;
    try {
      git(["clone", "-q", "--no-checkout", source, dir]);
    } catch (error) {
      throw new Error(
        `could not get ${name} from ${source}${bundle ? "" : " (no bundle found: pass --corpus DIR with bench bundles to work offline)"}: ${String((error as { stderr?: string }).stderr ?? error).trim()}`,
      );
    }
  }
  // A repository can have bundles in several corpus folders (one per benchmark, each with its
  // own tags): the clone gets the tags of all of them. A tag two bundles name differently
  // keeps the first bundle's commit (fetching over it would fail the whole fetch).
  for (const other of findBundles(name).slice(1)) addMissingTags(dir, other);
  const instances = sweInstances().filter((i) => corpusKey(i.repo) === name);
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
  const headCommit = entry.commit;
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
