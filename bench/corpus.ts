/**
 * Where the benchmark's external data lives: the SWE-bench Lite instances and the git
 * bundles of real repositories (`corpus/` for the first languages, `corpus-langs/` for
 * the later ones). One place decides the folder, so a `--corpus DIR` option (or another
 * layout of the checkout) changes it for every section.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..");

let chosen: string | null = null;

/** Points every section at another data folder (the one holding `corpus/`). */
export function setBenchDataDir(dir: string): void {
  chosen = path.resolve(dir);
}

/**
 * The folder holding `swebench-lite-dev.jsonl`, `corpus/` and `corpus-langs/`: the one set
 * with setBenchDataDir, else `shared/bench` beside the checkout (or beside the folder of
 * worktrees the checkout sits in).
 */
export function benchDataDir(): string {
  if (chosen) return chosen;
  const candidates = [
    path.resolve(ROOT, "..", "shared", "bench"),
    path.resolve(ROOT, "..", "..", "shared", "bench"),
  ];
  return candidates.find((c) => fs.existsSync(c)) ?? (candidates[0] as string);
}

export type CorpusSet = "corpus" | "corpus-langs";

/** The folder of git bundles of one corpus set. */
export function bundleFolder(set: CorpusSet = "corpus"): string {
  return path.join(benchDataDir(), set);
}

/**
 * A working copy of one bundle under `work/repos` (cloned once, reset on every call) and
 * its tags, oldest first.
 */
export function checkoutBundle(
  work: string,
  bundle: string,
  set: CorpusSet = "corpus",
): { dir: string; tags: string[] } {
  const dir = path.join(work, "repos", bundle);
  if (!fs.existsSync(dir)) {
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    execFileSync("git", ["clone", "-q", path.join(bundleFolder(set), `${bundle}.bundle`), dir]);
  }
  execFileSync("git", ["-C", dir, "checkout", "-q", "-f", "."]);
  const tags = execFileSync("git", ["-C", dir, "tag", "--sort=creatordate"], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean);
  return { dir, tags };
}

/** This project's own source at a commit, exported once into `work/repos/self-<commit>`. */
export function checkoutSelf(work: string, commit: string): string {
  const dir = path.join(work, "repos", `self-${commit.slice(0, 12)}`);
  if (!fs.existsSync(dir)) {
    const partial = `${dir}.partial`;
    fs.rmSync(partial, { recursive: true, force: true });
    fs.mkdirSync(partial, { recursive: true });
    const archive = execFileSync("git", ["-C", ROOT, "archive", "--format=tar", commit], {
      maxBuffer: 512 * 1024 * 1024,
    });
    execFileSync("tar", ["-x", "-C", partial], { input: archive });
    fs.renameSync(partial, dir);
  }
  return dir;
}
