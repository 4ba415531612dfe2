/**
 * Which files of a repository discovery looks at: the listing (git's tracked and
 * untracked-but-not-ignored files, else a walk of the folder), the folders never entered
 * (installed packages, build output, caches), and what a file is by its name — code of a
 * language, text worth indexing, or binary.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import ignore, { type Ignore } from "ignore";
import { languageForPath } from "./parser.ts";
import { isKeyMaterialFile, KEY_MATERIAL_TYPE } from "./secrets.ts";

const run = promisify(execFile);

/**
 * Folders that hold installed packages, build output or tool caches, skipped wherever
 * they appear. Third-party code kept in the repository (`vendor/`, `third_party/`) is
 * indexed and classified vendored instead (file-class.ts).
 */
const SKIPPED_DIRS = new Set([
  ".git",
  ".hg",
  ".svn",
  "node_modules",
  "bower_components",
  "dist",
  "build",
  "out",
  "target",
  ".next",
  ".nuxt",
  "coverage",
  "__pycache__",
  ".venv",
  "venv",
  ".tox",
  ".nox",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
  "site-packages",
  ".gradle",
  ".idea",
  ".vscode",
  ".wayfinder",
]);

/** Text files indexed as prose/config chunks (not parsed as code). */
const TEXT_EXTENSIONS = new Map<string, string>([
  [".md", "markdown"],
  [".mdx", "markdown"],
  [".markdown", "markdown"],
  [".rst", "restructuredtext"],
  [".txt", "text"],
  [".toml", "toml"],
  [".yaml", "yaml"],
  [".yml", "yaml"],
  [".json", "json"],
  [".cfg", "ini"],
  [".ini", "ini"],
  [".properties", "properties"],
  [".sql", "sql"],
  [".sh", "shell"],
  [".html", "html"],
  [".css", "css"],
]);
const TEXT_NAMES = new Map<string, string>([
  ["Dockerfile", "dockerfile"],
  ["Makefile", "makefile"],
  ["README", "text"],
  ["LICENSE", "text"],
  ["CHANGELOG", "text"],
  // Its `module` line roots the Go import paths of the folders below it (lib/indexer/module-scope.ts).
  ["go.mod", "gomod"],
]);

export const BINARY_EXTENSIONS = new Set(
  (
    ".png .jpg .jpeg .gif .bmp .ico .webp .svgz .pdf .zip .gz .tgz .bz2 .xz .7z .rar .jar .war .class " +
    ".so .dylib .dll .exe .o .a .lib .bin .wasm .pyc .pyo .whl .egg .db .sqlite .sqlite3 .woff .woff2 " +
    ".ttf .otf .eot .mp3 .mp4 .wav .ogg .mov .avi .webm .npy .npz .pkl .pickle .h5 .hdf5 .nc .parquet .lock"
  ).split(" "),
);

export function classify(relative: string): { language: string; kind: "code" | "text" } | null {
  const code = languageForPath(relative);
  if (code) return { language: code, kind: "code" };
  const text = TEXT_EXTENSIONS.get(path.posix.extname(relative).toLowerCase());
  if (text) return { language: text, kind: "text" };
  const base = path.posix.basename(relative);
  const named = TEXT_NAMES.get(base) ?? TEXT_NAMES.get(base.split(".")[0] ?? "");
  if (named) return { language: named, kind: "text" };
  // Key material that turns out to hold no private key (certificates, public keys, signatures).
  return isKeyMaterialFile(relative) ? KEY_MATERIAL_TYPE : null;
}

export function inSkippedDir(relative: string): boolean {
  const parts = relative.split("/");
  parts.pop();
  return parts.some((p) => SKIPPED_DIRS.has(p) || p.endsWith(".egg-info"));
}

export async function gitListing(root: string): Promise<string[] | null> {
  if (!fs.existsSync(path.join(root, ".git"))) return null;
  try {
    const { stdout } = await run(
      "git",
      ["-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--deduplicate"],
      { maxBuffer: 256 * 1024 * 1024 },
    );
    return stdout.split("\0").filter(Boolean);
  } catch {
    return null;
  }
}

export function walkListing(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string, rules: { base: string; ig: Ignore }[]) => {
    const relDir = path.relative(root, dir).split(path.sep).join("/");
    let local = rules;
    const gitignore = path.join(dir, ".gitignore");
    if (fs.existsSync(gitignore)) {
      try {
        local = [...rules, { base: relDir, ig: ignore().add(fs.readFileSync(gitignore, "utf8")) }];
      } catch {
        // An unreadable .gitignore is treated as absent.
      }
    }
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
      const ignored = local.some(({ base, ig }) => {
        const sub = base ? rel.slice(base.length + 1) : rel;
        return ig.ignores(entry.isDirectory() ? `${sub}/` : sub);
      });
      if (ignored) continue;
      if (entry.isDirectory()) {
        if (SKIPPED_DIRS.has(entry.name)) continue;
        visit(path.join(dir, entry.name), local);
      } else {
        out.push(rel);
      }
    }
  };
  visit(root, []);
  return out.sort();
}
