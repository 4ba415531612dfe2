/**
 * The packages a repository is made of — the crates of a Cargo workspace, the packages of
 * a JavaScript monorepo, nested Go modules, Python projects in subfolders, Maven and
 * Gradle modules — and the one a question names. A report that says "tracing-opentelemetry
 * 0.17 drops …" or "`@acme/forms` throws …" is about that package: its files are where
 * the fix goes, so they rank ahead of other packages' files (which stay in the ranking).
 */
import "server-only";
import { getFileContent, listFiles } from "../../db/index-reads.ts";
import { generationCache } from "../generation-cache.ts";
import { baseOf, dirOf } from "./file-index.ts";

/** A package of the repository: its folder and the names it goes by (manifest name, folder name). */
export interface Member {
  dir: string;
  names: string[];
}

const MANIFEST = /^(?:Cargo\.toml|package\.json|go\.mod|pyproject\.toml)$/;
/** A Maven or Gradle module by its layout: `<module>/src/main/<language>/…`. */
const JVM_MODULE = /^(.+?)\/src\/main\/[a-z]+\//;
/** Manifests that belong to fixtures, examples, vendored or generated code, not to a package of the repository. */
const NOT_A_MEMBER =
  /(^|\/)(?:node_modules|vendor|vendored|third_party|testdata|fixtures?|__fixtures__|__tests__|tests?|examples?|samples?|demos?|docs?|benches|benchmarks?|dist|build|target)(\/|$)/i;
/** Manifests read at most (a large monorepo has hundreds; the folder name still counts beyond). */
const MAX_MANIFESTS_READ = 400;

/** Read once per generation. */
export const workspaceMembers = generationCache(async (generationId) => {
  const files = await listFiles(generationId);
  const manifests = files.map((f) => f.path).filter((p) => MANIFEST.test(baseOf(p)));
  const texts = new Map<string, string>();
  await Promise.all(
    manifests.slice(0, MAX_MANIFESTS_READ).map(async (p) => {
      const text = await getFileContent(generationId, p);
      if (text) texts.set(p, text);
    }),
  );
  return membersOf(
    files.map((f) => f.path),
    texts,
  );
});

/**
 * The packages below the repository's root, from the file list and the manifests' text.
 * None when the repository is one package (nothing to tell apart).
 */
export function membersOf(paths: string[], manifests: Map<string, string>): Member[] {
  const byDir = new Map<string, Set<string>>();
  const add = (dir: string, name: string | null) => {
    if (!dir || NOT_A_MEMBER.test(dir)) return;
    const names = byDir.get(dir) ?? new Set<string>();
    names.add(normalName(baseOf(dir)));
    if (name) {
      names.add(normalName(name));
      // `@scope/name` is also written `name`; a Go module path by its last segment
      const last = name
        .replace(/\/v\d+$/, "")
        .split("/")
        .pop();
      if (last && last !== name) names.add(normalName(last));
    }
    byDir.set(dir, names);
  };
  for (const p of paths) {
    const base = baseOf(p);
    if (MANIFEST.test(base)) add(dirOf(p), manifestName(base, manifests.get(p) ?? ""));
    const jvm = JVM_MODULE.exec(p);
    if (jvm?.[1]) add(jvm[1], null);
  }
  // The root's own package (a go.mod beside `tools/gen/go.mod`) counts as one, though no report names it apart.
  const rootPackage = paths.some((p) => MANIFEST.test(p)) ? 1 : 0;
  if (byDir.size + rootPackage < 2) return [];
  const members = [...byDir].map(([dir, names]) => ({ dir, names: [...names].filter((n) => n.length > 1) }));
  // The umbrella package whose name starts every other's (`tracing` beside `tracing-core`,
  // `tracing-subscriber`) is named by nearly every report of the repository: it tells nothing.
  const all = members.flatMap((m) => m.names);
  return members.map((m) => ({
    dir: m.dir,
    names: m.names.filter((n) => all.filter((o) => o.startsWith(`${n}-`)).length < 2),
  }));
}

/** The name a manifest declares for its package, if it declares one. */
export function manifestName(base: string, text: string): string | null {
  if (base === "Cargo.toml" || base === "pyproject.toml") {
    const section = /^\[(?:package|project|tool\.poetry)\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(text);
    return /^\s*name\s*=\s*["']([^"']+)["']/m.exec(section?.[1] ?? "")?.[1] ?? null;
  }
  if (base === "package.json") {
    try {
      const name = (JSON.parse(text) as { name?: unknown }).name;
      return typeof name === "string" ? name : null;
    } catch {
      return null;
    }
  }
  if (base === "go.mod") return /^module\s+(\S+)/m.exec(text)?.[1] ?? null;
  return null;
}

/** Names compare without case, `_` and `-` alike (a crate `tracing_subscriber` is `tracing-subscriber`). */
function normalName(name: string): string {
  return name.toLowerCase().replace(/_/g, "-");
}

const PACKAGE_WORD = /^(?:crates?|packages?|modules?|libraries|library|plugins?|workspace|members?)$/i;

/**
 * The one member a question names (in its first line, else anywhere), or null when it
 * names none or several. A name with a
 * separator (`tracing-opentelemetry`, `@acme/forms`) counts wherever it is written; a
 * plain word (`core`, `cli`) only as code (`` `core` ``), beside a version (`cli 0.3`,
 * `cli@2.1`), or beside the word crate, package or module.
 */
export function namedMember(question: string, members: Member[]): Member | null {
  if (members.length === 0) return null;
  // A report's title names what it is about; its body may list every crate it has installed.
  const title = question.trimStart().split("\n")[0] ?? "";
  return namedIn(title, members) ?? namedIn(question, members);
}

function namedIn(question: string, members: Member[]): Member | null {
  const text = question.toLowerCase().replace(/_/g, "-");
  const named = members.filter((m) => m.names.some((n) => namesIn(text, n)));
  if (named.length !== 1) {
    // a member nested in another (`packages/ui` in `packages/ui/…`) is the more specific one
    const deepest = named.filter((m) => !named.some((o) => o !== m && o.dir.startsWith(`${m.dir}/`)));
    return deepest.length === 1 && named.every((m) => deepest[0]!.dir.startsWith(m.dir)) ? deepest[0]! : null;
  }
  return named[0]!;
}

function namesIn(text: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const pattern = new RegExp(`(?<![\\w@/.-])${escaped}(?![\\w-]|[./][\\w])`, "g");
  const distinctive = /[-@/.]/.test(name);
  for (const m of text.matchAll(pattern)) {
    if (distinctive) return true;
    const before = text.slice(Math.max(0, m.index - 20), m.index);
    const after = text.slice(m.index + name.length, m.index + name.length + 20);
    if (before.endsWith("`") && after.startsWith("`")) return true;
    if (/^(?:\s*v?\d+\.\d|@\d)/.test(after)) return true;
    const wordBefore = /(\w+)\s*$/.exec(before)?.[1] ?? "";
    const wordAfter = /^\s*(\w+)/.exec(after)?.[1] ?? "";
    if (PACKAGE_WORD.test(wordBefore) || PACKAGE_WORD.test(wordAfter)) return true;
  }
  return false;
}

/** How much more a named member's file weighs than its rank alone gives it. */
const MEMBER_BOOST = 3;
const RANK_K = 5;

/**
 * Files re-ranked with the named member's files weighted up: each file scores by its rank
 * (1 / (k + rank)), a member file three times that. Nothing is dropped.
 */
export function withMemberFirst(files: string[], member: Member | null): string[] {
  if (!member) return files;
  const inside = (p: string) => p.startsWith(`${member.dir}/`);
  return files
    .map((p, i) => ({ p, i, score: (inside(p) ? MEMBER_BOOST : 1) / (RANK_K + i + 1) }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((x) => x.p);
}
