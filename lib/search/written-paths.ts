/**
 * Paths as people write them in questions and reports: which tokens name a file or a
 * folder ("src/auth", "models.py", not "and/or" or "Node.js"), and the form a written path
 * most likely has in the repository (no drive letter, no installed-package prefix). Read
 * by the question's anchors and by stack frames.
 */
// prettier-ignore
const EXTENSIONS = [
  "py", "pyi", "pyx", "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "java", "kt", "kts", "scala",
  "groovy", "go", "rs", "rb", "php", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "cs", "swift", "m", "mm",
  "md", "mdx", "rst", "json", "yaml", "yml", "toml", "ini", "cfg", "sql", "sh", "bash", "zsh", "html",
  "css", "scss", "vue", "svelte", "xml", "proto", "graphql", "lua", "dart", "ex", "exs", "hs", "prisma",
];

/** Source and documentation file extensions recognised as paths (lower-case, no dot). */
export const SOURCE_EXTENSIONS: ReadonlySet<string> = new Set(EXTENSIONS);

// Product names that happen to end in a source extension ("Node.js") are not files.
const PRODUCT_NAMES = new Set(["node.js", "next.js", "vue.js", "react.js", "express.js", "nuxt.js", "d3.js"]);

// Top-level folder names common enough that "src/auth" is a path while "and/or" is not.
// prettier-ignore
const COMMON_ROOTS = new Set([
  "src", "lib", "app", "apps", "pkg", "cmd", "internal", "test", "tests", "spec", "backend", "frontend",
  "server", "client", "packages", "components", "scripts", "api", "docs", "bench", "e2e", "prisma",
]);

/**
 * Normalizes a path as written in a report into the form most likely to exist in the
 * repository: forward slashes, no file:// or drive letter, and no installed-package prefix
 * (".../site-packages/requests/models.py" is "requests/models.py" in the repo, and
 * ".../node_modules/dayjs/plugin/utc.js" is "dayjs/plugin/utc.js").
 */
export function normalizePath(raw: string): string {
  let p = raw
    .trim()
    .replace(/^file:\/\//i, "")
    .replace(/\\/g, "/");
  p = p.replace(/^\/?[A-Za-z]:\//, "/");
  const installed = /(?:^|\/)(?:site|dist)-packages\/(?:[^/]+\.egg\/)?(.+)$/.exec(p);
  if (installed?.[1]) return installed[1];
  // An installed npm package: "…/node_modules/dayjs/plugin/utc.js" is "dayjs/plugin/utc.js".
  const npm = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+\/.+)$/.exec(p);
  if (npm?.[1]) return npm[1];
  const egg = /(?:^|\/)[^/]+\.egg\/(.+)$/.exec(p);
  if (egg?.[1]) return egg[1];
  return p.replace(/\/{2,}/g, "/").replace(/^\.\//, "");
}

/** True when a token (already stripped of quotes and line suffixes) names a file or directory. */
export function isPathLike(token: string): boolean {
  const t = token.replace(/\\/g, "/").replace(/^\/?[A-Za-z]:(?=\/)/, "");
  if (t.includes("://") || !/^[\w@.+~\-/]+$/.test(t) || t.length < 3) return false;
  if (PRODUCT_NAMES.has(t.toLowerCase())) return false;
  const ext = /\.([A-Za-z0-9]+)$/.exec(t)?.[1]?.toLowerCase();
  const base = t.slice(t.lastIndexOf("/") + 1);
  if (
    ext &&
    SOURCE_EXTENSIONS.has(ext) &&
    /^[\w@+-]/.test(base) &&
    !/^\d+(\.\d+)*$/.test(base.slice(0, -ext.length - 1))
  ) {
    return true;
  }
  if (!t.includes("/")) return false;
  const segments = t.split("/").filter(Boolean);
  if (segments.length === 0 || segments.some((s) => /^\d+$/.test(s))) return false;
  if (t.endsWith("/") || /^(?:\.{1,2}|~)\//.test(t)) return true;
  if (segments.length >= 3) return true;
  return COMMON_ROOTS.has((segments[0] ?? "").toLowerCase());
}
