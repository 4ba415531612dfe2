/**
 * File discovery: which files of a repository get indexed, and the only place that
 * reads them from disk. Git-tracked (and untracked, not ignored) files when the root
 * is a git work tree, else a walk honouring .gitignore. Binaries, oversized and
 * non-UTF-8 files, vendored/build folders and symlinks are skipped and counted;
 * nothing outside the resolved root is ever opened. Secret files are skipped and
 * secrets inside files redacted here (secrets.ts), before any text enters the index.
 * A re-index reads only files whose size or modification time changed since the
 * previous build read them (the stat check git's index uses, racy times included).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { WayfinderError } from "../errors.ts";
import { isInsideRoot, isSafeRelativePath } from "../paths.ts";
import { languageForFile } from "./parser.ts";
import {
  emptySecretReport,
  isKeyMaterialFile,
  isSecretByContent,
  isSecretFile,
  recordSecrets,
  redactSecrets,
  type SecretReport,
} from "./secrets.ts";
import type { KnownFile } from "../db/index-reads.ts";
import type { FileClass } from "../db/file-shapes.ts";
import { FileClassifier, OVERRIDE_FILE } from "./file-class.ts";
import type { SkipReason, SkippedFile } from "../db/build-report.ts";
import { formatBytes, LISTED_SKIPS, MAX_LISTED_SKIPS } from "./build-report.ts";
import type { CodeLanguage } from "./types.ts";
import { BINARY_EXTENSIONS, classify, gitListing, inSkippedDir, walkListing } from "./listing.ts";

export interface DiscoveredFile {
  /** Repository-relative path with forward slashes. */
  path: string;
  language: CodeLanguage | string;
  kind: "code" | "text";
  content: string;
  hash: string;
  size: number;
  lines: number;
  /**
   * The file's modification time (ns since the epoch) when it can vouch for `hash`
   * on a later build; null when too recent to trust or when secrets were redacted.
   */
  mtimeNs: string | null;
  /** vendored, generated, minified or documentation, and why; null for the repository's own source */
  fileClass: FileClass | null;
  classReason: string | null;
}

/** What the previous generation recorded about a file (its `File` row). */
export type { KnownFile };

export interface DiscoveryResult {
  root: string;
  files: DiscoveredFile[];
  skipped: Record<SkipReason, number>;
  /** the skipped files a person can act on, by path (build-report.ts LISTED_SKIPS) */
  skippedFiles: SkippedFile[];
  /** secret files skipped and secrets redacted (by path, line and rule; never the values) */
  secrets: SecretReport;
  source: "git" | "walk";
}

export interface DiscoveryOptions {
  maxFileBytes: number;
  /**
   * Files already indexed, by path. One whose size and trusted modification time are
   * as recorded is not read at all; one whose bytes hash the same is not decoded again
   * (it was valid text before). Both come back with their known hash, line count and
   * language and an empty `content`. May be given while it loads: it is first needed
   * when files are read, after the listing.
   */
  known?: Map<string, KnownFile> | Promise<Map<string, KnownFile>>;
  /**
   * The classifier hash (file-class.ts) the known files were classified with. When the
   * repository's attributes files (or the built-in rules) changed since, every file is
   * read and classified again, and one whose class moved counts as changed.
   */
  knownClassRules?: string | null | Promise<string | null>;
}

/**
 * How long before a file is read its modification time must lie for the time to vouch
 * for the content later ("racy" times, as git calls them). Timestamps advance in clock
 * ticks (a few milliseconds on Linux, seconds on some filesystems), so an edit made
 * right after the read, in the same tick and keeping the size, would leave size and
 * time as recorded; such a file is hashed again on the next build instead.
 */
export const RACY_MARGIN_MS = 2000;

/** Resolves and validates a repository root given by a user; clear errors for bad paths. */
export function resolveRepositoryRoot(input: string): string {
  if (!input || !input.trim()) {
    throw new WayfinderError("bad_request:repo_path", "A repository path is required.");
  }
  if (input.includes("\0"))
    throw new WayfinderError("bad_request:repo_path", "The path contains a NUL byte.");
  const absolute = path.resolve(input.trim());
  let stat: fs.Stats;
  try {
    stat = fs.statSync(absolute);
  } catch {
    throw new WayfinderError("bad_request:repo_path", `No such folder: ${absolute}`);
  }
  if (!stat.isDirectory()) {
    throw new WayfinderError(
      "bad_request:repo_path",
      `${absolute} is a file, not a folder. Give the repository's root folder.`,
    );
  }
  try {
    fs.accessSync(absolute, fs.constants.R_OK | fs.constants.X_OK);
  } catch {
    throw new WayfinderError("bad_request:repo_path", `The folder ${absolute} cannot be read.`);
  }
  return fs.realpathSync(absolute);
}

/**
 * Reads a file strictly inside `root`. Rejects traversal, symlinks resolving outside
 * the root and anything that is not a regular file.
 */
export function readInsideRoot(root: string, relative: string): Buffer {
  if (!isSafeRelativePath(relative)) {
    throw new WayfinderError("bad_request:path", `Not a path inside the repository: ${relative}`);
  }
  const absolute = path.join(root, relative);
  // One realpath(3) call; the JavaScript realpathSync lstats every component of every path.
  const real = fs.realpathSync.native(absolute);
  if (!isInsideRoot(real, root)) {
    throw new WayfinderError("forbidden:path", `${relative} resolves outside the repository.`);
  }
  return fs.readFileSync(real);
}

function emptySkips(): Record<SkipReason, number> {
  return {
    binary: 0,
    "too-large": 0,
    "not-utf8": 0,
    symlink: 0,
    "symlink-outside-root": 0,
    unsupported: 0,
    "excluded-folder": 0,
    unreadable: 0,
    secret: 0,
  };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Any NUL byte marks a file binary (a whole-buffer memchr: cheap, and PostgreSQL text rejects NUL). */
function looksBinary(buffer: Buffer): boolean {
  return buffer.includes(0);
}

/** What failed on a file, for the report: a system error's code (EACCES …), not its message, which holds the server's path. */
function failureDetail(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return code;
  return error instanceof Error ? error.message : String(error);
}

/** Where a file stops being UTF-8, for the report: `line 12`. */
function firstInvalidLine(buffer: Buffer): string | undefined {
  const text = buffer.toString("utf8");
  const at = text.indexOf("\ufffd");
  return at < 0 ? undefined : `first invalid byte on line ${countLines(text.slice(0, at + 1))}`;
}

export function hashContent(content: string | Buffer): string {
  return createHash("sha1").update(content).digest("hex");
}

export function countLines(content: string): number {
  if (content.length === 0) return 0;
  let n = 1;
  for (let i = content.indexOf("\n"); i !== -1; i = content.indexOf("\n", i + 1)) n++;
  return content.endsWith("\n") ? n - 1 : n;
}

/**
 * The indexable files of a repository root (already resolved), listed up front and
 * read one at a time as `files()` is iterated, so a build holds one batch of file
 * texts at a time, never the repository. The skip counters and the secrets report fill
 * as files are read.
 */
export interface DiscoveryStream {
  root: string;
  source: "git" | "walk";
  /** paths listed, before any is skipped */
  listed: number;
  /** listed paths read or checked that yielded no file (skipped, or gone from the work tree) */
  dropped: number;
  /** files read (their bytes), as opposed to vouched for by their size and time */
  read: number;
  /**
   * Known files read again and found unchanged whose modification time moved (touched,
   * checked out anew) or only now became trustworthy: the time to record on their rows.
   */
  restamped: { path: string; mtimeNs: string }[];
  skipped: Record<SkipReason, number>;
  /** the skipped files a person can act on, by path, at most MAX_LISTED_SKIPS (build-report.ts) */
  skippedFiles: SkippedFile[];
  /** secret files skipped and secrets redacted (by path, line and rule; never the values) */
  secrets: SecretReport;
  /** what the files' classes were decided with (FileClassifier.hash) */
  classRules: string;
  files(): AsyncGenerator<DiscoveredFile>;
}

export async function streamFiles(root: string, options: DiscoveryOptions): Promise<DiscoveryStream> {
  const skipped = emptySkips();
  const skippedFiles: SkippedFile[] = [];
  const skip: Skip = (reason, rel, detail) => {
    skipped[reason]++;
    // A binary by its name (an image, an archive) needs no word; one behind a code or text name does.
    if (detail === UNLISTED || !LISTED_SKIPS.includes(reason) || skippedFiles.length >= MAX_LISTED_SKIPS)
      return;
    skippedFiles.push(detail ? { path: rel, reason, detail } : { path: rel, reason });
  };
  const secrets = emptySecretReport();
  const listed = await gitListing(root);
  const candidates = listed ?? walkListing(root);
  const classifier = attributesClassifier(root, candidates);
  const stream: DiscoveryStream = {
    root,
    source: listed ? "git" : "walk",
    listed: candidates.length,
    dropped: 0,
    read: 0,
    restamped: [],
    skipped,
    skippedFiles,
    secrets,
    classRules: classifier.hash,
    files,
  };
  const context: ReadContext = {
    root,
    options,
    skip,
    secrets,
    stream,
    known: undefined,
    reclassify: false,
    classifier,
    realDirs: new Map(),
  };
  async function* files(): AsyncGenerator<DiscoveredFile> {
    context.known = await options.known;
    context.reclassify = ((await options.knownClassRules) ?? null) !== classifier.hash;
    for (const rel of candidates) {
      let file: DiscoveredFile | null;
      try {
        file = await readCandidate(context, rel);
      } catch (error) {
        // Whatever fails on one file (reading, classifying, checking it for secrets) skips
        // that file with the reason, never the build; unchecked, it is never indexed.
        skip("unreadable", rel, failureDetail(error));
        file = null;
      }
      if (file) yield file;
      else stream.dropped++;
    }
  }
  return stream;
}

/** Lists and reads the indexable files of a repository root (already resolved), all at once. */
export async function discoverFiles(root: string, options: DiscoveryOptions): Promise<DiscoveryResult> {
  const stream = await streamFiles(root, options);
  const files: DiscoveredFile[] = [];
  for await (const file of stream.files()) files.push(file);
  return {
    root,
    files,
    skipped: stream.skipped,
    skippedFiles: stream.skippedFiles,
    secrets: stream.secrets,
    source: stream.source,
  };
}

/** Marks a skip that is counted but not listed (see build-report.ts LISTED_SKIPS). */
const UNLISTED = Symbol("unlisted");

/** Counts a skipped path, and lists it with its detail when a person can act on it. */
type Skip = (reason: SkipReason, rel: string, detail?: string | typeof UNLISTED) => void;

interface ReadContext {
  root: string;
  options: DiscoveryOptions;
  skip: Skip;
  secrets: SecretReport;
  stream: DiscoveryStream;
  known: Map<string, KnownFile> | undefined;
  /** whether known files' classes are stale (the attributes changed): every file is read again */
  reclassify: boolean;
  classifier: FileClassifier;
  /** real paths of the folders holding files vouched for by their stat, by folder */
  realDirs: Map<string, string | null>;
}

/** The classifier of a listing: its `.gitattributes` files and the override file, read here. */
function attributesClassifier(root: string, candidates: string[]): FileClassifier {
  const files = candidates.filter(
    (rel) => rel === OVERRIDE_FILE || rel === ".gitattributes" || rel.endsWith("/.gitattributes"),
  );
  const attributes: Array<{ path: string; text: string }> = [];
  for (const rel of files) {
    if (!isSafeRelativePath(rel) || inSkippedDir(rel)) continue;
    try {
      const buffer = readInsideRoot(root, rel);
      if (buffer.length <= 256 * 1024) attributes.push({ path: rel, text: buffer.toString("utf8") });
    } catch {
      // An unreadable attributes file is treated as absent, as git does.
    }
  }
  return new FileClassifier(attributes);
}

/**
 * True when a file that is no link itself lies inside the root once its folder's links
 * are resolved: the check readInsideRoot makes, one realpath per folder, not per file.
 */
function folderInsideRoot(context: ReadContext, absolute: string): boolean {
  const dir = path.dirname(absolute);
  let real = context.realDirs.get(dir);
  if (real === undefined) {
    try {
      real = fs.realpathSync.native(dir);
    } catch {
      real = null;
    }
    context.realDirs.set(dir, real);
  }
  return real !== null && isInsideRoot(real, context.root);
}

/** One listed path read, checked and redacted, or null (and counted) when it is skipped. */
async function readCandidate(context: ReadContext, rel: string): Promise<DiscoveredFile | null> {
  const { root, options, skip, secrets } = context;
  if (!isSafeRelativePath(rel)) return null;
  if (inSkippedDir(rel)) {
    skip("excluded-folder", rel);
    return null;
  }
  const absolute = path.join(root, rel);
  let stat: fs.BigIntStats;
  try {
    stat = fs.lstatSync(absolute, { bigint: true });
  } catch {
    return null; // listed by git but deleted in the work tree
  }
  // Links first, whatever their name: a link to a folder outside the root is reported as such.
  if (stat.isSymbolicLink()) {
    let target: string | null = null;
    try {
      target = fs.realpathSync(absolute);
    } catch {
      // A dangling link, or a loop of links: it leads nowhere, and is never followed.
    }
    const inside = target === null || isInsideRoot(target, root);
    skip(inside ? "symlink" : "symlink-outside-root", rel);
    return null;
  }
  if (isSecretFile(rel)) {
    skip("secret", rel);
    recordSecrets(secrets, rel, { skipped: true });
    return null;
  }
  const type = classify(rel);
  if (BINARY_EXTENSIONS.has(path.posix.extname(rel).toLowerCase())) {
    skip("binary", rel, UNLISTED);
    return null;
  }
  if (!type) {
    skip("unsupported", rel);
    return null;
  }
  if (!stat.isFile()) return null;
  const size = Number(stat.size);
  if (size > options.maxFileBytes) {
    skip("too-large", rel, `${formatBytes(size)}, limit ${formatBytes(options.maxFileBytes)}`);
    return null;
  }
  const mtimeNs = String(stat.mtimeNs);
  const known = context.known?.get(rel);
  // Same size and a trusted, unchanged time: the bytes are the ones hashed before.
  // Nothing is read, but the path must still lead to a file inside the root.
  if (
    known &&
    !context.reclassify &&
    known.mtimeNs === mtimeNs &&
    known.size === size &&
    folderInsideRoot(context, absolute)
  ) {
    return {
      path: rel,
      language: known.language,
      kind: type.kind,
      content: "",
      hash: known.hash,
      size,
      lines: known.lines,
      mtimeNs,
      fileClass: known.fileClass,
      classReason: known.classReason,
    };
  }
  let buffer: Buffer;
  try {
    buffer = readInsideRoot(root, rel);
  } catch (error) {
    skip("unreadable", rel, failureDetail(error));
    return null;
  }
  context.stream.read++;
  if (isKeyMaterialFile(rel) && isSecretByContent(rel, buffer)) {
    skip("secret", rel);
    recordSecrets(secrets, rel, { skipped: true });
    return null;
  }
  // A time at least RACY_MARGIN_MS older than the read vouches for these bytes later.
  const trusted = stat.mtimeNs < (BigInt(Date.now()) - BigInt(RACY_MARGIN_MS)) * 1_000_000n ? mtimeNs : null;
  // Unchanged bytes were valid, redaction-free text before (a redacted file's stored
  // hash is its redacted text's, so it never matches here and is redacted again).
  const raw = hashContent(buffer);
  // Same bytes and the same attributes: the class recorded still holds.
  if (known && known.hash === raw && !context.reclassify) {
    if (trusted !== null && trusted !== known.mtimeNs)
      context.stream.restamped.push({ path: rel, mtimeNs: trusted });
    return {
      path: rel,
      // Same bytes, same language (a header's was read from its content then).
      language: known.language,
      kind: type.kind,
      content: "",
      hash: raw,
      size,
      lines: known.lines,
      mtimeNs: trusted,
      fileClass: known.fileClass,
      classReason: known.classReason,
    };
  }
  if (looksBinary(buffer)) {
    skip("binary", rel);
    return null;
  }
  let content: string;
  try {
    content = utf8.decode(buffer);
  } catch {
    skip("not-utf8", rel, firstInvalidLine(buffer));
    return null;
  }
  if (content.charCodeAt(0) === 0xfeff) content = content.slice(1);
  const classification = context.classifier.classify(rel, content);
  const fileClass = classification?.fileClass ?? null;
  const classReason = classification?.reason ?? null;
  // Read again only to classify it: unchanged bytes and class keep the recorded row.
  if (known && known.hash === raw && known.fileClass === fileClass) {
    return {
      path: rel,
      language: known.language,
      kind: type.kind,
      content: "",
      hash: raw,
      size,
      lines: known.lines,
      mtimeNs: trusted,
      fileClass,
      classReason: known.classReason,
    };
  }
  const redacted = await redactSecrets(rel, content);
  recordSecrets(secrets, rel, redacted);
  return {
    path: rel,
    language: type.kind === "code" ? (languageForFile(rel, content) ?? type.language) : type.language,
    kind: type.kind,
    content: redacted.content,
    // The hash names what is stored: a redacted file's, so it is never mistaken for the raw text.
    hash: redacted.redactions.length > 0 ? hashContent(redacted.content) : raw,
    size,
    lines: countLines(content),
    // A redacted file is read on every build, so every build's report lists its secrets.
    mtimeNs: redacted.redactions.length > 0 ? null : trusted,
    fileClass,
    classReason,
  };
}
