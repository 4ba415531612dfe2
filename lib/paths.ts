/**
 * Path safety in one place: whether a path that a person, a model or a file listing
 * gives is a clean path inside a repository, and whether a real path (links resolved)
 * lies inside a root. Nothing here reads a repository's files: lib/indexer/discover.ts
 * alone does, and asks these checks before it opens anything.
 */
import fs from "node:fs";
import path from "node:path";
import { WayfinderError } from "./errors.ts";

/** True when `relative` is a clean repository-relative path (no traversal, not absolute). */
export function isSafeRelativePath(relative: string): boolean {
  if (!relative || relative.includes("\0") || relative.includes("\\")) return false;
  if (path.posix.isAbsolute(relative) || /^[a-zA-Z]:/.test(relative)) return false;
  const normalized = path.posix.normalize(relative);
  return normalized === relative && !normalized.startsWith("../") && normalized !== "..";
}

/**
 * Why a path written in an answer cannot name a file of the repository (null: it can
 * be looked up). Citations are resolved inside the repository only; anything else is
 * never looked up, and the reason is shown with the citation.
 */
export function unsafePathReason(relative: string): string | null {
  if (relative.includes("\\")) return "backslash path";
  if (relative.startsWith("/") || relative.startsWith("~") || /^[A-Za-z]:/.test(relative))
    return "absolute path";
  if (relative.split("/").some((segment) => segment === "..")) return "path leaves the repository";
  return null;
}

/** True when the real path `real` is `root` or lies under it (both with links resolved). */
export function isInsideRoot(real: string, root: string): boolean {
  return real === root || real.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * Refuses a folder outside the allowed roots: on a shared server, users adding
 * repositories through the web app must not be able to index /etc or a colleague's
 * home. Both sides are real paths, so a link cannot smuggle a folder in. `null`
 * allows any folder (open mode without WAYFINDER_REPO_ROOTS); an empty list none.
 */
export function assertAllowedRoot(root: string, allowed: string[] | null): void {
  if (allowed === null) return;
  if (allowed.length === 0) {
    throw new WayfinderError(
      "forbidden:repo_path",
      "This server adds no folders over the web: set WAYFINDER_REPO_ROOTS to allow some, or use the CLI.",
    );
  }
  const inside = allowed.some((dir) => {
    let real: string;
    try {
      real = fs.realpathSync(dir);
    } catch {
      return false;
    }
    return isInsideRoot(root, real);
  });
  if (!inside) {
    throw new WayfinderError(
      "forbidden:repo_path",
      `Repositories can only be added under ${allowed.join(", ")} on this server.`,
    );
  }
}
