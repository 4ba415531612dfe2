/**
 * The wiki's navigation tree: the overview at the root, folders and files below it in
 * the repository's own layout. Pure, so the browser and its tests share it.
 */
import { dirOf, OVERVIEW_SLUG } from "./slugs.ts";
import type { WikiPageKind } from "../db/wiki-shapes.ts";

export interface WikiTreeNode {
  slug: string;
  kind: WikiPageKind;
  label: string;
  path: string | null;
  children: WikiTreeNode[];
}

export function buildWikiTree(
  pages: { slug: string; kind: WikiPageKind; title: string; sourcePath: string | null }[],
): WikiTreeNode {
  const overview = pages.find((p) => p.kind === "overview");
  const root: WikiTreeNode = {
    slug: OVERVIEW_SLUG,
    kind: "overview",
    label: overview?.title ?? "Overview",
    path: null,
    children: [],
  };
  const folders = new Map<string, WikiTreeNode>([[".", root]]);
  const sorted = [...pages]
    .filter((p) => p.kind !== "overview" && p.sourcePath)
    .sort((a, b) => (a.sourcePath as string).localeCompare(b.sourcePath as string));
  for (const p of sorted) {
    if (p.kind !== "directory") continue;
    const path = p.sourcePath as string;
    folders.set(path, {
      slug: p.slug,
      kind: "directory",
      label: path.split("/").pop() ?? path,
      path,
      children: [],
    });
  }
  for (const p of sorted) {
    const path = p.sourcePath as string;
    const node = p.kind === "directory" ? (folders.get(path) as WikiTreeNode) : null;
    const parent = folders.get(dirOf(path)) ?? root;
    parent.children.push(
      node ?? { slug: p.slug, kind: p.kind, label: path.split("/").pop() ?? path, path, children: [] },
    );
  }
  const order = (node: WikiTreeNode) => {
    node.children.sort(
      (a, b) =>
        Number(b.kind === "directory") - Number(a.kind === "directory") || a.label.localeCompare(b.label),
    );
    node.children.forEach(order);
  };
  order(root);
  return root;
}

/** Slugs of the folders above a page (to open the tree down to it). */
export function openFolders(slug: string): Set<string> {
  const out = new Set<string>([OVERVIEW_SLUG]);
  const match = /^(?:dir|file)\/(.+)$/.exec(slug);
  if (!match?.[1]) return out;
  const parts = match[1].split("/");
  const upTo = slug.startsWith("dir/") ? parts.length : parts.length - 1;
  for (let i = 1; i <= upTo; i++) out.add(`dir/${parts.slice(0, i).join("/")}`);
  return out;
}
