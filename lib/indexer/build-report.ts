/**
 * What a build tells people about the files it did not index as code: files skipped
 * (too large, not UTF-8, binary behind a text or code name, unreadable, links leading
 * out of the repository) and code files indexed as text (a parse that ran out of time
 * or memory, or failed), each with its reason and what to do; and the files per class
 * (vendored, generated, minified, documentation). One source for the CLI, the
 * repository card and the admin page. Pure: the web pages import it too. The report's
 * shape, as the store reads it back, is lib/db's (lib/db/build-report.ts).
 */
import type { SkipReason, SkippedFile } from "../db/build-report.ts";
import type { FileClass } from "../db/file-shapes.ts";

/**
 * Skips a person can act on, listed by path. The others are counted only: binaries and
 * files of types not indexed (by name), folders of installed packages and build output,
 * and links inside the repository (their targets are indexed under their own paths).
 * Secret files are listed to admins only (/admin/secrets).
 */
export const LISTED_SKIPS: readonly SkipReason[] = [
  "too-large",
  "not-utf8",
  "binary",
  "unreadable",
  "symlink-outside-root",
];

/** How many skipped files a build lists (the counts are complete). */
export const MAX_LISTED_SKIPS = 200;

const SKIP_WHY: Record<SkipReason, string> = {
  "too-large": "over the file size limit",
  "not-utf8": "not UTF-8 text",
  binary: "binary content (NUL bytes) behind a text or code name",
  unreadable: "could not be read",
  "symlink-outside-root": "a link leading outside the repository",
  symlink: "a link (its target is indexed under its own path)",
  secret: "a secret file",
  unsupported: "a file type that is not indexed",
  "excluded-folder": "in a folder of installed packages, build output or caches",
};

const SKIP_TODO: Record<SkipReason, string> = {
  "too-large":
    "Raise WAYFINDER_MAX_FILE_BYTES to index it; if it is data or a generated bundle, leave it out.",
  "not-utf8": "Convert it to UTF-8 to index it.",
  binary: "If it is text, remove the NUL bytes; otherwise nothing to do.",
  unreadable:
    "Let the indexing process read it (file permissions), then re-index; if the reason names another failure, report it with the file.",
  "symlink-outside-root": "Links are never followed out of a repository: copy the target in to index it.",
  symlink: "Nothing to do.",
  secret: "Nothing to do: secret files are never indexed (admins see them under /admin/secrets).",
  unsupported: "Nothing to do.",
  "excluded-folder": "Nothing to do.",
};

/** Skip reasons as counts read: `3 too large · 40 in package or build folders`. */
export const SKIP_LABEL: Record<SkipReason, string> = {
  "too-large": "too large",
  "not-utf8": "not UTF-8",
  binary: "binary",
  unreadable: "unreadable",
  "symlink-outside-root": "links out of the repository",
  symlink: "links",
  secret: "secret",
  unsupported: "other file types",
  "excluded-folder": "in package or build folders",
};

/** Why a file was skipped, in words (with its detail, such as its size). */
export function skipReasonText(file: Pick<SkippedFile, "reason" | "detail">): string {
  const why = SKIP_WHY[file.reason] ?? file.reason;
  return file.detail ? `${why} (${file.detail})` : why;
}

/** What to do about a skipped file. */
export function skipAdvice(reason: SkipReason): string {
  return SKIP_TODO[reason] ?? "Nothing to do.";
}

/** Why a code file was indexed as text, in words: `timeout: over 30 s` → "its parse took too long (over 30 s)". */
export function unparsedReasonText(reason: string): string {
  const colon = reason.indexOf(": ");
  const kind = colon < 0 ? reason : reason.slice(0, colon);
  const detail = colon < 0 ? "" : ` (${reason.slice(colon + 2)})`;
  if (kind === "timeout") return `its parse took too long${detail}`;
  if (kind === "memory") return `parsing it exhausted a parse worker's memory${detail}`;
  return `parsing it failed${detail}`;
}

const MARK_IT =
  "If it is generated or third-party code, mark it linguist-generated or linguist-vendored in .gitattributes (or .wayfinderattributes at the root)";

/** What to do about a code file indexed as text (searchable, without symbols or calls). */
export function unparsedAdvice(reason: string): string {
  if (reason.startsWith("memory"))
    return `${MARK_IT}; if it is the repository's own code, re-index with WAYFINDER_PARSE_THREADS=0 (parsing in the indexing process, without a worker's memory cap).`;
  if (reason.startsWith("timeout")) return `${MARK_IT}; nothing else is needed: its text stays searchable.`;
  return `${MARK_IT}; if it is the repository's own code, its language's parser could not read it (check that it compiles).`;
}

/** What classified files are, and how to change a class. */
export const CLASS_ADVICE =
  "Searchable, but left out of findings, hubs, fan-in/fan-out counts, the wiki and default answers (minified files are not parsed). Change a file's class with linguist-vendored, linguist-generated or linguist-documentation (or =false) in .gitattributes or .wayfinderattributes.";

/** The classes in the order reports show them. */
export const CLASS_ORDER: readonly FileClass[] = ["vendored", "generated", "minified", "documentation"];

/** A size in the units people read: `1.4 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 102.4) / 10} KB`;
  return `${Math.round(bytes / ((1024 * 1024) / 10)) / 10} MB`;
}
