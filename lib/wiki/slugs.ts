/**
 * Wiki addresses: page slugs ("" for the overview, "dir/<path>", "file/<path>") and the
 * app URLs they map to. Pure and free of server imports so pages, routes and client
 * components share one definition. The path a page's search chunk carries is the
 * store's (chunkPathOf in lib/db/wiki-shapes.ts).
 */
import type { WikiPageKind } from "../db/wiki-shapes.ts";

export const OVERVIEW_SLUG = "";

export function fileSlug(path: string): string {
  return `file/${path}`;
}

export function dirSlug(path: string): string {
  return `dir/${path}`;
}

export function parseSlug(slug: string): { kind: WikiPageKind; path: string | null } | null {
  if (slug === OVERVIEW_SLUG) return { kind: "overview", path: null };
  const match = /^(dir|file)\/(.+)$/.exec(slug);
  if (!match?.[2]) return null;
  return { kind: match[1] === "dir" ? "directory" : "file", path: match[2] };
}

/** The slug of the page documenting a path: a file page when it is a known file, else a directory page. */
export function slugForPath(path: string, isFile: boolean): string {
  if (path === "." || path === "") return OVERVIEW_SLUG;
  return isFile ? fileSlug(path) : dirSlug(path);
}

export function wikiHref(repositoryId: string, slug: string): string {
  const base = `/repos/${encodeURIComponent(repositoryId)}/wiki`;
  return slug ? `${base}/${slug.split("/").map(encodeURIComponent).join("/")}` : base;
}

/** The directory a path lives in; "." for the repository root. */
export function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "." : path.slice(0, i);
}

/** Every directory above a path, nearest first, without the root. */
export function ancestorDirs(path: string): string[] {
  const out: string[] = [];
  for (let dir = dirOf(path); dir !== "."; dir = dirOf(dir)) out.push(dir);
  return out;
}
