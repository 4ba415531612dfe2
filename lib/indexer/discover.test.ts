/**
 * Bad input and safety at the indexer's edge, on real folders: paths that are not
 * repositories, files that must not be indexed (binary, non-UTF-8, too large,
 * vendored, ignored) and links that lead outside the root. Skips are counted per
 * reason, and nothing read through a link escaping the root may reach the index.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getFileContent, listFiles } from "../db/index-reads.ts";
import { listRepositories } from "../db/repositories.ts";
import { WayfinderError } from "../errors.ts";
import { lexicalSearch } from "../search/hybrid.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { indexRepository } from "../builds/build.ts";
import { isSafeRelativePath } from "../paths.ts";
import { discoverFiles, readInsideRoot, resolveRepositoryRoot } from "./discover.ts";

let t: TempEnv;
beforeAll(async () => {
  t = await setupTempEnv();
});
afterAll(async () => {
  await t?.cleanup();
});

async function rejection(promise: Promise<unknown>): Promise<WayfinderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WayfinderError);
  return error as WayfinderError;
}

function thrown(fn: () => unknown): WayfinderError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(WayfinderError);
    return error as WayfinderError;
  }
  throw new Error("expected a WayfinderError");
}

describe("paths that are not repositories", () => {
  it("refuses a missing path, a file and an empty or NUL path with clear errors, registering nothing", async () => {
    const before = (await listRepositories()).length;
    const missing = await rejection(indexRepository(path.join(t.base, "does-not-exist")));
    expect(missing.code).toBe("bad_request:repo_path");
    expect(missing.message).toContain("No such folder");

    const root = t.makeRepo({ "only.py": "x = 1\n" });
    const file = await rejection(indexRepository(path.join(root, "only.py")));
    expect(file.code).toBe("bad_request:repo_path");
    expect(file.message).toMatch(/is a file, not a folder/);

    expect(thrown(() => resolveRepositoryRoot("   ")).message).toMatch(/path is required/);
    expect(thrown(() => resolveRepositoryRoot(`${root}\0`)).message).toMatch(/NUL/);
    expect((await listRepositories()).length).toBe(before);
  });

  it("indexes an empty folder as zero files without failing", async () => {
    const root = t.makeRepo({});
    const { stats, repository } = await indexRepository(root);
    expect(stats).toMatchObject({ files: 0, symbols: 0, chunks: 0, edges: 0, parsedFiles: 0 });
    expect(repository.activeGenerationId).toBe(stats.generationId);
    expect(await lexicalSearch(stats.generationId, "anything")).toEqual([]);
  });
});

describe("files that are skipped", () => {
  let root: string;
  let outside: string;

  beforeAll(() => {
    outside = t.makeDir("outside");
    fs.writeFileSync(path.join(outside, "secret.py"), 'TOKEN = "exfiltratedtoken"\n');
    fs.mkdirSync(path.join(outside, "tree"));
    fs.writeFileSync(path.join(outside, "tree", "deep.py"), 'DEEP = "smuggledtoken"\n');
    root = t.makeRepo({
      "good.py": 'def good():\n    """Indexed normally (heliotrope)."""\n    return 1\n',
      "app.ts": "export const app = () => 1;\n",
      "README.md": "# Readme\n\nPlain docs.\n",
      "bom.py": "\uFEFFdef with_bom():\n    return 2\n",
      // NUL bytes: binary whatever the extension says.
      "blob.py": Buffer.concat([
        Buffer.from("def x():\n"),
        Buffer.from([0, 1, 2, 0]),
        Buffer.from("binarytoken\n"),
      ]),
      "logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      // Latin-1 "café": 0xE9 is not valid UTF-8 on its own.
      "latin1.py": Buffer.from("# caf\xe9 latintoken\ndef f():\n    return 0\n", "latin1"),
      "big.py": `# hugetoken\n${"x = 1\n".repeat(2000)}`,
      "notes.xyz": "unknown format\n",
      "node_modules/lib/index.js": "export const vendoredtoken = 1;\n",
      "dist/bundle.js": "var builttoken = 1;\n",
      ".venv/lib/site.py": "venvtoken = 1\n",
      "pkg/__pycache__/mod.py": "cachetoken = 1\n",
    });
    fs.symlinkSync(path.join(outside, "secret.py"), path.join(root, "leak.py"));
    fs.symlinkSync(path.join(outside, "tree"), path.join(root, "linked"));
    fs.symlinkSync(path.join(root, "good.py"), path.join(root, "alias.py"));
  });

  it("classifies every skip by reason during discovery", async () => {
    const result = await discoverFiles(root, { maxFileBytes: 4096 });
    expect(result.source).toBe("walk");
    expect(result.files.map((f) => f.path)).toEqual(["README.md", "app.ts", "bom.py", "good.py"]);
    expect(result.skipped).toEqual({
      binary: 2,
      "too-large": 1,
      "not-utf8": 1,
      symlink: 1,
      "symlink-outside-root": 2,
      unsupported: 1,
      // Package, build and cache folders are pruned from the walk, never listed.
      "excluded-folder": 0,
      unreadable: 0,
      secret: 0,
    });
    // Listed by path with a detail where one helps; a binary by its name and a link inside are only counted.
    expect([...result.skippedFiles].sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: "big.py", reason: "too-large", detail: "11.7 KB, limit 4 KB" },
      { path: "blob.py", reason: "binary" },
      { path: "latin1.py", reason: "not-utf8", detail: "first invalid byte on line 1" },
      { path: "leak.py", reason: "symlink-outside-root" },
      { path: "linked", reason: "symlink-outside-root" },
    ]);
    // A BOM is dropped so the first symbol parses and offsets match editors.
    expect(result.files.find((f) => f.path === "bom.py")?.content.startsWith("def with_bom")).toBe(true);
  });

  it("skips links that loop or lead back to the root without following them", async () => {
    const loops = t.makeRepo({ "ok.py": "def ok():\n    return 1\n" });
    fs.symlinkSync("loop-b.py", path.join(loops, "loop-a.py"));
    fs.symlinkSync("loop-a.py", path.join(loops, "loop-b.py"));
    fs.symlinkSync(".", path.join(loops, "self"));
    fs.mkdirSync(path.join(loops, "sub"));
    fs.symlinkSync("..", path.join(loops, "sub", "up"));
    const result = await discoverFiles(loops, { maxFileBytes: 1 << 20 });
    expect(result.files.map((f) => f.path)).toEqual(["ok.py"]);
    expect(result.skipped.symlink).toBe(4);
    expect(result.skipped["symlink-outside-root"]).toBe(0);
  });

  it("finds a NUL byte anywhere in a file, not only near its start", async () => {
    const late = t.makeRepo({
      "ok.py": "def ok():\n    return 1\n",
      // Valid UTF-8 (NUL is a valid code point) with the NUL far past the first 8 KB.
      "late.py": Buffer.concat([Buffer.from(`${"# padding\n".repeat(2000)}x = 1\n`), Buffer.from([0])]),
    });
    const result = await discoverFiles(late, { maxFileBytes: 1 << 20 });
    expect(result.files.map((f) => f.path)).toEqual(["ok.py"]);
    expect(result.skippedFiles).toEqual([{ path: "late.py", reason: "binary" }]);
  });

  it("keeps skipped content, and anything behind an escaping link, out of the index", async () => {
    const { stats } = await indexRepository(root, { maxFileBytes: 4096 });
    expect(stats.files).toBe(4);
    expect(stats.skipped["symlink-outside-root"]).toBe(2);
    expect(stats.skipped["not-utf8"]).toBe(1);
    expect(stats.skipped["too-large"]).toBe(1);
    expect(stats.skipped.binary).toBe(2);
    const gen = stats.generationId;
    expect((await listFiles(gen)).map((f) => f.path)).toEqual(["README.md", "app.ts", "bom.py", "good.py"]);
    for (const token of [
      "exfiltratedtoken",
      "smuggledtoken",
      "binarytoken",
      "latintoken",
      "hugetoken",
      "vendoredtoken",
      "builttoken",
      "venvtoken",
      "cachetoken",
    ]) {
      expect(await lexicalSearch(gen, token), token).toEqual([]);
    }
    expect(
      (await lexicalSearch(gen, "heliotrope", { kinds: ["code", "file", "doc", "text"] })).map((h) => h.path),
    ).toEqual(["good.py"]);
    expect(await getFileContent(gen, "leak.py")).toBeNull();
  });
});

describe(".gitignore", () => {
  const tree = {
    ".gitignore": "secret_*.py\ngenerated/\n",
    "main.py": "def main():\n    return 1\n",
    "secret_keys.py": 'KEY = "ignoredtoken"\n',
    "generated/out.py": "def generated():\n    return 1\n",
    "sub/.gitignore": "local_only.py\n",
    "sub/local_only.py": "def local_only():\n    return 1\n",
    "sub/kept.py": "def kept():\n    return 1\n",
  };

  it("does not decode files whose bytes hash as already indexed, and does decode changed ones", async () => {
    const root = t.makeRepo({ "a.py": "x = 1\n", "b.py": "y = 2\nz = 3\n" });
    const first = await discoverFiles(root, { maxFileBytes: 1 << 20 });
    const known = new Map(
      first.files.map((f) => [
        f.path,
        {
          hash: f.hash,
          lines: f.lines,
          language: f.language,
          size: f.size,
          mtimeNs: null,
          fileClass: null,
          classReason: null,
        },
      ]),
    );
    t.write(root, "b.py", "y = 4\n");
    const again = await discoverFiles(root, { maxFileBytes: 1 << 20, known });
    const [a, b] = again.files;
    expect(a).toMatchObject({
      path: "a.py",
      language: "python",
      content: "",
      lines: 1,
      hash: known.get("a.py")?.hash,
    });
    expect(b).toMatchObject({ path: "b.py", content: "y = 4\n", lines: 1 });
    expect(b?.hash).not.toBe(known.get("b.py")?.hash);
  });

  it("is honoured by the walk in a folder that is not a git repository", async () => {
    const root = t.makeRepo(tree);
    const result = await discoverFiles(root, { maxFileBytes: 1 << 20 });
    expect(result.source).toBe("walk");
    expect(result.files.map((f) => f.path)).toEqual(["main.py", "sub/kept.py"]);
  });

  it("is honoured through git ls-files in a git repository, with untracked files included", async () => {
    const root = t.makeRepo({
      ...tree,
      "vendor/lib.py": "def vendored():\n    return 1\n",
      "node_modules/pkg/index.js": "export const installed = 1;\n",
      "gone.py": "x = 1\n",
    });
    const git = (...args: string[]) =>
      execFileSync(
        "git",
        ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", ...args],
        {
          cwd: root,
          stdio: "pipe",
          env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: t.base },
        },
      );
    git("init", "-q");
    git("add", "-A");
    git("commit", "-q", "-m", "fixture");
    // Tracked but deleted in the work tree, and new but not yet added.
    fs.rmSync(path.join(root, "gone.py"));
    fs.writeFileSync(path.join(root, "untracked.py"), "def fresh():\n    return 1\n");

    const result = await discoverFiles(root, { maxFileBytes: 1 << 20 });
    expect(result.source).toBe("git");
    expect(result.files.map((f) => f.path).sort()).toEqual([
      "main.py",
      "sub/kept.py",
      "untracked.py",
      "vendor/lib.py",
    ]);
    // Committed third-party code is indexed, as vendored; committed installed packages are skipped.
    expect(result.files.find((f) => f.path === "vendor/lib.py")?.fileClass).toBe("vendored");
    expect(result.skipped["excluded-folder"]).toBe(1);
    // Counted, not listed: installed packages need nothing done about them.
    expect(result.skippedFiles).toEqual([]);

    const { stats } = await indexRepository(root);
    expect(stats.source).toBe("git");
    expect(stats.files).toBe(4);
    expect(stats.fileClasses).toEqual({ vendored: 1 });
    expect(await lexicalSearch(stats.generationId, "ignoredtoken")).toEqual([]);
  });
});

describe("reading inside the root", () => {
  let root: string;
  beforeAll(() => {
    const outside = t.makeDir("outside-read");
    fs.writeFileSync(path.join(outside, "secret.txt"), "top secret\n");
    root = t.makeRepo({ "src/ok.py": "ok = 1\n" });
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "escape.txt"));
    fs.symlinkSync(outside, path.join(root, "escape-dir"));
  });

  it("accepts clean relative paths only", () => {
    for (const ok of ["a.py", "src/ok.py", "deep/er/file.ts", "dir/"])
      expect(isSafeRelativePath(ok), ok).toBe(true);
    for (const bad of [
      "",
      "..",
      "../x",
      "src/../../x",
      "src/../ok.py",
      "./a.py",
      "a//b",
      "/etc/passwd",
      "C:/Windows/win.ini",
      "c:x",
      "src\\ok.py",
      "..\\x",
      "a\0b",
    ]) {
      expect(isSafeRelativePath(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it("reads files inside the root and refuses traversal, absolute paths and link escapes", () => {
    expect(readInsideRoot(root, "src/ok.py").toString()).toBe("ok = 1\n");
    for (const bad of [
      "../outside-read/secret.txt",
      "/etc/passwd",
      path.join(root, "src/ok.py"),
      "src\\ok.py",
      "ok\0.py",
    ]) {
      const error = thrown(() => readInsideRoot(root, bad));
      expect(error.code, bad).toBe("bad_request:path");
    }
    for (const escape of ["escape.txt", "escape-dir/secret.txt"]) {
      const error = thrown(() => readInsideRoot(root, escape));
      expect(error.code, escape).toBe("forbidden:path");
      expect(error.message).toContain("outside the repository");
    }
  });
});
