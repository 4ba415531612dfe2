/**
 * Files inside installed packages, found at runtime from node_modules rather than
 * through a bundler import: tree-sitter's WASM grammars for the indexer, mermaid's
 * prebuilt browser build for pages (app/vendor/mermaid), and tsx's loader for the
 * processes that run the CLI or a script. The same lookup works under tsx, vitest,
 * `next start` and a CLI started from another directory.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Directories to resolve packages from: the working directory (the project root
 * under tsx, vitest and `next start`) and, when the runtime provides it, this
 * module's directory (a bundle inside .next, or a CLI started elsewhere).
 */
function searchBases(): string[] {
  const bases = [process.cwd()];
  if (typeof __dirname === "string" && __dirname && !bases.includes(__dirname)) bases.push(__dirname);
  return bases;
}

/**
 * Absolute path of a file inside an installed package: Node resolution first, then
 * a walk up the directories looking for node_modules, for bundles where resolving
 * a package from the bundle fails.
 */
export function packageFile(pkg: string, entry: string, relative: string): string {
  const tried: string[] = [];
  for (const base of searchBases()) {
    try {
      const resolved = path.join(
        path.dirname(createRequire(path.join(base, "noop.js")).resolve(`${pkg}/${entry}`)),
        relative,
      );
      if (fs.existsSync(resolved)) return resolved;
      tried.push(resolved);
    } catch {
      // Not resolvable from here; the directory walk below may still find it.
    }
    for (let dir = base; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, "node_modules", pkg, relative);
      if (fs.existsSync(candidate)) return candidate;
      tried.push(candidate);
      if (path.dirname(dir) === dir) break;
    }
  }
  throw new Error(`Cannot find ${pkg}/${relative} (tried ${tried.join(", ")})`);
}

/**
 * Node's arguments for running a TypeScript file in one process, the way `npm run
 * wayfinder` runs the CLI: tsx's loader from the project at `root` (so any working
 * directory will do) and the server module conditions. The `tsx` command would hold a
 * second Node process for as long as the script runs.
 */
export function tsScriptArgs(script: string, args: string[] = [], root = process.cwd()): string[] {
  const loader = pathToFileURL(path.join(root, "node_modules/tsx/dist/loader.mjs")).href;
  return ["--conditions=react-server", "--import", loader, script, ...args];
}
